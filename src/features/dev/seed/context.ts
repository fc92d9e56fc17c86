// What every seed step works with: the dependencies, the demo password and the demo accounts' ids.
import type { Deps } from '../../../env';

export const DEFAULT_DEMO_PASSWORD = 'Demo-password-1';

export const DEMO_ACCOUNTS = [
  { email: 'superadmin@demo.local', firstName: 'Sam', lastName: 'Super', roles: ['ROLE_CLIENT', 'ROLE_SUPERADMIN'] },
  { email: 'admin@demo.local', firstName: 'Ada', lastName: 'Admin', roles: ['ROLE_CLIENT', 'ROLE_ADMIN'] },
  { email: 'carrier@demo.local', firstName: 'Carla', lastName: 'Carrier', roles: ['ROLE_CLIENT', 'ROLE_VERIFIED_USER'], kyc: true },
  { email: 'sender@demo.local', firstName: 'Sid', lastName: 'Sender', roles: ['ROLE_CLIENT'] },
] as const;

export interface SeedContext extends Deps {
  password: string;
  /** Ids of the demo accounts by email, filled by the first step. */
  userIds: Record<string, number>;
}

export type SeedStep = (ctx: SeedContext) => Promise<void>;
