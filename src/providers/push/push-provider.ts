// Push to the mobile apps: the port the delivery consumer sends through (real adapter: FCM HTTP v1).

export interface PushMessage {
  /** The delivery's id: duplicates of one delivery collapse on the device (collapse key / apns-collapse-id). */
  deliveryId: string;
  /** The device's registration token. */
  token: string;
  title: string;
  body: string;
  /** Opened by the app (e.g. the reservation to show); string values only, as FCM requires. */
  data?: Record<string, string>;
}

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
