// Time-based one-time passwords (RFC 6238 over RFC 4226's HOTP): the HMAC is WebCrypto's, this
// file only counts time steps, truncates the MAC to digits and writes the otpauth:// URI that
// authenticator apps read. Secrets are bytes; apps exchange them in base32 (RFC 4648, no padding).

export const TOTP_STEP_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Steps accepted either side of now: a phone clock 30 s off, or a code typed as it rolls over. */
export const TOTP_WINDOW = 1;

export type TotpHash = 'SHA-1' | 'SHA-256' | 'SHA-512';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Encode(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/** The bytes of a base32 text (spaces and case ignored, as apps show it), or null if it is not base32. */
export function base32Decode(text: string): Uint8Array | null {
  const clean = text.replace(/[\s=]/g, '').toUpperCase();
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const ch of clean) {
    const index = BASE32.indexOf(ch);
    if (index < 0) return null;
    value = ((value << 5) | index) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return new Uint8Array(out);
}

/** HOTP (RFC 4226): the MAC of the 8-byte counter, dynamically truncated to `digits` digits. */
export async function hotp(secret: Uint8Array, counter: number, digits = TOTP_DIGITS, hash: TotpHash = 'SHA-1'): Promise<string> {
  const message = new DataView(new ArrayBuffer(8));
  message.setUint32(0, Math.floor(counter / 2 ** 32));
  message.setUint32(4, counter >>> 0);
  const key = await crypto.subtle.importKey('raw', secret, { name: 'HMAC', hash }, false, ['sign']);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, message.buffer));
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** The time step a moment (seconds since the epoch) falls in. */
export const timeStep = (unixSeconds: number) => Math.floor(unixSeconds / TOTP_STEP_SECONDS);

/** TOTP (RFC 6238) at a moment. */
export const totpAt = (secret: Uint8Array, unixSeconds: number, digits = TOTP_DIGITS, hash: TotpHash = 'SHA-1') =>
  hotp(secret, timeStep(unixSeconds), digits, hash);

/**
 * The time step a code belongs to, within TOTP_WINDOW steps of now, or null. Every candidate is
 * computed and compared (no early exit), so the time taken does not say which step matched.
 */
export async function matchingStep(secret: Uint8Array, code: string, unixSeconds: number): Promise<number | null> {
  if (!/^\d{6}$/.test(code)) return null;
  const now = timeStep(unixSeconds);
  let found: number | null = null;
  for (let step = now - TOTP_WINDOW; step <= now + TOTP_WINDOW; step++) {
    const expected = await hotp(secret, step);
    let diff = 0;
    for (let i = 0; i < TOTP_DIGITS; i++) diff |= expected.charCodeAt(i) ^ code.charCodeAt(i);
    if (diff === 0 && found === null) found = step;
  }
  return found;
}

/** The key URI authenticator apps scan (Google's Key Uri Format): issuer, account, base32 secret. */
export function otpauthUri(issuer: string, account: string, secret: Uint8Array): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  const params = new URLSearchParams({
    secret: base32Encode(secret),
    issuer,
    algorithm: 'SHA1',
    digits: String(TOTP_DIGITS),
    period: String(TOTP_STEP_SECONDS),
  });
  return `otpauth://totp/${label}?${params.toString()}`;
}
