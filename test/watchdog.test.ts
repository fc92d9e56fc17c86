// The watchdog (CONTRACT section 27, issue 44): the 5-minute cron opens one incident per rule
// breach and resolves it once, each with one alert by e-mail, SMS and a Slack-compatible webhook
// (the dev outbox outside production); refused webhooks are counted where they are refused; the
// incidents and the metrics are read with a monitoring token that reads nothing else.
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { and, eq, inArray } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cronHeartbeats, deliveries, incidents, outboxMessages, webhookRefusals, withdrawals } from '../src/db/schema';
import { depsOf } from '../src/env';
import { deliverOne } from '../src/features/deliveries/consumer';
import { reservationDocumentPdf } from '../src/features/money';
import worker from '../src/index';
import { localMetrics } from '../src/providers/metrics/local-metrics';
import { SCHEDULED_JOBS } from '../src/scheduled';
import { PASSWORD } from './helpers/auth';
import { Browser } from './helpers/console-browser';
import { consume } from './helpers/deliveries';
import { db } from './helpers/db';
import { aSuperAdmin, aUser, anAdmin } from './helpers/factories';
import { hashPassword } from '../src/lib/password';
import { BASE, call, del, get, post } from './helpers/http';
import { PRODUCTION_ENV } from './helpers/production';

// The queue held still: alerts are sent only when a test consumes them (consume()), never by the
// local queue's own consumer at a moment that depends on the machine's load.
const HELD_QUEUE = { send: async () => {}, sendBatch: async () => {} };
const ALERTS = {
  ...env,
  ALERT_EMAIL: 'oncall@example.test',
  ALERT_SMS: '+33612345678',
  ALERT_WEBHOOK_URL: 'https://hooks.slack.test/services/T1/B1/abc',
  ALERT_LOCALE: 'en',
  DELIVERIES: HELD_QUEUE,
} as unknown as Env;
const MINUTE = 60_000;

async function runCron(at: number, variant: Env = ALERTS) {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ scheduledTime: at, cron: '*/5 * * * *' }), variant, ctx);
  await waitOnExecutionContext(ctx);
}

const incidentsOf = (rule: string) => db().select().from(incidents).where(eq(incidents.rule, rule)).orderBy(incidents.id);
const alertsOf = async (template: string, incidentId?: number) =>
  (await db().select().from(deliveries).where(eq(deliveries.template, template)).orderBy(deliveries.id)).filter((d) => incidentId === undefined || d.payload.incidentId === incidentId);

beforeEach(async () => {
  // Each test starts from a quiet platform: no incident, no alert, no failure left by another test.
  await db().batch([
    db().delete(incidents),
    db().delete(webhookRefusals),
    db().delete(cronHeartbeats),
    db().delete(deliveries),
    db().delete(outboxMessages),
    db().delete(withdrawals),
  ]);
});
afterEach(() => vi.restoreAllMocks());

async function aFailedPayout(completedAt = new Date().toISOString()) {
  const carrier = await aUser();
  await db().insert(withdrawals).values({
    ownerType: 'USER',
    ownerId: carrier.id,
    amountCents: 4_250,
    currency: 'XOF',
    status: 'FAILED',
    destinationAccountId: 'wave:+221770009999',
    failureReason: 'blocked-account',
    token: crypto.randomUUID(),
    completedAt,
  });
}

