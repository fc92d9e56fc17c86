// The watchdog (CONTRACT section 27): at the end of every cron run it observes the platform,
// opens one incident per rule breached and resolves those no longer breached, each with one alert
// (ALERT_EMAIL, ALERT_SMS, ALERT_WEBHOOK_URL) written in the same batch as the incident's change:
// an incident opened always has its alert, and a run that finds it open again sends none.
import { and, count, eq, gte, inArray, lt, lte, min, or, sql, type SQL } from 'drizzle-orm';
import { appConfig } from '../../config';
import type { Db } from '../../db/client';
import { cronHeartbeats, deliveries, incidents, reservations, webhookRefusals, withdrawals, type IncidentRow } from '../../db/schema';
import type { Deps } from '../../env';
import { transactionalMessage, type ChannelAddresses } from '../deliveries/outbox';
import { CAPTURE_BEFORE_MS, PAYMENT_STATUS } from '../money';
import { breaches, incidentTitle, PENDING_TOO_LONG_MS, WINDOWS_MS, type Breach, type Heartbeat, type Observations } from './watchdog.rules';
import { renderText } from '../../lib/message-text';
import type { Message } from '../../messages';

const ago = (now: Date, ms: number) => new Date(now.getTime() - ms).toISOString();

/** Each scheduled job's run: its last run, and its last success (the CRON_LATE rule reads them). */
export async function recordHeartbeat(db: Db, job: string, at: Date, error: string | null): Promise<void> {
  const runAt = at.toISOString();
  await db
    .insert(cronHeartbeats)
    .values({ job, lastRunAt: runAt, lastOkAt: error ? null : runAt, lastError: error })
    .onConflictDoUpdate({
      target: cronHeartbeats.job,
      set: error ? { lastRunAt: runAt, lastError: error.slice(0, 500) } : { lastRunAt: runAt, lastOkAt: runAt, lastError: null },
    });
}

