// The signed token of an e-mail's one-click unsubscribe link (List-Unsubscribe, RFC 8058): the
// user and the notification kind, read back without storage. Signed with a key of its own,
// derived from RECEIPT_SIGNING_SECRET with a label, so it can never pass for a receipt link.
import { openSignedClaims, signClaims } from '../../lib/signed-claims';

const keyOf = (env: Pick<Env, 'RECEIPT_SIGNING_SECRET'>) => `unsubscribe:${env.RECEIPT_SIGNING_SECRET}`;

/** How long an e-mail's unsubscribe link works: long enough for an old e-mail, not for ever. */
export const UNSUBSCRIBE_TTL_SECONDS = 180 * 24 * 60 * 60;

export interface UnsubscribeClaims {
  purpose: 'unsubscribe';
  userId: number;
  kind: string;
  /** Expiry, seconds since the epoch. */
  exp: number;
}

export const unsubscribeToken = (env: Pick<Env, 'RECEIPT_SIGNING_SECRET'>, userId: number, kind: string, now = Date.now()) =>
  signClaims(keyOf(env), { purpose: 'unsubscribe', userId, kind, exp: Math.floor(now / 1000) + UNSUBSCRIBE_TTL_SECONDS } satisfies UnsubscribeClaims);

/** The claims of a well-signed token still valid at `now`; otherwise why it is refused. */
export async function openUnsubscribeToken(
  env: Pick<Env, 'RECEIPT_SIGNING_SECRET'>,
  token: string,
  now = Date.now(),
): Promise<{ ok: true; claims: UnsubscribeClaims } | { ok: false; reason: 'FORGED' | 'EXPIRED' }> {
  const opened = await openSignedClaims(keyOf(env), token);
  if (!opened.ok) return { ok: false, reason: 'FORGED' };
  const claims = opened.claims as Partial<UnsubscribeClaims>;
  const wellFormed = claims.purpose === 'unsubscribe' && typeof claims.userId === 'number' && typeof claims.kind === 'string' && typeof claims.exp === 'number';
  if (!wellFormed) return { ok: false, reason: 'FORGED' };
  if (claims.exp! * 1000 <= now) return { ok: false, reason: 'EXPIRED' };
  return { ok: true, claims: claims as UnsubscribeClaims };
}
