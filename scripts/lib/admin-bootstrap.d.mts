// Types of admin-bootstrap.mjs for the test suite.
export const ROLE_ORDER: string[];
export const USAGE: string;
export interface BootstrapOptions {
  email: string;
  target: 'local' | 'remote';
  env: string | null;
  persistTo: string | null;
  force: boolean;
}
export function parseBootstrapArgs(argv: string[]): BootstrapOptions | { error: string };
export function lookupSql(email: string): string;
export interface Promotion {
  id: number;
  before: string[];
  after: string[];
}
export function decide(row: Record<string, unknown> | undefined, options: { email: string; force: boolean }): { refuse: string } | { done: string } | { promote: Promotion };
export function promoteSql(promotion: Promotion, options: { force: boolean; at?: string }): string[];
