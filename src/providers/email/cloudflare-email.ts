// Cloudflare Email Service through the Workers `send_email` binding and its structured send()
// (env.EMAIL.send({from, to, subject, text, html, headers, attachments}); workers-types `EmailMessageBuilder`):
// the service builds the MIME message (multipart/alternative with both parts), signs it (DKIM)
// and returns its message id. No MIME library is bundled.
import type { EmailProvider, OutgoingEmail } from './email';

export class CloudflareEmailProvider implements EmailProvider {
  constructor(
    private readonly binding: SendEmail,
    private readonly from: string,
  ) {}

  async send(message: OutgoingEmail): Promise<{ providerMessageId: string }> {
    const result = await this.binding.send({
      from: this.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html,
      // X- headers are accepted as they are: the delivery id lets support trace a message.
      headers: { ...message.headers, 'X-Delivery-Id': String(message.deliveryId) },
      ...(message.attachments?.length
        ? { attachments: message.attachments.map((a) => ({ disposition: 'attachment' as const, filename: a.filename, type: a.type, content: a.content })) }
        : {}),
    });
    return { providerMessageId: result.messageId };
  }
}
