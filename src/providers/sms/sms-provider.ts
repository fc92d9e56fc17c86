// SMS: the port the delivery consumer sends through (real adapter: Twilio's Messages API).
import type { MessageContext, SendOutcome } from '../push/push-provider';

export interface SmsMessage extends MessageContext {
  deliveryId: string;
  /** E.164 number. */
  to: string;
  body: string;
}

export interface SmsProvider {
  send(message: SmsMessage): Promise<SendOutcome>;
}
