// Bytes as text and digests: the one hex, base64url and SHA-256 helper, and random tokens built on
// them (session secrets, one-time tokens, recipient links, QR nonces).

const encoder = new TextEncoder();

const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

/** Lower-case hex of the bytes (a lookup table). */
export function toHex(bytes: ArrayBuffer | Uint8Array): string {
  let hex = '';
  for (const b of bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes)) hex += HEX[b];
  return hex;
}

/** Base64url without padding (RFC 4648 section 5). */
export function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The bytes of unpadded base64url text, or null when it is not base64url. */
export function fromBase64Url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return null;
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    return Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
  } catch {
    return null;
  }
}

/** Hex SHA-256 of the text's UTF-8 bytes. */
export async function sha256Hex(text: string): Promise<string> {
  return toHex(await crypto.subtle.digest('SHA-256', encoder.encode(text)));
}

export const randomBytes = (count: number) => crypto.getRandomValues(new Uint8Array(count));

/** `count` random bytes as base64url (32 bytes: a 256-bit secret). */
export const randomBase64Url = (count: number): string => toBase64Url(randomBytes(count));

/** `count` random bytes as hex. */
export const randomHex = (count: number): string => toHex(randomBytes(count));