describe('the watchdog in the 5-minute cron', () => {
  it('a payout failure opens one incident with one alert per channel; later runs send nothing; an hour on it resolves, alerted once', async () => {
    const t0 = Date.now();
    await aFailedPayout(new Date(t0 - MINUTE).toISOString());
    await runCron(t0);
    const [opened] = await incidentsOf('PAYOUTS_FAILED');
    expect(opened).toMatchObject({ status: 'OPEN', severity: 'PAGE', subject: '', value: 1, threshold: 1, openedAt: new Date(t0).toISOString(), resolvedAt: null });
    expect(opened.summary).toBe('1 payouts refused by the provider in the last hour (threshold 1)');
    const openAlerts = await alertsOf('INCIDENT_OPENED');
    expect(openAlerts.map((d) => [d.channel, d.to]).sort()).toEqual([
      ['EMAIL', 'oncall@example.test'],
      ['SMS', '+33612345678'],
      ['WEBHOOK', 'https://hooks.slack.test/services/T1/B1/abc'],
    ]);
    expect(openAlerts[0].payload).toMatchObject({ incidentId: opened.id, rule: 'PAYOUTS_FAILED', title: 'Payout failures', severity: 'PAGE' });

    // Still breached five and ten minutes later: the same incident, no second alert.
    await runCron(t0 + 5 * MINUTE);
    await runCron(t0 + 10 * MINUTE);
    expect(await incidentsOf('PAYOUTS_FAILED')).toHaveLength(1);
    expect((await incidentsOf('PAYOUTS_FAILED'))[0].lastSeenAt).toBe(new Date(t0 + 10 * MINUTE).toISOString());
    expect(await alertsOf('INCIDENT_OPENED')).toHaveLength(3);

    // The failure leaves the hour's window: resolved once, alerted once. (The alerts, never
    // consumed here, are an hour old by then: the stalled queue is an incident of its own.)
    await runCron(t0 + 61 * MINUTE);
    await runCron(t0 + 66 * MINUTE);
    const [resolved] = await incidentsOf('PAYOUTS_FAILED');
    expect(resolved).toMatchObject({ id: opened.id, status: 'RESOLVED', resolvedAt: new Date(t0 + 61 * MINUTE).toISOString() });
    expect((await alertsOf('INCIDENT_RESOLVED', opened.id)).map((d) => d.channel).sort()).toEqual(['EMAIL', 'SMS', 'WEBHOOK']);
    expect(await alertsOf('INCIDENT_OPENED', opened.id)).toHaveLength(3);
    expect((await incidentsOf('QUEUE_STALLED')).map((i) => i.status)).toEqual(['OPEN']);
  });

  it('the alerts reach the dev outbox by e-mail, SMS and webhook, each saying the same', async () => {
    await aFailedPayout();
    await runCron(Date.now());
    for (const alert of await alertsOf('INCIDENT_OPENED')) expect((await consume(alert.id, { variant: ALERTS })).acked).toBe(true);
    const sent = await db().select().from(outboxMessages).where(eq(outboxMessages.template, 'INCIDENT_OPENED')).orderBy(outboxMessages.channel);
    const [incident] = await incidentsOf('PAYOUTS_FAILED');
    const line = `[PAGE] Incident #${incident.id} opened: 1 payouts refused by the provider in the last hour (threshold 1) (since ${incident.openedAt.slice(0, 10)} ${incident.openedAt.slice(11, 16)} UTC).`;
    expect(sent.map((m) => m.channel)).toEqual(['EMAIL', 'SMS', 'WEBHOOK']);
    expect(sent[0].subject).toBe(`[PAGE] Incident #${incident.id}: Payout failures`);
    expect(sent[0].text).toContain(line);
    expect(sent[1].text).toBe(line);
    expect(sent[2]).toMatchObject({ to: 'https://hooks.slack.test/services/T1/B1/abc', text: `${line} ${env.PUBLIC_BASE_URL}/console/incidents` });
  });

  it('with ALERT_LOCALE=fr the alerts speak French, and the incidents read in French say the same', async () => {
    const french = { ...ALERTS, ALERT_LOCALE: 'fr' } as Env;
    await aFailedPayout();
    await runCron(Date.now(), french);
    for (const alert of await alertsOf('INCIDENT_OPENED')) expect((await consume(alert.id, { variant: french })).acked).toBe(true);
    const sent = await db().select().from(outboxMessages).where(eq(outboxMessages.template, 'INCIDENT_OPENED')).orderBy(outboxMessages.channel);
    const [incident] = await incidentsOf('PAYOUTS_FAILED');
    const line = `[PAGE] Incident n° ${incident.id} ouvert : 1 versements refusés par le prestataire dans la dernière heure (seuil 1) (depuis ${incident.openedAt.slice(0, 10)} ${incident.openedAt.slice(11, 16)} UTC).`;
    expect(sent.map((m) => [m.channel, m.locale])).toEqual([
      ['EMAIL', 'fr'],
      ['SMS', 'fr'],
      ['WEBHOOK', 'fr'],
    ]);
    expect(sent[0].subject).toBe(`[PAGE] Incident n° ${incident.id} : Versements refusés`);
    expect(sent[0].text).toContain('Bonjour,');
    expect(sent[1].text).toBe(line);
    // The API keeps the English it always had, and gives a French reader the French.
    expect(incident.summary).toBe('1 payouts refused by the provider in the last hour (threshold 1)');
    const root = await aSuperAdmin();
    const listed = await get('/v1/api/superadmin/incidents?status=OPEN', { token: root.token, headers: { 'Accept-Language': 'fr' } });
    expect(listed.body.content).toContainEqual(expect.objectContaining({ id: incident.id, title: 'Versements refusés', summary: '1 versements refusés par le prestataire dans la dernière heure (seuil 1)' }));
  });

  it('in production the webhook alert is one Slack-compatible JSON POST', async () => {
    const posted: { url: string; body: unknown }[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      posted.push({ url: String(input), body: JSON.parse(String(init?.body)) });
      return new Response('ok');
    });
    const production = { ...PRODUCTION_ENV, ALERT_EMAIL: 'oncall@example.com', ALERT_WEBHOOK_URL: 'https://hooks.slack.com/services/T1/B1/abc' } as Env;
    const [row] = await db()
      .insert(deliveries)
      .values({ channel: 'WEBHOOK', to: 'https://hooks.slack.com/services/T1/B1/abc', template: 'INCIDENT_RESOLVED', locale: 'en', payload: { incidentId: 7, title: 'Webhooks refused', openedAt: '2026-12-07T04:40:00.000Z', resolvedAt: '2026-12-07T04:55:00.000Z' } })
      .returning();
    expect(await deliverOne(depsOf(production), row.id, reservationDocumentPdf)).toBeNull();
    expect(posted).toEqual([
      {
        url: 'https://hooks.slack.com/services/T1/B1/abc',
        body: { text: 'Incident #7 resolved: Webhooks refused (opened 2026-12-07 04:40 UTC, resolved 2026-12-07 04:55 UTC). https://api.example.com/console/incidents' },
      },
    ]);
    const [after] = await db().select().from(deliveries).where(eq(deliveries.id, row.id));
    expect(after).toMatchObject({ status: 'SENT', providerMessageId: 'webhook-200' });
  });

  it('more than 10 webhooks refused in 5 minutes, counted where they are refused, open WEBHOOKS_REFUSED; 10 do not', async () => {
    const refuse = () => call('POST', '/v1/api/webhooks/wave', { body: '{"id":"evt"}', headers: { 'Content-Type': 'application/json', 'Wave-Signature': 't=1,v1=forged' } });
    for (let i = 0; i < 10; i++) expect((await refuse()).status).toBe(401);
    expect((await call('POST', '/v1/api/webhooks/payment-provider', { body: '{}', headers: { 'Content-Type': 'application/json', 'Stripe-Signature': 't=1,v1=bad' } })).status).toBe(401);
    const counted = await db().select().from(webhookRefusals);
    expect(counted.map((r) => r.provider).sort()).toEqual(['payment-provider', ...Array(10).fill('wave')]);
    await db().delete(webhookRefusals).where(eq(webhookRefusals.provider, 'payment-provider'));
    await runCron(Date.now());
    expect(await incidentsOf('WEBHOOKS_REFUSED')).toEqual([]);
    expect((await refuse()).status).toBe(401);
    await runCron(Date.now());
    const [incident] = await incidentsOf('WEBHOOKS_REFUSED');
    expect(incident).toMatchObject({ status: 'OPEN', value: 11, summary: '11 provider webhooks refused for their signature in 5 minutes (more than 10)' });
    // Five quiet minutes later the window is empty: resolved.
    await runCron(Date.now() + 6 * MINUTE);
    expect((await incidentsOf('WEBHOOKS_REFUSED'))[0].status).toBe('RESOLVED');
  });

  it('a stalled queue (the oldest queued delivery 15 minutes old) opens QUEUE_STALLED, resolved once it drains', async () => {
    const user = await aUser();
    const [stuck] = await db()
      .insert(deliveries)
      .values({ userId: user.id, channel: 'EMAIL', to: user.email, template: 'PASSWORD_CHANGED', locale: 'fr', payload: {}, createdAt: new Date(Date.now() - 20 * MINUTE).toISOString() })
      .returning();
    await runCron(Date.now());
    expect(await incidentsOf('QUEUE_STALLED')).toMatchObject([{ status: 'OPEN', value: 20 }]);
    await db().update(deliveries).set({ status: 'SENT' }).where(eq(deliveries.id, stuck.id));
    await runCron(Date.now() + 5 * MINUTE);
    expect(await incidentsOf('QUEUE_STALLED')).toMatchObject([{ status: 'RESOLVED' }]);
  });

  it('a cron job that has not completed for 15 minutes opens CRON_LATE for that job, with its error', async () => {
    const t0 = Date.now();
    await runCron(t0);
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(SCHEDULED_JOBS, 'offerExpiry').mockImplementation(async () => {
      throw new Error('D1_ERROR: too many requests');
    });
    await runCron(t0 + 5 * MINUTE);
    await runCron(t0 + 10 * MINUTE);
    expect(await incidentsOf('CRON_LATE')).toEqual([]);
    await runCron(t0 + 15 * MINUTE);
    const late = await incidentsOf('CRON_LATE');
    expect(late.map((i) => [i.subject, i.status])).toEqual([['offerExpiry', 'OPEN']]);
    expect(late[0].summary).toBe('the cron job offerExpiry has not completed for 15 minutes; last error: D1_ERROR: too many requests');
    const [beat] = await db().select().from(cronHeartbeats).where(eq(cronHeartbeats.job, 'offerExpiry'));
    expect(beat).toMatchObject({ lastOkAt: new Date(t0).toISOString(), lastRunAt: new Date(t0 + 15 * MINUTE).toISOString() });
  });

  it('money pending too long (a refund, a payout) and a metrics query that fails each open their incident', async () => {
    const carrier = await aUser();
    await db().insert(withdrawals).values({ ownerType: 'USER', ownerId: carrier.id, amountCents: 1_000, currency: 'EUR', status: 'PENDING', destinationAccountId: 'acct_1', token: crypto.randomUUID(), createdAt: new Date(Date.now() - 2 * 60 * MINUTE).toISOString() });
    vi.spyOn(localMetrics, 'summary').mockImplementation(async () => {
      throw new Error('Analytics Engine answered 503');
    });
    await runCron(Date.now());
    const open = await db().select().from(incidents).where(eq(incidents.status, 'OPEN'));
    expect(open.map((i) => i.rule).sort()).toEqual(['METRICS_UNAVAILABLE', 'PAYOUTS_PENDING']);
    expect(open.find((i) => i.rule === 'METRICS_UNAVAILABLE')!.summary).toBe('the metrics could not be read: Analytics Engine answered 503');
  });

  it('without alert addresses (local default) incidents still open, and no alert is written', async () => {
    await aFailedPayout();
    await runCron(Date.now(), { ...env, ALERT_EMAIL: undefined, ALERT_SMS: undefined, ALERT_WEBHOOK_URL: undefined } as Env);
    expect(await incidentsOf('PAYOUTS_FAILED')).toHaveLength(1);
    expect(await db().select().from(deliveries).where(inArray(deliveries.template, ['INCIDENT_OPENED', 'INCIDENT_RESOLVED']))).toEqual([]);
  });
});

