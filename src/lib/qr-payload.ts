// Signed dynamic QR payloads (CONTRACT section 8): `base64url(claims).base64url(HMAC-SHA256)`.
// Pure apart from WebCrypto: the QR Durable Object signs, the routes verify before asking it.
import { invalidArgument } from '../errors';

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

const encoder = new TextEncoder();

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return null;
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    return Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
  } catch {
    return null;
  }
}

async function hmacKey(secret: string) {
  if (!secret) throw new Error('QR_SIGNING_SECRET is not configured');
  return crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
}

export function qrTtlMs(env: { QR_TTL_SECONDS?: string }): number {
  const seconds = Number(env.QR_TTL_SECONDS ?? '');
  return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds * 1000, QR_TTL_MS) : QR_TTL_MS;
}

export function newNonce(): string {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(16)));
}

export async function signQrPayload(secret: string, claims: QrClaims): Promise<string> {
  const body = toBase64Url(encoder.encode(JSON.stringify(claims)));
  const mac = await crypto.subtle.sign('HMAC', await hmacKey(secret), encoder.encode(body));
  return `${body}.${toBase64Url(new Uint8Array(mac))}`;
}

const invalid = (message: string) =>
  invalidArgument(message, { suggestions: ['Ask for a fresh QR code and scan it again'] });

/**
 * Checks shape, signature (constant time through WebCrypto verify), expiry and purpose.
 * Malformed, forged, expired or wrong-purpose payloads are 400 INVALID_ARGUMENT.
 */
export async function verifyQrPayload(secret: string, payload: string, purpose: QrPurpose, now = Date.now()): Promise<QrClaims> {
  const parts = payload.split('.');
  const body = parts[0] ?? '';
  const mac = parts.length === 2 ? fromBase64Url(parts[1]) : null;
  const claimBytes = parts.length === 2 ? fromBase64Url(body) : null;
  if (!mac || !claimBytes) throw invalid('Malformed QR payload');
  const valid = await crypto.subtle.verify('HMAC', await hmacKey(secret), mac, encoder.encode(body));
  if (!valid) throw invalid('QR payload signature is invalid');
  let claims: QrClaims;
  try {
    claims = JSON.parse(new TextDecoder().decode(claimBytes)) as QrClaims;
  } catch {
    throw invalid('Malformed QR payload');
  }
  if (
    !Number.isInteger(claims?.rid) ||
    !Number.isInteger(claims.car) ||
    !QR_PURPOSES.includes(claims.pur) ||
    typeof claims.non !== 'string' ||
    !Number.isFinite(claims.exp)
  ) {
    throw invalid('Malformed QR payload');
  }
  if (claims.pur !== purpose) throw invalid(`This QR code is for ${claims.pur.toLowerCase()}, not ${purpose.toLowerCase()}`);
  if (claims.exp <= now) throw invalid('QR code has expired');
  return claims;
}
