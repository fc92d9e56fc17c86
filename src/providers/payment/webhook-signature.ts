// Verifying and producing provider webhook signatures (Stripe's scheme, 300 s tolerance either way). The
// sandbox signs its events with the same secret so they travel the very same verification path.
import Stripe from 'stripe';
import type { Text } from '../../messages';

export const WEBHOOK_TOLERANCE_SECONDS = 300;

export interface ProviderEvent {
  id: string;
  type: string;
  created: number;
  data: { object: Record<string, any> };
}

export class SignatureError extends Error {}
/** The event body is not a provider event: `text` is the 400's message key. */
export class MalformedEventError extends Error {
  constructor(readonly text: Text) {
    super(typeof text === 'string' ? text : text.key);
  }
}

/**
 * STRIPE_WEBHOOK_SECRET is a comma-separated list: Stripe sends the events of the platform account
 * and those of its connected accounts (`account.updated`) to two endpoints, each with its own
 * signing secret, both pointing at the one webhook URL.
 */
export const webhookSecrets = (configured: string): string[] =>
  configured
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

export async function verifyProviderEvent(rawBody: string, signature: string | undefined, configured: string): Promise<ProviderEvent> {
  if (!signature) throw new SignatureError('Missing Stripe-Signature header');
  const secrets = webhookSecrets(configured);
  if (secrets.length === 0) throw new SignatureError('Webhook secret is not configured');
  let event: unknown;
  for (const [i, secret] of secrets.entries()) {
    try {
      event = await Stripe.webhooks.constructEventAsync(
        rawBody,
        signature,
        secret,
        WEBHOOK_TOLERANCE_SECONDS,
        Stripe.createSubtleCryptoProvider(),
      );
      break;
    } catch (err) {
      // The SDK checks the signature (and timestamp) before parsing, so any other failure is a
      // well-signed body that is not JSON.
      if ((err as { type?: string }).type !== 'StripeSignatureVerificationError') throw new MalformedEventError('money.eventBodyNotValid');
      if (i === secrets.length - 1) throw new SignatureError((err as Error).message);
    }
  }
  // The SDK refuses timestamps older than the tolerance only; one dated ahead is refused as well
  // (CONTRACT section 19), the signature having vouched for the timestamp it read.
  const signedAt = signedTimestamp(signature);
  if (signedAt === null || signedAt - Math.floor(Date.now() / 1000) > WEBHOOK_TOLERANCE_SECONDS) {
    throw new SignatureError('Timestamp outside the tolerance zone');
  }
  const e = event as Partial<ProviderEvent> | null;
  if (
    !e ||
    typeof e.id !== 'string' ||
    typeof e.type !== 'string' ||
    typeof e.created !== 'number' ||
    typeof e.data?.object !== 'object' ||
    e.data.object === null
  ) {
    throw new MalformedEventError('money.eventMustIdType');
  }
  return e as ProviderEvent;
}

/** The `t=` of a Stripe-Signature header, the last one as the SDK reads it. */
function signedTimestamp(signature: string): number | null {
  let t: number | null = null;
  for (const item of signature.split(',')) {
    const [key, value] = item.split('=');
    if (key === 't') t = /^\d{1,12}$/.test(value ?? '') ? Number(value) : null;
  }
  return t;
}

export function signPayload(payload: string, secret: string, timestamp?: number): Promise<string> {
  return Stripe.webhooks.generateTestHeaderStringAsync({
    payload,
    secret,
    timestamp,
    cryptoProvider: Stripe.createSubtleCryptoProvider(),
  });
}
