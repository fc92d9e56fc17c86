// The token of a receipt link (issue 18, defect 10): a transaction id, a purpose and an expiry,
// signed with RECEIPT_SIGNING_SECRET (lib/signed-claims.ts), so a browser opens the PDF without a
// bearer token until the link expires. lib/urls.ts builds the link; the public receipt route reads it.
import { accessDenied } from '../errors';
import { openSignedClaims, signClaims } from './signed-claims';

/** A link lives a day (up to an hour more: the expiry is rounded up to the hour, so a transaction's link stays the same for an hour). */
export const RECEIPT_LINK_TTL_S = 24 * 3600;
const EXPIRY_STEP_S = 3600;

export function receiptToken(secret: string, transactionId: number, nowMs = Date.now()): Promise<string> {
  const exp = Math.ceil((Math.floor(nowMs / 1000) + RECEIPT_LINK_TTL_S) / EXPIRY_STEP_S) * EXPIRY_STEP_S;
  return signClaims(secret, { pur: 'RECEIPT', tid: transactionId, exp });
}

/**
 * The transaction a receipt link names. A link that is malformed, forged, made for something else
 * or expired is 403 ACCESS_DENIED (a missing transaction behind a valid link is the route's 404).
 */
export async function readReceiptToken(secret: string, token: string, nowMs = Date.now()): Promise<number> {
  const opened = await openSignedClaims(secret, token);
  const claims = opened.ok ? opened.claims : null;
  if (!claims || claims.pur !== 'RECEIPT' || !Number.isSafeInteger(claims.tid) || !Number.isSafeInteger(claims.exp)) {
    throw accessDenied('money.receiptLinkInvalid', { suggestions: ['money.openReceiptAppReservation'] });
  }
  if ((claims.exp as number) * 1000 <= nowMs) {
    throw accessDenied('money.receiptLinkExpired', { suggestions: ['money.openReceiptAgainApp'] });
  }
  return claims.tid as number;
}
