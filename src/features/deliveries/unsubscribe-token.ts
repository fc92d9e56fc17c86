// The signed token of an e-mail's one-click unsubscribe link (List-Unsubscribe, RFC 8058): the
// user and the notification kind, read back without storage. Signed with a key of its own,
// derived from RECEIPT_SIGNING_SECRET with a label, so it can never pass for a receipt link.
import { openSignedClaims, signClaims } from '../../lib/signed-claims';

const keyOf = (env: Pick<Env, 'RECEIPT_SIGNING_SECRET'>) => `unsubscribe:${env.RECEIPT_SIGNING_SECRET}`;

export interface UnsubscribeClaims {
  purpose: 'unsubscribe';
  userId: number;
  kind: string;
}

export const unsubscribeToken = (env: Pick<Env, 'RECEIPT_SIGNING_SECRET'>, userId: number, kind: string) =>
  signClaims(keyOf(env), { purpose: 'unsubscribe', userId, kind } satisfies UnsubscribeClaims);

/** The claims of a well-signed token, or null. */
export async function openUnsubscribeToken(env: Pick<Env, 'RECEIPT_SIGNING_SECRET'>, token: string): Promise<UnsubscribeClaims | null> {
  const opened = await openSignedClaims(keyOf(env), token);
  if (!opened.ok) return null;
  const claims = opened.claims as Partial<UnsubscribeClaims>;
  return claims.purpose === 'unsubscribe' && typeof claims.userId === 'number' && typeof claims.kind === 'string' ? (claims as UnsubscribeClaims) : null;
}
