// The e-mail sandbox: "sends" by recording the rendered message in D1 (outbox_messages), where the
// development outbox (GET /v1/api/dev/outbox and the page at /dev/outbox) shows it with its links.
import type { Db } from '../../db/client';
import { recordSandboxMessage } from '../sandbox-outbox';
import type { EmailProvider, OutgoingEmail } from './email';

export class SandboxEmailProvider implements EmailProvider {
  constructor(private readonly db: Db) {}

  async send(message: OutgoingEmail): Promise<{ providerMessageId: string }> {
    const { deliveryId, to, template, locale, subject, text, html, links, headers } = message;
    const attachments = (message.attachments ?? []).map((a) => ({ filename: a.filename, type: a.type, size: a.content.byteLength }));
    const id = await recordSandboxMessage(this.db, { deliveryId, channel: 'EMAIL', to, template, locale, subject, text, html, links, headers, attachments });
    return { providerMessageId: `sandbox-${id}` };
  }
}
