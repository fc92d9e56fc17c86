// What every sandbox provider does instead of sending: one row in outbox_messages, read by the
// development outbox. The log line names the message but never carries its body (it may hold
// single-use tokens or the recipient's link).
import type { Db } from '../db/client';
import { outboxMessages, type DeliveryChannel, type Locale, type OutboxAttachment } from '../db/schema';

export interface SandboxMessage {
  deliveryId: number;
  channel: DeliveryChannel;
  to: string;
  template: string;
  locale: Locale;
  subject: string | null;
  text: string;
  html?: string | null;
  links: string[];
  headers?: Record<string, string> | null;
  attachments?: OutboxAttachment[] | null;
}

/** Records `message` as sent; returns the outbox row's id. */
export async function recordSandboxMessage(db: Db, message: SandboxMessage): Promise<number> {
  const [row] = await db
    .insert(outboxMessages)
    .values({ ...message, html: message.html ?? null, headers: message.headers ?? null, attachments: message.attachments ?? null })
    .returning({ id: outboxMessages.id });
  console.log(JSON.stringify({ level: 'info', event: `${message.channel.toLowerCase()}.sandbox`, outboxId: row.id, deliveryId: message.deliveryId, template: message.template }));
  return row.id;
}

/** A push or SMS sandbox's answer: recorded, so sent, under the outbox row's id. */
export const recordedAsSent = async (db: Db, message: SandboxMessage): Promise<{ status: 'SENT'; providerMessageId: string }> => ({
  status: 'SENT',
  providerMessageId: `sandbox-${await recordSandboxMessage(db, message)}`,
});
