// The transactional outbox (CONTRACT section 16). A message that leaves the platform is a
// `deliveries` row written by the D1 batch that makes the change it reports: a batch that fails
// writes none, a committed change always has its messages. The rows a committed batch wrote are
// then sent to the DELIVERIES queue (enqueuePendingDeliveries, after the response or the job);
// the consumer (consumer.ts) renders and sends them. An enqueue that is lost is made good by the
// sweep (requeueStaleDeliveries), so nothing on the request path waits for a provider.
import { and, eq, is, isNull, lt, or, sql, SQL, type Column, type Placeholder } from 'drizzle-orm';
import { alias, type SQLiteTable } from 'drizzle-orm/sqlite-core';
import { afterCommit, type Db } from '../../db/client';
import { deliveries, devices, notificationPreferences, users, type DeliveryChannel, type Locale } from '../../db/schema';
import { guardedInsertAll, rowExists, type GuardedRows, type Statement } from '../../db/statements';
import type { Deps } from '../../env';
import { wantsChannel } from './preferences.rules';

/** Messages outside notifications: always sent, whatever the user's preferences. */
export const TRANSACTIONAL_TEMPLATES = ['EMAIL_VERIFICATION', 'PASSWORD_RESET', 'PASSWORD_CHANGED', 'RECIPIENT_LINK', 'DATA_EXPORT_READY', 'PHONE_VERIFICATION', 'INCIDENT_OPENED', 'INCIDENT_RESOLVED', 'AGENCY_INVITATION_SIGN_UP'] as const;
export type TransactionalTemplate = (typeof TRANSACTIONAL_TEMPLATES)[number];

/** A row QUEUED this long without an attempt lost its enqueue: the cron sends it again. */
export const STALE_AFTER_MS = 5 * 60 * 1000;
/** A row QUEUED with attempts for this long lost its retry (the queue gave up on a crashing consumer). */
export const LOST_RETRY_AFTER_MS = 2 * 60 * 60 * 1000;
/** Queue messages per sendBatch() call (the Queues limit). */
const QUEUE_BATCH = 100;

export interface DeliveryMessage {
  id: number;
}

/**
 * `statement` (a delivery insert RETURNING id) with its ids kept, once its batch commits, in the
 * unit of work of the client that ran it (db/client.ts): the request's, or the cron run's, whose
 * end hands them to the queue (enqueuePendingDeliveries).
 */
export function enqueuedOnCommit<T extends object>(statement: T): T {
  return afterCommit(statement, (rows, work) => {
    for (const row of (rows as { id: number }[] | undefined) ?? []) work.deliveries.add(row.id);
  });
}

export interface TransactionalMessage {
  userId?: number | null;
  /**
   * The e-mail address; or, for a message that goes out by several channels (the recipient's
   * link: e-mail and SMS), each channel's address and when it is there. Values, or SQL the
   * statement reads itself (from `source`, e.g. the reservation).
   */
  to: string | SQL | ChannelAddresses;
  template: TransactionalTemplate;
  locale: Locale | SQL;
  /** What the template reads: links as root paths (`/verify-email?token=...`), names, numbers. */
  payload: Record<string, unknown> | SQL;
}

/** A message's address on each channel it goes out by, and what must hold for a row on that channel. */
export type ChannelAddresses = { [C in DeliveryChannel]?: { to: SQL; present: SQL } };

/**
 * The one writer of messages outside notifications: a statement for the batch of the change,
 * written only if `guard` holds when the batch reaches it (when one is given).
 */
export function transactionalMessage(db: Db, message: TransactionalMessage, guard?: SQL, source?: SQLiteTable): Statement {
  return deliveriesInsert(db, transactionalRows(message, guard), source);
}

/**
 * A member of the deliveries insert: its values and the condition it is written under, and for a
 * message that goes out by several channels, what is joined to the statement's source to write
 * one row per channel (the list of channels, the addressee and their preferences).
 */
export interface DeliveryInsertRow extends Omit<GuardedRows<typeof deliveries>, 'source'> {
  joins?: SQL;
}