describe('GET /superadmin/incidents and monitoring tokens', () => {
  it('a super-admin creates a named token, shown once, that reads the metrics and incidents and nothing else, until revoked', async () => {
    const root = await aSuperAdmin();
    await aFailedPayout();
    await runCron(Date.now());
    const created = await post('/v1/api/superadmin/monitoring-tokens', { name: 'uptime monitor' }, { token: root.token });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'uptime monitor', createdBy: root.id, lastUsedAt: null, revokedAt: null });
    const token = created.body.token as string;
    expect(token).toMatch(/^mon_[A-Za-z0-9_-]{43}$/);

    const page = await get('/v1/api/superadmin/incidents?status=OPEN', { token });
    expect(page.status).toBe(200);
    expect(page.body.page).toEqual({ number: 0, size: 20, totalElements: 1, totalPages: 1 });
    expect(page.body.content[0]).toMatchObject({ rule: 'PAYOUTS_FAILED', title: 'Payout failures', subject: null, status: 'OPEN', severity: 'PAGE', resolvedAt: null });
    expect((await get('/v1/api/superadmin/metrics?window=1h', { token })).status).toBe(200);
    // Anything else: not an access token.
    for (const path of ['/v1/api/superadmin/deliveries', '/v1/api/users/me', '/v1/api/superadmin/monitoring-tokens']) {
      expect((await get(path, { token })).status).toBe(401);
    }
    const listed = await get('/v1/api/superadmin/monitoring-tokens', { token: root.token });
    expect(listed.body.content[0]).toMatchObject({ id: created.body.id, name: 'uptime monitor' });
    expect(listed.body.content[0].lastUsedAt).not.toBeNull();
    expect(JSON.stringify(listed.body)).not.toContain(token);

    const revoked = await del(`/v1/api/superadmin/monitoring-tokens/${created.body.id}`, { token: root.token });
    expect(revoked.status).toBe(200);
    expect(revoked.body.revokedAt).not.toBeNull();
    expect((await get('/v1/api/superadmin/incidents', { token })).status).toBe(401);
    expect((await get('/v1/api/superadmin/metrics', { token })).status).toBe(401);
    expect((await del('/v1/api/superadmin/monitoring-tokens/999999', { token: root.token })).status).toBe(404);
  });

  it('an administrator who is not a super-admin can neither create a token nor read the incidents', async () => {
    const admin = await anAdmin();
    expect((await post('/v1/api/superadmin/monitoring-tokens', { name: 'x' }, { token: admin.token })).status).toBe(403);
    expect((await get('/v1/api/superadmin/incidents', { token: admin.token })).status).toBe(403);
    expect((await get('/v1/api/superadmin/incidents')).status).toBe(401);
    expect((await get('/v1/api/superadmin/incidents', { token: 'mon_not-a-token' })).status).toBe(401);
    void BASE;
  });
});

