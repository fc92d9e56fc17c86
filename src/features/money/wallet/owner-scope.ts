// Whose money a wallet, withdrawal or pay-connect route acts on. The user routes (/user/me/wallet,
// /withdrawals, /pay-connect/**) and the agency routes (/agencies/{id}/...) are built by the same
// route factories from a scope: the scope only resolves the Owner and checks the caller's right;
// the services behind the routes already take any Owner.
import type { Context } from 'hono';
import { eq } from 'drizzle-orm';
import { users } from '../../../db/schema';
import type { AppEnv } from '../../../env';
import { authErrorResponses } from '../../../lib/openapi';
import type { Owner } from '../ledger/posting-rules';
import type { IdParams } from '../../../validation';

/** `read`: figures and histories; `manage`: anything that moves money or changes a setting. */
export type MoneyAccess = 'read' | 'manage';

export interface OwnerScope {
  /** Prefix of the withdrawal and pay-connect paths: '' for the caller, '/agencies/{id}' for an agency. */
  prefix: string;
  /** The wallet path (the user's is /user/me/wallet, not under the prefix). */
  walletPath: string;
  /** Path parameters of the prefix, if any. */
  params?: typeof IdParams;
  /** Names the owner in summaries: "the caller’s", "the agency’s". */
  whose: string;
  /** Who may call a route of the scope, per access, for its description ('' for the caller's own money). */
  who: Record<MoneyAccess, string>;
  /** Owner word in operationIds: '' for the caller (getWallet), 'Agency' for an agency (getAgencyWallet). */
  operationOwner: '' | 'Agency';
  /** OpenAPI tags added to the feature's own. */
  extraTags: string[];
  /** Error statuses the scope itself can raise (404 for an unknown agency). */
  errorStatuses: number[];
  /** The Owner the request acts for; throws 403/404 when the caller may not. */
  resolve(c: Context<AppEnv>, access: MoneyAccess): Promise<Owner>;
  /** The e-mail given to the provider when the connected account is created. */
  contactEmail(c: Context<AppEnv>, owner: Owner): Promise<string | undefined>;
}

/** A scoped route's description: what it does, then who may call it for this scope. */
export const scopeDescription = (scope: OwnerScope, access: MoneyAccess, what: string) => [what, scope.who[access]].filter(Boolean).join(' ');

/** `whose` at the start of a sentence. */
export const whoseTitle = (scope: OwnerScope) => scope.whose.charAt(0).toUpperCase() + scope.whose.slice(1);

/** The error responses of a scoped route: the authenticated set, the scope's own (404 for an agency) and the route's. */
export const scopeErrors = (scope: OwnerScope, ...statuses: number[]) => authErrorResponses(...scope.errorStatuses, ...statuses);

/** The caller's own money. */
export const CALLER_SCOPE: OwnerScope = {
  prefix: '',
  walletPath: '/user/me/wallet',
  whose: 'the caller’s',
  who: { read: '', manage: '' },
  operationOwner: '',
  extraTags: [],
  errorStatuses: [],
  resolve: async (c) => ({ type: 'USER', id: c.get('auth').id }),
  contactEmail: async (c, owner) => {
    const [user] = await c.get('deps').db.select({ email: users.email }).from(users).where(eq(users.id, owner.id));
    return user?.email;
  },
};
