// Signed dynamic QR payloads (CONTRACT section 8): `base64url(claims).base64url(HMAC-SHA256)`
// (lib/signed-claims.ts).
// Pure apart from WebCrypto: the QR Durable Object signs, the routes verify before asking it.
import { invalidArgument, msg, type Text } from '../errors';
import { randomBase64Url } from './digest';
import { openSignedClaims, signClaims } from './signed-claims';

export const QR_PURPOSES = ['DEPOSIT', 'DELIVERY'] as const;
export type QrPurpose = (typeof QR_PURPOSES)[number];

/** Default lifetime of a payload; `QR_TTL_SECONDS` may shorten it (browser test only). */
export const QR_TTL_MS = 60_000;

export interface QrClaims {
  /** Reservation id. */
  rid: number;
  /** The reservation's carrier: the only user who may scan it, checked before the nonce is spent, without a read. */
  car: number;
  pur: QrPurpose;
  /** Random nonce: identifies this payload inside the reservation's QR object. */
  non: string;
  /** Expiry, epoch milliseconds. */
  exp: number;
}

export function newNonce(): string {
  return randomBase64Url(16);
}

export const signQrPayload = (secret: string, claims: QrClaims): Promise<string> => signClaims(secret, claims);

const invalid = (message: Text) =>
  invalidArgument(message, { suggestions: ['handover.askFreshQrCodeAndScan'] });

/**
 * Checks shape, signature (constant time through WebCrypto verify), expiry and purpose.
 * Malformed, forged, expired or wrong-purpose payloads are 400 INVALID_ARGUMENT.
 */
export async function verifyQrPayload(secret: string, payload: string, purpose: QrPurpose, now = Date.now()): Promise<QrClaims> {
  const opened = await openSignedClaims(secret, payload);
  if (!opened.ok) throw invalid(opened.reason === 'FORGED' ? 'handover.qrPayloadSignatureInvalid' : 'handover.malformedQrPayload');
  const claims = opened.claims as unknown as QrClaims;
  if (
    !Number.isInteger(claims?.rid) ||
    !Number.isInteger(claims.car) ||
    !QR_PURPOSES.includes(claims.pur) ||
    typeof claims.non !== 'string' ||
    !Number.isFinite(claims.exp)
  ) {
    throw invalid('handover.malformedQrPayload');
  }
  if (claims.pur !== purpose) throw invalid(msg('handover.qrCodeWrongPurpose', { pur: claims.pur.toLowerCase(), purpose: purpose.toLowerCase() }));
  if (claims.exp <= now) throw invalid('handover.qrCodeExpired');
  return claims;
}
