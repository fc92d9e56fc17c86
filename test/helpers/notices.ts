// What a person is told, read as they read it: the in-app notification in French and English, and
// each outgoing e-mail, push and SMS (the dev outbox's rows) rendered in French from what it carries.
import { env } from 'cloudflare:workers';
import { and, desc, eq } from 'drizzle-orm';
import { deliveries, notifications } from '../../src/db/schema';
import type { NotificationKind } from '../../src/features/deliveries/notify';
import { renderEmail } from '../../src/features/deliveries/templates';
import { notificationLine } from '../../src/features/deliveries/templates/notifications';
import { toNotification } from '../../src/features/notifications/notifications.service';
import { db } from './db';

/** The latest notice of `type` to `userId`, and its deliveries, as a French and an English reader get them. */
export async function toldTo(userId: number, type: NotificationKind) {
  const [note] = await db()
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.type, type)))
    .orderBy(desc(notifications.id))
    .limit(1);
  if (!note) throw new Error(`no ${type} notice for user ${userId}`);
  const sent = await db().select().from(deliveries).where(and(eq(deliveries.userId, userId), eq(deliveries.template, type)));
  const payloadOf = (d: (typeof sent)[number]) => d.payload as Record<string, unknown>;
  const email = sent.find((d) => d.channel === 'EMAIL');
  return {
    key: (note.text as { key: string } | null)?.key ?? null,
    fr: toNotification(note, 'fr').message,
    en: toNotification(note, 'en').message,
    /** Each channel's line in French: e-mail, push and SMS say what the app says. */
    sentFr: sent.map((d) => [d.channel, notificationLine(type, 'fr', payloadOf(d)).line]),
    /** The French e-mail's text, as the consumer renders it. */
    emailFr: email ? renderEmail(env, { template: email.template, locale: 'fr', payload: payloadOf(email) }).text : null,
  };
}
