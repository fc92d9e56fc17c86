// Types of deploy-rules.mjs for the test suite.
export type Vars = Record<string, unknown>;
export const BUDGET_GZIP_KIB: number;
export function appLinkProblems(vars: Vars): string[];
export const LEGAL_IDENTITY: string[];
export function legalIdentityProblems(vars: Vars): string[];
export const RETENTION_SLOT: { hour: number; minutes: number[] };
export function firesInRetentionSlot(cron: string): boolean;
export function retentionProblems(crons: string[] | undefined): string[];
export function bundleProblems(code: string): string[];
export function placeholderProblems(config: { resources?: { name: string; kind: string; id?: string | null }[]; vars?: Vars; routes?: (string | { pattern: string })[]; env?: string }): string[];
export function stagingProblems(
  env: { vars: Vars; resources: { name: string; kind: string; id?: string | null }[] },
  production: { vars: Vars; resources: { name: string; kind: string; id?: string | null }[] },
): string[];
