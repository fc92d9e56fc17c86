// The SMS sandbox: "sends" by recording the text in D1 (outbox_messages), where the development
// outbox shows it with channel SMS and its links to click.
import type { Db } from '../../db/client';
import type { SendOutcome } from '../push/push-provider';
import { recordSandboxMessage } from '../sandbox-outbox';
import type { SmsMessage, SmsProvider } from './sms-provider';

export class SandboxSmsProvider implements SmsProvider {
  constructor(private readonly db: Db) {}

  async send(message: SmsMessage): Promise<SendOutcome> {
    const id = await recordSandboxMessage(this.db, {
      deliveryId: Number(message.deliveryId),
      channel: 'SMS',
      to: message.to,
      template: message.template,
      locale: message.locale,
      subject: null,
      text: message.body,
      links: message.links,
    });
    return { status: 'SENT', providerMessageId: `sandbox-${id}` };
  }
}
