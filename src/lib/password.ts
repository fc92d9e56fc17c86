// Password hashing with PBKDF2-SHA256 through WebCrypto, in a versioned string
// `pbkdf2-sha256$<iterations>$<salt b64>$<hash b64>` so the cost can be raised later and old
// hashes upgraded at login. Cloudflare's production runtime refuses more than 100,000 iterations
// per call while local workerd does not, so the cap is enforced here (see docs/decisions.md).

import { timingSafeEqual } from './timing-safe';

export const PBKDF2_ITERATIONS = 100_000;
/** The most the production runtime accepts in one PBKDF2 call. */
export const PBKDF2_MAX_ITERATIONS = 100_000;
const ALGORITHM = 'pbkdf2-sha256';
const HASH_BYTES = 32;

const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const unb64 = (text: string) => Uint8Array.from(atob(text), (ch) => ch.charCodeAt(0));

async function derive(password: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
  // A hash made above the cap (locally, where workerd allows it) could never be verified in production.
  if (iterations > PBKDF2_MAX_ITERATIONS) {
    throw new RangeError(`PBKDF2 iteration counts above ${PBKDF2_MAX_ITERATIONS} are not supported on Workers`);
  }
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(password), 'PBKDF2', false, ['deriveBits']);
  const bits = await crypto.subtle.deriveBits(
    { name: 'PBKDF2', hash: 'SHA-256', salt: salt as BufferSource, iterations },
    key,
    HASH_BYTES * 8,
  );
  return new Uint8Array(bits);
}

export async function hashPassword(password: string, iterations = PBKDF2_ITERATIONS): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const hash = await derive(password, salt, iterations);
  return `${ALGORITHM}$${iterations}$${b64(salt)}$${b64(hash)}`;
}

export interface PasswordCheck {
  valid: boolean;
  /** True when the stored hash uses weaker parameters than today's: re-hash after a successful login. */
  needsRehash: boolean;
}

export async function verifyPassword(password: string, stored: string): Promise<PasswordCheck> {
  const [algorithm, iterationsText, saltText, hashText] = stored.split('$');
  const iterations = Number(iterationsText);
  if (algorithm !== ALGORITHM || !Number.isInteger(iterations) || iterations > PBKDF2_MAX_ITERATIONS || !saltText || !hashText) {
    return { valid: false, needsRehash: false };
  }
  const expected = unb64(hashText);
  const actual = await derive(password, unb64(saltText), iterations);
  return { valid: timingSafeEqual(actual, expected), needsRehash: iterations < PBKDF2_ITERATIONS };
}

/** A hash to verify against when the email is unknown, so both paths cost the same. */
export const DUMMY_PASSWORD_HASH = `${ALGORITHM}$${PBKDF2_ITERATIONS}$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=`;