// The channel of a row, in a member that writes one row per channel: the member's source joined
// to the list of its channels (constant names as literals, no bound parameters: D1 allows 100 a
// statement), and what depends on the channel chosen by CASE. One member for the e-mail, push and
// SMS of a notification, not three: the statement is a third of the parameters and much less SQL
// to prepare (the deposit's deliveries insert, measured alone beside the bench's primitives: 1.4 ms
// of CPU with a member per channel, 0.7 ms like this with literal LIMITs, a read by id 0.65 ms).
const CHANNEL = sql`"delivery_channel"."channel"`;

const channelList = (channels: readonly DeliveryChannel[]) =>
  sql`(${sql.raw(channels.map((c) => `SELECT '${c}' AS "channel"`).join(' UNION ALL '))}) AS "delivery_channel"`;

/** `CASE channel WHEN 'EMAIL' THEN ... END`: the value or the condition of each channel. */
function byChannel(cases: { [C in DeliveryChannel]?: SQL }): SQL {
  const whens = Object.entries(cases).map(([channel, value]) => sql`WHEN ${sql.raw(`'${channel}'`)} THEN ${value}`);
  return sql`CASE ${CHANNEL} ${sql.join(whens, sql` `)} END`;
}

/** transactionalMessage()'s rows, for an insert shared with a notification's (notify's `alsoDeliver`). */
export function transactionalRows(message: TransactionalMessage | readonly TransactionalMessage[], guard?: SQL): DeliveryInsertRow[] {
  return (Array.isArray(message) ? message : [message]).map((m: TransactionalMessage) => {
    const values = { userId: m.userId ?? null, template: m.template, locale: m.locale, payload: m.payload };
    if (typeof m.to === 'string' || is(m.to, SQL)) return { values: { ...values, channel: 'EMAIL', to: m.to }, condition: guard };
    const addresses = m.to as ChannelAddresses;
    const channels = Object.keys(addresses) as DeliveryChannel[];
    const pick = (part: 'to' | 'present') => byChannel(Object.fromEntries(channels.map((c) => [c, addresses[c]![part]])));
    return {
      values: { ...values, channel: CHANNEL, to: pick('to') },
      condition: and(guard, pick('present')),
      joins: channelList(channels),
      limit: channels.length,
    };
  });
}

/** The one insert of deliveries rows (one statement, UNION ALL when several), enqueued once its batch commits. */
export function deliveriesInsert(db: Db, rows: readonly DeliveryInsertRow[], source?: SQLiteTable): Statement {
  const from = source ?? sql`(SELECT 1)`;
  const members = rows.map(({ joins, ...row }) => (joins ? { ...row, source: sql`${from} JOIN ${joins}` } : row));
  return enqueuedOnCommit(guardedInsertAll(db, deliveries, members, source).returning({ id: deliveries.id }));
}

type Value = string | number | SQL | Column | Placeholder;

export interface UserMessage {
  /** A user id, a column of `source`, or a compiled statement's placeholder. */
  userId: number | SQL | Column | Placeholder;
  template: string;
  /** `text`: the words as a message key with its values (JSON), rendered in the addressee's language. */
  payload: { title: Value; message: Value; data?: Record<string, unknown> | SQL | null; text?: Value | null };
}

/** The channels a notification can leave by, in the order notify() writes them. */
export const NOTIFICATION_CHANNELS = ['EMAIL', 'PUSH', 'SMS'] as const satisfies readonly DeliveryChannel[];
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

/** The address of a PUSH row: the account's devices, looked up when it is sent (one row per user, not per device). */
export const PUSH_ADDRESS_PREFIX = 'user:';

/** A phone number as typed (spaces, dots, dashes, brackets) reduced to its digits and leading +. */
export const compactPhone = (phone: SQL) => sql`replace(replace(replace(replace(replace(${phone}, ' ', ''), '-', ''), '.', ''), '(', ''), ')', '')`;

/**
 * The number can take an SMS: international (E.164, + and 7 to 15 digits). A national number
 * (06...) names no country for certain, so it gets no SMS rather than one to the wrong country.
 */
export const isE164 = (compact: SQL) => sql`(${compact} GLOB '+[1-9]*' AND length(${compact}) BETWEEN 8 AND 16 AND NOT substr(${compact}, 2) GLOB '*[^0-9]*')`;

/** The account a notification goes to, and its stored choices for the notification's kind. */
const addressee = alias(users, 'addressee');
const choice = alias(notificationPreferences, 'choice');
const addresseePhone = compactPhone(sql`${addressee.phoneNumber}`);

