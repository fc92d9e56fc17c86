// HTTP message signatures as pawaPay uses them (docs.pawapay.io/v2/docs/signatures, RFC 9421 with an
// RFC 9530 Content-Digest): our financial requests (deposits, payouts, refunds) are signed with our
// ECDSA P-256 key when one is configured, and pawaPay's signed callbacks are verified with its public
// key. Covered: "@method" "@authority" "@path" "signature-date" "content-digest" "content-type";
// parameters alg, keyid, created, expires. The body is checked against its Content-Digest first.
import { timingSafeEqual } from '../../../lib/timing-safe';

const encoder = new TextEncoder();
export const SIGNATURE_LABEL = 'sig-pp';
export const COVERED = ['@method', '@authority', '@path', 'signature-date', 'content-digest', 'content-type'] as const;
/** A callback signed longer ago than this is refused (a replay). */
export const CALLBACK_TOLERANCE_SECONDS = 300;

const b64 = (bytes: ArrayBuffer) => btoa(String.fromCharCode(...new Uint8Array(bytes)));
const unb64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

function pemBytes(pem: string): Uint8Array {
  return unb64(pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''));
}

export const importSigningKey = (pkcs8Pem: string) =>
  crypto.subtle.importKey('pkcs8', pemBytes(pkcs8Pem), { name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign']);
export const importVerifyKey = (spkiPem: string) =>
  crypto.subtle.importKey('spki', pemBytes(spkiPem), { name: 'ECDSA', namedCurve: 'P-256' }, false, ['verify']);

/** RFC 9530: `sha-512=:<base64>:` of the body. */
export async function contentDigest(body: string, algorithm: 'sha-256' | 'sha-512' = 'sha-512'): Promise<string> {
  const digest = await crypto.subtle.digest(algorithm === 'sha-256' ? 'SHA-256' : 'SHA-512', encoder.encode(body));
  return `${algorithm}=:${b64(digest)}:`;
}

async function digestMatches(header: string | null, body: string): Promise<boolean> {
  if (!header) return false;
  const m = /^(sha-256|sha-512)=:([^:]+):$/.exec(header.trim());
  return Boolean(m) && timingSafeEqual(await contentDigest(body, m![1] as 'sha-256' | 'sha-512'), header.trim());
}

interface Target {
  method: string;
  url: string;
}

function componentValue(name: string, target: Target, headers: Headers): string | null {
  const url = new URL(target.url);
  if (name === '@method') return target.method.toUpperCase();
  if (name === '@authority') return url.host.toLowerCase();
  if (name === '@path') return url.pathname;
  if (name === '@target-uri') return url.href;
  if (name === '@query') return url.search || '?';
  return headers.get(name);
}

function signatureBase(components: readonly string[], params: string, target: Target, headers: Headers): string | null {
  const lines: string[] = [];
  for (const name of components) {
    const value = componentValue(name, target, headers);
    if (value === null) return null;
    lines.push(`"${name}": ${value}`);
  }
  lines.push(`"@signature-params": ${params}`);
  return lines.join('\n');
}

/** The headers of a signed request: Content-Digest, Signature-Date, Signature-Input and Signature. */
export async function signRequest(key: CryptoKey, keyId: string, target: Target, body: string, now = new Date()): Promise<Record<string, string>> {
  const created = Math.floor(now.getTime() / 1000);
  const headers = new Headers({ 'content-type': 'application/json', 'content-digest': await contentDigest(body), 'signature-date': now.toISOString() });
  const params = `(${COVERED.map((c) => `"${c}"`).join(' ')});alg="ecdsa-p256-sha256";keyid="${keyId}";created=${created};expires=${created + 60}`;
  const base = signatureBase(COVERED, params, target, headers)!;
  const signature = await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, key, encoder.encode(base));
  return {
    'Content-Type': 'application/json',
    'Content-Digest': headers.get('content-digest')!,
    'Signature-Date': headers.get('signature-date')!,
    'Signature-Input': `${SIGNATURE_LABEL}=${params}`,
    Signature: `${SIGNATURE_LABEL}=:${b64(signature)}:`,
  };
}

/** `label=(components);params` of Signature-Input, the first one. */
function parseSignatureInput(header: string): { label: string; components: string[]; params: string; created: number | null } | null {
  const m = /^\s*([A-Za-z0-9_-]+)=(\(([^)]*)\)(;.*)?)\s*$/.exec(header);
  if (!m) return null;
  const components = [...m[3].matchAll(/"([^"]+)"/g)].map((c) => c[1]);
  const created = /;created=(\d+)/.exec(m[4] ?? '');
  return { label: m[1], components, params: m[2], created: created ? Number(created[1]) : null };
}

export type SignatureCheck = 'ok' | 'missing-signature' | 'malformed-signature' | 'bad-signature' | 'stale-timestamp';

/** Verifies a signed callback: its Content-Digest, then the signature over the declared components, then its age. */
export async function verifySignedRequest(key: CryptoKey, target: Target, headers: Headers, body: string, now: Date): Promise<SignatureCheck> {
  const input = headers.get('signature-input');
  const signature = headers.get('signature');
  if (!input || !signature) return 'missing-signature';
  const parsed = parseSignatureInput(input);
  const sig = parsed ? new RegExp(`${parsed.label}=:([^:]+):`).exec(signature) : null;
  // The body must be covered: a signature without content-digest would let the body change.
  if (!parsed || !sig || !parsed.components.includes('content-digest')) return 'malformed-signature';
  if (!(await digestMatches(headers.get('content-digest'), body))) return 'bad-signature';
  const base = signatureBase(parsed.components, parsed.params, target, headers);
  if (!base) return 'malformed-signature';
  let valid = false;
  try {
    valid = await crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, key, unb64(sig[1]), encoder.encode(base));
  } catch {
    return 'malformed-signature';
  }
  if (!valid) return 'bad-signature';
  const signedAt = parsed.created ?? Math.floor(Date.parse(headers.get('signature-date') ?? '') / 1000);
  if (!Number.isFinite(signedAt) || Math.abs(Math.floor(now.getTime() / 1000) - signedAt) > CALLBACK_TOLERANCE_SECONDS) return 'stale-timestamp';
  return 'ok';
}
