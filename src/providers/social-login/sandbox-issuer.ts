// The sandbox identity issuer (outside production only): stands in for Google and Apple on local
// runs. Its ES256 key pair is derived from the environment's JWT_KEYS, so every isolate of one
// environment signs and verifies with the same key and another environment's tokens are refused.
// Tokens it signs go through the very same jwtVerify as the providers' (social-login.ts).
import { SignJWT, type JWK } from 'jose';
import { SANDBOX_CLIENT_IDS, type SocialIssuer, type SocialProviderName } from '../../config';
import { toHex } from '../../lib/digest';

interface SandboxKey {
  privateKey: CryptoKey;
  jwk: JWK;
}

const encoder = new TextEncoder();

// PKCS#8 wrapping of a bare P-256 private scalar (RFC 5915 ECPrivateKey without the public key,
// which WebCrypto computes on import).
const P256_PKCS8_PREFIX = [
  0x30, 0x41, 0x02, 0x01, 0x00, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01, 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce,
  0x3d, 0x03, 0x01, 0x07, 0x04, 0x27, 0x30, 0x25, 0x02, 0x01, 0x01, 0x04, 0x20,
];

async function deriveKey(seed: string): Promise<SandboxKey> {
  const hmacKey = await crypto.subtle.importKey('raw', encoder.encode(seed), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  // A 256-bit value below the curve order (all but ~2^-32 of them are), as the private scalar.
  const scalar = new Uint8Array(await crypto.subtle.sign('HMAC', hmacKey, encoder.encode('sandbox-social-login-issuer-v1')));
  const pkcs8 = new Uint8Array([...P256_PKCS8_PREFIX, ...scalar]);
  const privateKey = await crypto.subtle.importKey('pkcs8', pkcs8, { name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign']);
  const { kty, crv, x, y } = (await crypto.subtle.exportKey('jwk', privateKey)) as JsonWebKey;
  const kid = `sandbox-${toHex(await crypto.subtle.digest('SHA-256', encoder.encode(`${x}.${y}`))).slice(0, 16)}`;
  return { privateKey, jwk: { kty, crv, x, y, kid, alg: 'ES256', use: 'sig' } };
}

const keys = new Map<string, Promise<SandboxKey>>();
function sandboxKey(env: Pick<Env, 'JWT_KEYS'>): Promise<SandboxKey> {
  let key = keys.get(env.JWT_KEYS);
  if (!key) {
    key = deriveKey(env.JWT_KEYS);
    keys.set(env.JWT_KEYS, key);
  }
  return key;
}

/** The sandbox issuer's public key set (served at /sandbox/social/jwks.json, used by the verifier). */
export async function sandboxJwks(env: Pick<Env, 'JWT_KEYS'>): Promise<{ keys: JWK[] }> {
  return { keys: [(await sandboxKey(env)).jwk] };
}

export interface SandboxSignIn {
  email: string;
  firstName?: string;
  lastName?: string;
}

/** A stable subject per provider and e-mail, as a provider keeps one per account. */
async function subjectOf(provider: SocialProviderName, email: string) {
  return `sandbox-${toHex(await crypto.subtle.digest('SHA-256', encoder.encode(`${provider}:${email}`))).slice(0, 24)}`;
}

/** An ID token shaped like the provider's: Google carries the names, Apple sends them beside the token. */
export async function signSandboxIdToken(
  env: Pick<Env, 'JWT_KEYS'>,
  provider: SocialProviderName,
  issuer: SocialIssuer,
  person: SandboxSignIn,
): Promise<{ token: string; expiresAt: number }> {
  const { privateKey, jwk } = await sandboxKey(env);
  const email = person.email.trim().toLowerCase();
  const now = Math.floor(Date.now() / 1000);
  const expiresAt = now + 3600;
  const claims =
    provider === 'google'
      ? { email, email_verified: true, given_name: person.firstName || undefined, family_name: person.lastName || undefined }
      : { email, email_verified: 'true' };
  const token = await new SignJWT(claims)
    .setProtectedHeader({ alg: 'ES256', kid: jwk.kid, typ: 'JWT' })
    .setIssuer(issuer.issuers[0])
    .setAudience(SANDBOX_CLIENT_IDS[provider])
    .setSubject(await subjectOf(provider, email))
    .setIssuedAt(now)
    .setExpirationTime(expiresAt)
    // Each sign-in a token of its own, as Google's: two in one second would otherwise be the same
    // token, and the second refused as a replay (CONTRACT 25).
    .setJti(crypto.randomUUID())
    .sign(privateKey);
  return { token, expiresAt };
}