/** The last hour's metrics, or why they could not be read (itself a rule). */
async function hourMetrics(deps: Deps, now: Date): Promise<Observations['metrics']> {
  try {
    return { ok: true, hour: await deps.providers.metrics.summary('1h', now) };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}

/** Everything the rules read: the metrics, then the D1 figures in one round trip. */
export async function observe(deps: Deps, now: Date): Promise<Observations> {
  const { db } = deps;
  const countOf = (table: typeof withdrawals | typeof deliveries | typeof reservations | typeof webhookRefusals, where: SQL | undefined) =>
    db.select({ n: count() }).from(table).where(where);
  const pendingSince = ago(now, PENDING_TOO_LONG_MS);
  const [metrics, [payoutsFailed, dead, failed, oldest, beats, captures, refunds, payouts, refused]] = await Promise.all([
    hourMetrics(deps, now),
    db.batch([
      countOf(withdrawals, and(eq(withdrawals.status, 'FAILED'), gte(withdrawals.completedAt, ago(now, WINDOWS_MS.payoutsFailed)))),
      countOf(deliveries, and(eq(deliveries.status, 'DEAD'), gte(deliveries.createdAt, ago(now, WINDOWS_MS.deliveriesDead)))),
      countOf(deliveries, and(eq(deliveries.status, 'FAILED'), gte(deliveries.createdAt, ago(now, WINDOWS_MS.deliveriesFailed)))),
      db.select({ at: min(deliveries.createdAt) }).from(deliveries).where(eq(deliveries.status, 'QUEUED')),
      db.select().from(cronHeartbeats),
      countOf(
        reservations,
        or(
          and(eq(reservations.paymentStatus, PAYMENT_STATUS.AUTHORIZED), lte(reservations.paidAt, ago(now, CAPTURE_BEFORE_MS + PENDING_TOO_LONG_MS))),
          and(eq(reservations.paymentStatus, PAYMENT_STATUS.PARTIAL_CAPTURE_PENDING), lt(reservations.updatedAt, pendingSince)),
        ),
      ),
      countOf(reservations, and(inArray(reservations.paymentStatus, [PAYMENT_STATUS.REFUND_PENDING, PAYMENT_STATUS.VOID_PENDING]), lt(reservations.updatedAt, pendingSince))),
      countOf(withdrawals, and(eq(withdrawals.status, 'PENDING'), lt(withdrawals.createdAt, pendingSince))),
      countOf(webhookRefusals, gte(webhookRefusals.createdAt, ago(now, WINDOWS_MS.webhooksRefused))),
    ]),
  ]);
  const oldestAt = oldest[0]?.at;
  return {
    metrics,
    payoutsFailed: payoutsFailed[0].n,
    deliveriesDead: dead[0].n,
    deliveriesFailed: failed[0].n,
    oldestQueuedMinutes: oldestAt ? Math.max(0, (now.getTime() - Date.parse(oldestAt)) / 60_000) : null,
    heartbeats: beats as Heartbeat[],
    capturesPending: captures[0].n,
    refundsPending: refunds[0].n,
    payoutsPending: payouts[0].n,
    webhooksRefused: refused[0].n,
  };
}

/** The configured alert channels as the outbox's addresses (none configured: no alert row). */
function alertAddresses(env: Env): ChannelAddresses | null {
  const { email, sms, webhook } = appConfig(env).alerts;
  const to: ChannelAddresses = {};
  if (email) to.EMAIL = { to: sql`${email}`, present: sql`1` };
  if (sms) to.SMS = { to: sql`${sms}`, present: sql`1` };
  if (webhook) to.WEBHOOK = { to: sql`${webhook.url}`, present: sql`1` };
  return Object.keys(to).length > 0 ? to : null;
}

/**
 * The alert of an incident's change, read from the incident's row by the statement itself. It is
 * written only if the statement just before it in the batch (the incident's insert or resolution)
 * changed a row (`changes()`), and only for the row changed at `at`: a run that lost the race to
 * another writes nothing.
 */
function alertStatement(db: Db, env: Env, template: 'INCIDENT_OPENED' | 'INCIDENT_RESOLVED', which: SQL, incident: { rule: string; subject: string; text: Message | null }) {
  const to = alertAddresses(env);
  if (!to) return null;
  // In the on-call team's language (ALERT_LOCALE): the title, and the summary from its message (the English column for incidents opened before it had one).
  const { locale } = appConfig(env).alerts;
  const title = incidentTitle(incident.rule, incident.subject, locale);
  const summary = incident.text ? renderText(incident.text, locale) : incidents.summary;
  const payload = sql`json_object('incidentId', ${incidents.id}, 'rule', ${incidents.rule}, 'subject', ${incidents.subject}, 'severity', ${incidents.severity}, 'title', ${title}, 'summary', ${summary}, 'openedAt', ${incidents.openedAt}, 'resolvedAt', ${incidents.resolvedAt})`;
  return transactionalMessage(db, { to, template, locale, payload }, and(sql`changes() = 1`, which), incidents);
}

async function open(deps: Deps, b: Breach, at: string): Promise<void> {
  const { db, env } = deps;
  const insert = db
    .insert(incidents)
    .values({ rule: b.rule, subject: b.subject, severity: b.severity, summary: b.summary, summaryText: b.text, value: b.value, threshold: b.threshold, openedAt: at, lastSeenAt: at })
    .onConflictDoNothing();
  const alert = alertStatement(db, env, 'INCIDENT_OPENED', and(eq(incidents.rule, b.rule), eq(incidents.subject, b.subject), eq(incidents.status, 'OPEN'), eq(incidents.openedAt, at))!, b);
  await (alert ? db.batch([insert, alert]) : insert);
}

async function resolve(deps: Deps, incident: IncidentRow, at: string): Promise<void> {
  const { db, env } = deps;
  const update = db
    .update(incidents)
    .set({ status: 'RESOLVED', resolvedAt: at })
    .where(and(eq(incidents.id, incident.id), eq(incidents.status, 'OPEN')));
  const alert = alertStatement(db, env, 'INCIDENT_RESOLVED', and(eq(incidents.id, incident.id), eq(incidents.resolvedAt, at))!, { ...incident, text: null });
  await (alert ? db.batch([update, alert]) : update);
}

const keyOf = (i: { rule: string; subject: string }) => `${i.rule}\u0000${i.subject}`;

/** One run: observe, then open what is newly breached, keep what still is, resolve the rest. */
export async function runWatchdog(deps: Deps, now: Date): Promise<{ opened: number; resolved: number; open: number }> {
  const { db } = deps;
  const at = now.toISOString();
  const found = breaches(await observe(deps, now), now);
  const openRows = await db.select().from(incidents).where(eq(incidents.status, 'OPEN'));
  const openKeys = new Map(openRows.map((i) => [keyOf(i), i]));
  const foundKeys = new Set(found.map(keyOf));
  const toOpen = found.filter((b) => !openKeys.has(keyOf(b)));
  const toResolve = openRows.filter((i) => !foundKeys.has(keyOf(i)));
  const still = openRows.filter((i) => foundKeys.has(keyOf(i))).map((i) => i.id);
  for (const b of toOpen) await open(deps, b, at);
  for (const i of toResolve) await resolve(deps, i, at);
  if (still.length > 0) await db.update(incidents).set({ lastSeenAt: at }).where(and(inArray(incidents.id, still), eq(incidents.status, 'OPEN')));
  // Refusals older than a day count for nothing any more.
  await db.delete(webhookRefusals).where(lt(webhookRefusals.createdAt, ago(now, 24 * 60 * 60 * 1000)));
  return { opened: toOpen.length, resolved: toResolve.length, open: openRows.length + toOpen.length - toResolve.length };
}
