// Signed, self-contained tokens: `base64url(JSON claims).base64url(HMAC-SHA256)`. The one way the
// service signs what it hands out and reads back without storing it: the dynamic QR payloads
// (qr-payload.ts) and the receipt links (receipt-token.ts). Each use has its own secret.

import { fromBase64Url, toBase64Url } from './digest';

const encoder = new TextEncoder();

/** Imported once per secret and isolate (the key itself, not a promise shared across requests). */
const keys = new Map<string, CryptoKey>();

async function hmacKey(secret: string): Promise<CryptoKey> {
  if (!secret) throw new Error('A signing secret is not configured');
  let key = keys.get(secret);
  if (!key) {
    key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    keys.set(secret, key);
  }
  return key;
}

export async function signClaims(secret: string, claims: object): Promise<string> {
  const body = toBase64Url(encoder.encode(JSON.stringify(claims)));
  const mac = await crypto.subtle.sign('HMAC', await hmacKey(secret), encoder.encode(body));
  return `${body}.${toBase64Url(new Uint8Array(mac))}`;
}

export type OpenedClaims = { ok: true; claims: Record<string, unknown> } | { ok: false; reason: 'MALFORMED' | 'FORGED' };

/**
 * The claims of a token this secret signed; the signature is checked in constant time (WebCrypto
 * verify) before the claims are read. The caller checks their shape, purpose and expiry.
 */
export async function openSignedClaims(secret: string, token: string): Promise<OpenedClaims> {
  const parts = token.split('.');
  const body = parts[0] ?? '';
  const mac = parts.length === 2 ? fromBase64Url(parts[1]) : null;
  const claimBytes = parts.length === 2 ? fromBase64Url(body) : null;
  if (!mac || !claimBytes) return { ok: false, reason: 'MALFORMED' };
  if (!(await crypto.subtle.verify('HMAC', await hmacKey(secret), mac, encoder.encode(body)))) return { ok: false, reason: 'FORGED' };
  try {
    const claims: unknown = JSON.parse(new TextDecoder().decode(claimBytes));
    if (claims && typeof claims === 'object' && !Array.isArray(claims)) return { ok: true, claims: claims as Record<string, unknown> };
  } catch {
    // not JSON: malformed
  }
  return { ok: false, reason: 'MALFORMED' };
}
