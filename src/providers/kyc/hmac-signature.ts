// The generic HMAC callback signature: `X-Kyc-Signature: sha256=<hex of HMAC-SHA256(secret,
// "<timestamp>.<raw body>")>` and `X-Kyc-Timestamp: <unix seconds>`, checked on the raw bytes with
// a tolerance so a captured callback cannot be replayed later.
import { toHex } from '../../lib/digest';

export const SIGNATURE_HEADER = 'X-Kyc-Signature';
export const TIMESTAMP_HEADER = 'X-Kyc-Timestamp';
export const SIGNATURE_TOLERANCE_SECONDS = 5 * 60;

const encoder = new TextEncoder();

async function hmac(secret: string, timestamp: string, raw: Uint8Array): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const prefix = encoder.encode(`${timestamp}.`);
  const message = new Uint8Array(prefix.length + raw.length);
  message.set(prefix, 0);
  message.set(raw, prefix.length);
  return new Uint8Array(await crypto.subtle.sign('HMAC', key, message));
}

function fromHex(hex: string): Uint8Array | null {
  if (!/^(?:[0-9a-f]{2})+$/i.test(hex)) return null;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** Headers a provider (or the sandbox, or a test) sends with `raw`. */
export async function signCallback(secret: string, raw: Uint8Array | string, now = Math.floor(Date.now() / 1000)) {
  const bytes = typeof raw === 'string' ? encoder.encode(raw) : raw;
  const timestamp = String(now);
  return { [SIGNATURE_HEADER]: `sha256=${toHex(await hmac(secret, timestamp, bytes))}`, [TIMESTAMP_HEADER]: timestamp };
}

export type SignatureFailure = 'missing' | 'stale' | 'mismatch';

/** Null when the signature is valid and fresh; otherwise why not. Constant-time comparison. */
export async function checkCallbackSignature(
  secret: string,
  headers: { signature?: string | null; timestamp?: string | null },
  raw: Uint8Array,
  now = Math.floor(Date.now() / 1000),
): Promise<SignatureFailure | null> {
  const { signature, timestamp } = headers;
  if (!secret || !signature || !timestamp) return 'missing';
  if (!/^\d{1,12}$/.test(timestamp)) return 'stale';
  if (Math.abs(now - Number(timestamp)) > SIGNATURE_TOLERANCE_SECONDS) return 'stale';
  const given = fromHex(signature.replace(/^sha256=/i, ''));
  const expected = await hmac(secret, timestamp, raw);
  if (!given || given.length !== expected.length) return 'mismatch';
  return crypto.subtle.timingSafeEqual(given, expected) ? null : 'mismatch';
}
