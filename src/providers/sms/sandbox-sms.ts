// The SMS sandbox: "sends" by recording the text in D1 (outbox_messages), where the development
// outbox shows it with channel SMS and its links to click.
import type { Db } from '../../db/client';
import type { SendOutcome } from '../push/push-provider';
import { recordedAsSent } from '../sandbox-outbox';
import type { SmsMessage, SmsProvider } from './sms-provider';

export class SandboxSmsProvider implements SmsProvider {
  constructor(private readonly db: Db) {}

  send = ({ deliveryId, to, body, template, locale, links }: SmsMessage): Promise<SendOutcome> =>
    recordedAsSent(this.db, { deliveryId: Number(deliveryId), channel: 'SMS', to, subject: null, text: body, template, locale, links });
}
