// The e-mail sandbox: "sends" by recording the rendered message in D1 (outbox_messages), where the
// development outbox (GET /v1/api/dev/outbox and the page at /dev/outbox) shows it with its
// links. The log line names the message but never carries its body (it holds single-use tokens).
import type { Db } from '../../db/client';
import { outboxMessages } from '../../db/schema';
import type { EmailProvider, OutgoingEmail } from './email';

export class SandboxEmailProvider implements EmailProvider {
  constructor(private readonly db: Db) {}

  async send(message: OutgoingEmail): Promise<{ providerMessageId: string }> {
    const [row] = await this.db
      .insert(outboxMessages)
      .values({
        deliveryId: message.deliveryId,
        channel: 'EMAIL',
        to: message.to,
        template: message.template,
        locale: message.locale,
        subject: message.subject,
        text: message.text,
        html: message.html,
        links: message.links,
        headers: message.headers,
      })
      .returning({ id: outboxMessages.id });
    console.log(JSON.stringify({ level: 'info', event: 'email.sandbox', outboxId: row.id, deliveryId: message.deliveryId, template: message.template }));
    return { providerMessageId: `sandbox-${row.id}` };
  }
}
