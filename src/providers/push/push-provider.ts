// Push to the mobile apps: the port the delivery consumer sends through (real adapter: FCM HTTP v1;
// the sandbox records to the development outbox; index.ts chooses).
import type { Locale } from '../../db/schema';

/** What a sandbox records of a message besides its text; the real adapters ignore it. */
export interface MessageContext {
  template: string;
  locale: Locale;
  /** Every absolute link the message carries. */
  links: string[];
}

export interface PushMessage extends MessageContext {
  /** The delivery's id: duplicates of one delivery collapse on the device (collapse key / apns-collapse-id). */
  deliveryId: string;
  /** The device's registration token. */
  token: string;
  title: string;
  body: string;
  /** Opened by the app (e.g. the reservation to show); string values only, as FCM requires. */
  data?: Record<string, string>;
}

/** A provider call that takes longer is abandoned and retried (a timeout is not a refusal). */
export const SEND_TIMEOUT_MS = 10_000;

export type SendOutcome =
  | { status: 'SENT'; providerMessageId: string }
  /** The token is no longer valid: the device is deleted, the message is not retried. */
  | { status: 'UNREGISTERED'; reason: string }
  /** Refused for good (a malformed message, a wrong number): not retried. */
  | { status: 'REJECTED'; reason: string }
  /** The provider could not take it now (5xx, 429, network): retried with backoff. */
  | { status: 'RETRY'; reason: string };

export interface PushProvider {
  send(message: PushMessage): Promise<SendOutcome>;
}