/**
 * The outgoing messages of a notification to an account, one row per channel it goes out on, in
 * one member of the deliveries insert: each row written only if `guard` holds, the account is
 * still there, wants this kind on that channel (preferences.rules.ts) and can be reached by it (an
 * e-mail always; a registered device for push; an international number for SMS). Address and
 * locale are read by the statement itself.
 */
export function userDeliveryRows(db: Db, message: UserMessage, guard?: SQL): DeliveryInsertRow[] {
  const kind = message.template;
  const { title, message: text, data, text: words } = message.payload;
  const dataSql = data == null ? sql`NULL` : is(data, SQL) ? data : sql`json(${JSON.stringify(data)})`;
  const wordsSql = words == null ? sql`NULL` : sql`json(${words})`;
  return [
    {
      values: {
        userId: addressee.id,
        channel: CHANNEL,
        to: byChannel({ EMAIL: sql`${addressee.email}`, PUSH: sql`${PUSH_ADDRESS_PREFIX} || ${addressee.id}`, SMS: addresseePhone }),
        template: kind,
        locale: addressee.locale,
        payload: sql`json_object('title', ${title}, 'message', ${text}, 'data', ${dataSql}, 'text', ${wordsSql})`,
      },
      condition: and(
        isNull(addressee.deletedAt),
        byChannel({
          EMAIL: wantsChannel(choice, kind, 'email'),
          PUSH: and(wantsChannel(choice, kind, 'push'), rowExists(db, devices, eq(devices.userId, addressee.id)))!,
          SMS: and(wantsChannel(choice, kind, 'sms'), isE164(addresseePhone))!,
        }),
        guard,
      ),
      joins: sql`${channelList(NOTIFICATION_CHANNELS)} JOIN ${users} AS ${addressee} ON ${eq(addressee.id, sql`${message.userId}`)} LEFT JOIN ${notificationPreferences} AS ${choice} ON ${and(eq(choice.userId, addressee.id), eq(choice.kind, kind))}`,
      limit: NOTIFICATION_CHANNELS.length,
    },
  ];
}

/**
 * Hands the rows a unit of work committed (the request's, the cron run's) to the queue. A failed
 * send is logged and left to the sweep: the rows are QUEUED in D1, which is what counts.
 */
export async function enqueuePendingDeliveries({ db, env }: { db: Db; env: Pick<Env, 'DELIVERIES'> }): Promise<void> {
  const pending = db.$work.deliveries;
  if (pending.size === 0) return;
  const ids = [...pending];
  pending.clear();
  await sendToQueue(env, ids);
}

async function sendToQueue(env: Pick<Env, 'DELIVERIES'>, ids: number[]): Promise<number> {
  let sent = 0;
  for (let i = 0; i < ids.length; i += QUEUE_BATCH) {
    const chunk = ids.slice(i, i + QUEUE_BATCH);
    try {
      await env.DELIVERIES.sendBatch(chunk.map((id) => ({ body: { id } satisfies DeliveryMessage, contentType: 'json' as const })));
      sent += chunk.length;
    } catch (err) {
      console.error(JSON.stringify({ level: 'error', event: 'deliveries.enqueue_failed', count: chunk.length, error: err instanceof Error ? err.message : String(err) }));
    }
  }
  return sent;
}

/**
 * The cron's sweep: rows left QUEUED without an attempt for 5 minutes (their enqueue was lost),
 * and rows whose retries stopped coming, are sent to the queue again.
 */
export async function requeueStaleDeliveries(deps: Deps, now = new Date()): Promise<{ requeued: number }> {
  const { db, env } = deps;
  const stale = new Date(now.getTime() - STALE_AFTER_MS).toISOString();
  const lost = new Date(now.getTime() - LOST_RETRY_AFTER_MS).toISOString();
  const rows = await db
    .select({ id: deliveries.id })
    .from(deliveries)
    .where(and(eq(deliveries.status, 'QUEUED'), lt(deliveries.createdAt, stale), or(eq(deliveries.attempts, 0), lt(deliveries.createdAt, lost))))
    .orderBy(deliveries.id)
    .limit(1000);
  return { requeued: await sendToQueue(env, rows.map((r) => r.id)) };
}

