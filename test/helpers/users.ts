// Test factories for users: insert straight into D1 and mint a real access token, so feature
// tests do not depend on the login flow.
import { env } from 'cloudflare:workers';
import { getDb } from '../../src/db/client';
import { users } from '../../src/db/schema';
import { ACCESS_TOKEN_TTL_SECONDS, signToken } from '../../src/lib/jwt';

let counter = 0;

export interface TestUser {
  id: number;
  email: string;
  roles: string[];
  token: string;
}

export interface UserOptions {
  email?: string;
  firstName?: string;
  lastName?: string;
  roles?: string[];
  kycStatus?: 'NOT_VERIFIED' | 'PENDING' | 'VERIFIED';
  enabled?: boolean;
  passwordHash?: string | null;
}

export async function createUser(options: UserOptions = {}): Promise<TestUser> {
  counter += 1;
  const email = options.email ?? `user${counter}-${crypto.randomUUID().slice(0, 8)}@test.local`;
  const roles = options.roles ?? ['ROLE_CLIENT'];
  const [row] = await getDb(env)
    .insert(users)
    .values({
      email,
      firstName: options.firstName ?? `First${counter}`,
      lastName: options.lastName ?? `Last${counter}`,
      roles,
      kycStatus: options.kycStatus ?? (roles.includes('ROLE_VERIFIED_USER') ? 'VERIFIED' : 'NOT_VERIFIED'),
      enabled: options.enabled ?? true,
      emailVerified: true,
      passwordHash: options.passwordHash ?? null,
    })
    .returning({ id: users.id });
  return { id: row.id, email, roles, token: await tokenFor(row.id, roles) };
}

export async function tokenFor(userId: number, roles: string[]): Promise<string> {
  const { token } = await signToken(env, { sub: String(userId), typ: 'access', roles }, ACCESS_TOKEN_TTL_SECONDS);
  return token;
}

export const createCarrier = (options: UserOptions = {}) =>
  createUser({ roles: ['ROLE_CLIENT', 'ROLE_VERIFIED_USER'], ...options });
export const createAdmin = (options: UserOptions = {}) => createUser({ roles: ['ROLE_CLIENT', 'ROLE_ADMIN'], ...options });
export const createSuperAdmin = (options: UserOptions = {}) =>
  createUser({ roles: ['ROLE_CLIENT', 'ROLE_SUPERADMIN'], ...options });
