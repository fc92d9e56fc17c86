// Every absolute link the service hands out (checkout callbacks, receipts, recipient pages,
// e-mail links, provider return URLs) is built here, from PUBLIC_BASE_URL.
import { receiptToken } from './receipt-token';

/** Where the API is mounted (CONTRACT: every path starts with it unless marked root). */
export const API_PREFIX = '/v1/api';

/** The local default when PUBLIC_BASE_URL is unset (wrangler dev on 127.0.0.1:8787). */
const LOCAL_BASE_URL = 'http://127.0.0.1:8787';

/** The public origin, without a trailing slash. */
export const publicBaseUrl = (env: Pick<Env, 'PUBLIC_BASE_URL'>): string =>
  (env.PUBLIC_BASE_URL || LOCAL_BASE_URL).replace(/\/+$/, '');

/** An absolute link to a root path (`/r/{token}`, `/verify-email?...`). */
export const rootUrl = (env: Pick<Env, 'PUBLIC_BASE_URL'>, path: string): string => `${publicBaseUrl(env)}${path}`;

/** An absolute link to an API path (`/transactions/1/receipt` → `.../v1/api/transactions/1/receipt`). */
export const apiUrl = (env: Pick<Env, 'PUBLIC_BASE_URL'>, path: string): string => `${publicBaseUrl(env)}${API_PREFIX}${path}`;

/** The recipient's public page of a reservation (CONTRACT section 8). */
export const recipientPageUrl = (env: Pick<Env, 'PUBLIC_BASE_URL'>, recipientToken: string): string =>
  rootUrl(env, `/r/${recipientToken}`);

/**
 * The PDF receipt of a transaction, as a signed link that expires (lib/receipt-token.ts): it opens
 * in a browser without a bearer token. `invoiceUrl` and the history's `receiptUrl` hold it.
 */
export const receiptUrl = async (env: Pick<Env, 'PUBLIC_BASE_URL' | 'RECEIPT_SIGNING_SECRET'>, transactionId: number, nowMs?: number): Promise<string> =>
  apiUrl(env, `/public/receipts/${await receiptToken(env.RECEIPT_SIGNING_SECRET, transactionId, nowMs)}`);