/** Each alert of a part of the Incidents page: its channel and the code of its status badge. */
const alertBadges = (html: string) => [...html.matchAll(/data-channel="(\w+)"[^>]*>[^<]*<span class="badge[^"]*" data-code="(\w+)"/g)].map(([, channel, status]) => `${channel}:${status}`);

/** The console served by the worker with these settings. */
const consoleWith = (variant: Env) => new Browser(async (r) => worker.fetch!(r as Request<unknown, IncomingRequestCfProperties>, variant, createExecutionContext()));

describe('the Incidents page of the console', () => {
  it('shows a super-admin the open incidents, then the resolved ones: the rule, since when, and each alert by channel with whether it left; in French too', async () => {
    const root = await aSuperAdmin({ passwordHash: await hashPassword(PASSWORD) });
    // The console as deployed with the three alert channels set (ALERTS), not a developer's .dev.vars.
    const b = consoleWith(ALERTS);
    expect((await b.signIn(root.email)).status).toBe(303);
    const t0 = Date.now();
    await aFailedPayout(new Date(t0 - MINUTE).toISOString());
    await runCron(t0);
    const [opened] = await incidentsOf('PAYOUTS_FAILED');
    const byChannel = Object.fromEntries((await alertsOf('INCIDENT_OPENED')).map((d) => [d.channel, d]));
    expect((await consume(byChannel.EMAIL.id, { variant: ALERTS })).acked).toBe(true);
    await db().update(deliveries).set({ status: 'DEAD', lastError: 'hooks.slack.test answered 404' }).where(eq(deliveries.id, byChannel.WEBHOOK.id));

    const page = await b.get('/console/incidents');
    expect(page.status).toBe(200);
    expect(page.text).toContain('href="/console/incidents"');
    const [openPart, resolvedPart] = page.text.split('aria-labelledby="incidents-resolved-title"');
    expect(openPart).toContain('Open now (1)');
    expect(openPart).toContain(`#${opened.id} Payout failures`);
    expect(openPart).toContain('1 payouts refused by the provider in the last hour (threshold 1)');
    expect(openPart).toContain(opened.openedAt.replace('T', ' ').slice(0, 16));
    expect(openPart).toMatch(/open for \d+ min/);
    expect(alertBadges(openPart)).toEqual(['EMAIL:SENT', 'SMS:QUEUED', 'WEBHOOK:DEAD']);
    expect(openPart).toContain('title="hooks.slack.test answered 404"');
    // Where alerts go now; the webhook by its host only, its path being its secret.
    expect(openPart).toContain('Alerts go to: E-mail oncall@example.test · SMS +33612345678 · Webhook hooks.slack.test.');
    expect(page.text).not.toContain('/services/T1/B1/abc');
    expect(resolvedPart).toContain('Resolved (0)');
    expect(resolvedPart).toContain('Nothing to show');

    // An hour later the payout failure is resolved; the unsent alerts, an hour old, stall the queue,
    // and the webhook's dead alert is a dead delivery: two incidents open.
    await runCron(t0 + 61 * MINUTE);
    b.language = 'fr';
    const fr = await b.get('/console/incidents');
    const [openFr, resolvedFr] = fr.text.split('aria-labelledby="incidents-resolved-title"');
    expect(openFr).toContain('Ouverts (2)');
    expect(openFr).toContain('File des messages bloquée');
    expect(openFr).toContain('Messages abandonnés');
    expect(resolvedFr).toContain('Résolus (1)');
    expect(resolvedFr).toContain(`#${opened.id} Versements refusés`);
    expect(resolvedFr).toContain('a duré 1 h 01');
    expect(resolvedFr).toContain('À l’ouverture :');
    expect(resolvedFr).toContain('À la résolution :');
    expect(alertBadges(resolvedFr)).toEqual(['EMAIL:SENT', 'SMS:QUEUED', 'WEBHOOK:DEAD', 'EMAIL:QUEUED', 'SMS:QUEUED', 'WEBHOOK:QUEUED']);

    // The API says the same (GET /superadmin/incidents).
    const api = await get('/v1/api/superadmin/incidents?status=RESOLVED', { token: root.token });
    expect(api.body.content[0].alerts.map((a: { event: string; channel: string; status: string }) => `${a.event}:${a.channel}:${a.status}`)).toEqual([
      'OPENED:EMAIL:SENT',
      'OPENED:SMS:QUEUED',
      'OPENED:WEBHOOK:DEAD',
      'RESOLVED:EMAIL:QUEUED',
      'RESOLVED:SMS:QUEUED',
      'RESOLVED:WEBHOOK:QUEUED',
    ]);
    expect(api.body.content[0].alerts[0]).toMatchObject({ sentAt: expect.any(String), lastError: null });
    expect(api.body.content[0].alerts[2]).toMatchObject({ sentAt: null, lastError: 'hooks.slack.test answered 404' });
  });

  it('without alert addresses the page says nobody is told; an administrator gets the 403 page and no menu entry', async () => {
    const bare = { ...env, ALERT_EMAIL: undefined, ALERT_SMS: undefined, ALERT_WEBHOOK_URL: undefined } as Env;
    await aFailedPayout();
    await runCron(Date.now(), bare);
    const root = await aSuperAdmin({ passwordHash: await hashPassword(PASSWORD) });
    const b = consoleWith(bare);
    await b.signIn(root.email);
    const page = await b.get('/console/incidents');
    expect(page.text).toContain('No alert address is set (ALERT_EMAIL, ALERT_SMS, ALERT_WEBHOOK_URL): incidents open, but nobody is told.');
    expect(page.text).toContain('No alert: no alert address was set');

    const admin = await anAdmin({ passwordHash: await hashPassword(PASSWORD) });
    const a = new Browser();
    await a.signIn(admin.email);
    expect((await a.get('/console/incidents')).status).toBe(403);
    expect((await a.get('/console')).text).not.toContain('href="/console/incidents"');
  });
});
