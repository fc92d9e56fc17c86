// Wave's webhook signature ("signing secret" strategy, https://docs.wave.com/webhook): the header
//   Wave-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>...]
// where each v1 is HMAC-SHA256 keyed by the webhook secret over the timestamp followed directly
// by the raw body (no separator), in lower-case hex; any one matching v1 is enough (Wave sends
// several while a secret is rotated). The timestamp must be within 5 minutes of now, either way
// (CONTRACT section 19), against replays. The sandbox signs with signWaveBody, so its events
// travel this same path.
import { toHex } from '../../lib/digest';
import { timingSafeEqual } from '../../lib/timing-safe';
import type { MobileMoneyEvent, WebhookVerification } from './wave-api';
import { readCheckout } from './wave-wire';

export const WAVE_SIGNATURE_HEADER = 'Wave-Signature';
export const WAVE_TOLERANCE_SECONDS = 300;

const encoder = new TextEncoder();

async function hmacHex(secret: string, text: string): Promise<string> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return toHex(await crypto.subtle.sign('HMAC', key, encoder.encode(text)));
}

/** The header value Wave would send for `rawBody` signed at `timestamp` (seconds). */
export async function signWaveBody(rawBody: string, secret: string, timestamp: number): Promise<string> {
  return `t=${timestamp},v1=${await hmacHex(secret, `${timestamp}${rawBody}`)}`;
}

/** `t` and every `v1` of the header; null when it has no usable `t` or no `v1`. */
export function parseWaveSignature(header: string): { timestamp: number; signatures: string[] } | null {
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const at = part.indexOf('=');
    if (at < 0) continue;
    const key = part.slice(0, at).trim();
    const value = part.slice(at + 1).trim();
    if (key === 't') {
      if (timestamp !== null || !/^\d{1,12}$/.test(value)) return null;
      timestamp = Number(value);
    } else if (key === 'v1' && value) {
      signatures.push(value.toLowerCase());
    }
  }
  return timestamp === null || signatures.length === 0 ? null : { timestamp, signatures };
}

function readEvent(rawBody: string): MobileMoneyEvent | null {
  let body: unknown;
  try {
    body = JSON.parse(rawBody);
  } catch {
    return null;
  }
  const e = body as { id?: unknown; type?: unknown; data?: unknown } | null;
  if (!e || typeof e.id !== 'string' || typeof e.type !== 'string' || typeof e.data !== 'object' || e.data === null) return null;
  const data = e.data as Record<string, unknown>;
  const checkout = e.type.startsWith('checkout.session.') ? readCheckout(data) : null;
  if (e.type.startsWith('checkout.session.') && !checkout) return null;
  return { id: e.id, type: e.type, data, checkout };
}

/** Verifies a delivery: the signature over the raw body first, then its age, then the event's shape. */
export async function verifyWaveWebhook(rawBody: string, headers: Headers, secret: string, now: Date): Promise<WebhookVerification> {
  const header = headers.get(WAVE_SIGNATURE_HEADER);
  if (!header) return { ok: false, reason: 'missing-signature' };
  const parsed = parseWaveSignature(header);
  if (!parsed) return { ok: false, reason: 'malformed-signature' };
  // No secret, no valid signature: an unconfigured endpoint refuses everything.
  if (!secret) return { ok: false, reason: 'bad-signature' };
  const expected = await hmacHex(secret, `${parsed.timestamp}${rawBody}`);
  let match = false;
  for (const candidate of parsed.signatures) match = timingSafeEqual(candidate, expected) || match;
  if (!match) return { ok: false, reason: 'bad-signature' };
  if (Math.abs(Math.floor(now.getTime() / 1000) - parsed.timestamp) > WAVE_TOLERANCE_SECONDS) return { ok: false, reason: 'stale-timestamp' };
  const event = readEvent(rawBody);
  return event ? { ok: true, event } : { ok: false, reason: 'malformed-event' };
}
