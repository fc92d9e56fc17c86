// The push sandbox: "sends" by recording the rendered notification in D1 (outbox_messages), where
// the development outbox shows it with channel PUSH, addressed to the device's token.
import type { Db } from '../../db/client';
import { recordSandboxMessage } from '../sandbox-outbox';
import type { PushMessage, PushProvider, SendOutcome } from './push-provider';

export class SandboxPushProvider implements PushProvider {
  constructor(private readonly db: Db) {}

  async send(message: PushMessage): Promise<SendOutcome> {
    const id = await recordSandboxMessage(this.db, {
      deliveryId: Number(message.deliveryId),
      channel: 'PUSH',
      to: message.token,
      template: message.template,
      locale: message.locale,
      subject: message.title,
      text: message.body,
      links: message.links,
    });
    return { status: 'SENT', providerMessageId: `sandbox-${id}` };
  }
}
