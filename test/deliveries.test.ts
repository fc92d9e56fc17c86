// Reaching people (issue 15, CONTRACT section 16): the transactional outbox written in the batch of
// the change, the DELIVERIES queue's consumer (send, retry with backoff, DEAD, idempotency, the
// dead-letter queue), the cron's sweep, the real e-mail adapter's exact message, the templates.
import { createExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { and, desc, eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deliveries, notificationPreferences, notifications, outboxMessages, reservations, users, type DeliveryRow, type Locale } from '../src/db/schema';
import { backoffSeconds, MAX_ATTEMPTS } from '../src/features/deliveries/consumer';
import { database as clientOf } from '../src/db/client';
import { runBatch } from '../src/db/statements';
import { enqueuePendingDeliveries, requeueStaleDeliveries, TRANSACTIONAL_TEMPLATES, transactionalMessage } from '../src/features/deliveries/outbox';
import { NOTIFICATION_TEMPLATES, renderEmail } from '../src/features/deliveries/templates';
import { openUnsubscribeToken, UNSUBSCRIBE_TTL_SECONDS, unsubscribeToken } from '../src/features/deliveries/unsubscribe-token';
import { NOTIFICATION_KINDS, notify } from '../src/features/deliveries/notify';
import { localeFromAcceptLanguage } from '../src/lib/locale';
import worker from '../src/index';
import { PASSWORD, lastMail, login, registerUser } from './helpers/auth';
import { db as database } from './helpers/db';
import { consume, emailBinding } from './helpers/deliveries';
import { aReservation, aUser } from './helpers/factories';
import { call, post } from './helpers/http';
import { depsOf } from '../src/env';
import { msg } from '../src/messages';

const db = database();

afterEach(() => {
  vi.restoreAllMocks();
});

/** A delivery row written straight into D1 (not enqueued: the test drives the consumer itself). */
async function aDelivery(overrides: Partial<typeof deliveries.$inferInsert> = {}): Promise<DeliveryRow> {
  const user = await aUser();
  const [row] = await db
    .insert(deliveries)
    .values({
      userId: user.id,
      channel: 'EMAIL',
      to: `to-${crypto.randomUUID().slice(0, 8)}@example.test`,
      template: 'EMAIL_VERIFICATION',
      locale: 'fr',
      payload: { firstName: 'Jeanne', path: '/verify-email?token=abc_DEF-123' },
      ...overrides,
    })
    .returning();
  return row;
}

const rowOf = async (id: number) => (await db.select().from(deliveries).where(eq(deliveries.id, id)))[0];

describe('the transactional outbox', () => {
  it('registration writes the verification e-mail in the locale of Accept-Language, QUEUED', async () => {
    const fr = await registerUser();
    const res = await post(
      '/v1/api/auth/register',
      { email: `en-${crypto.randomUUID().slice(0, 8)}@example.test`, password: PASSWORD, firstName: 'John', lastName: 'Smith' },
      { headers: { 'Accept-Language': 'en-GB,en;q=0.9,fr;q=0.5' } },
    );
    expect(res.status).toBe(201);
    const rows = await db
      .select({ to: deliveries.to, template: deliveries.template, locale: deliveries.locale, channel: deliveries.channel, userId: deliveries.userId })
      .from(deliveries)
      .where(and(eq(deliveries.template, 'EMAIL_VERIFICATION')));
    expect(rows).toContainEqual({ to: fr.email, template: 'EMAIL_VERIFICATION', locale: 'fr', channel: 'EMAIL', userId: fr.id });
    expect(rows).toContainEqual({ to: res.body.user.email, template: 'EMAIL_VERIFICATION', locale: 'en', channel: 'EMAIL', userId: res.body.user.id });
    const [user] = await db.select({ locale: users.locale }).from(users).where(eq(users.id, res.body.user.id));
    expect(user.locale).toBe('en');
  });

  it('a state change writes its notification e-mail in the same batch: the sender learns the carrier accepted', async () => {
    const { reservation, carrier, sender } = await aReservation({ status: 'PAID' });
    await db.update(users).set({ locale: 'en' }).where(eq(users.id, sender.id));
    const res = await post(`/v1/api/bookings/${reservation.id}/accept`, undefined, { token: carrier.token });
    expect(res.status).toBe(200);
    const [row] = await db.select().from(deliveries).where(and(eq(deliveries.userId, sender.id), eq(deliveries.template, 'RESERVATION_CONFIRMED')));
    expect(row).toMatchObject({ channel: 'EMAIL', to: sender.email, locale: 'en', status: 'QUEUED', attempts: 0 });
    expect(row.payload).toMatchObject({ title: 'Booking accepted', data: { reservationId: reservation.id } });
  });

  it('an e-mail whose notification names the reservation by id names it by its number', async () => {
    const { reservation } = await aReservation({ status: 'DELIVERED' });
    const payload = { title: 'Parcel delivered', message: 'Delivered', data: { reservationId: reservation.id } };
    const row = await aDelivery({ template: 'RESERVATION_DELIVERED', locale: 'fr', payload });
    await consume(row.id);
    const [message] = await db.select().from(outboxMessages).where(eq(outboxMessages.deliveryId, row.id));
    expect(message.text).toContain(`Le colis de la réservation ${reservation.reservationNumber} a été livré à son destinataire.`);
    expect((await rowOf(row.id)).payload).toEqual(payload);
  });

  it('a batch that fails writes neither the notification nor its e-mail', async () => {
    const user = await aUser();
    const before = await db.select().from(deliveries).where(eq(deliveries.userId, user.id));
    await expect(
      db.batch([
        ...notify(db, { userId: user.id, type: 'KYC_APPROVED', text: msg('notice.kycApproved') }),
        // The same e-mail as an existing account: the batch's last statement fails, all roll back.
        db.insert(users).values({ email: user.email, firstName: 'A', lastName: 'B' }),
      ] as never),
    ).rejects.toThrow();
    expect(await db.select().from(deliveries).where(eq(deliveries.userId, user.id))).toEqual(before);
    expect(await db.select().from(notifications).where(eq(notifications.userId, user.id))).toEqual([]);
  });

  it('a deleted account gets no e-mail for its notification', async () => {
    const user = await aUser();
    await db.update(users).set({ deletedAt: new Date().toISOString() }).where(eq(users.id, user.id));
    await db.batch(notify(db, { userId: user.id, type: 'KYC_REVOKED', text: msg('notice.kycApproved') }) as never);
    expect(await db.select().from(deliveries).where(eq(deliveries.userId, user.id))).toEqual([]);
  });

  it('the queue under the test runtime delivers a committed row: the verification e-mail reaches the outbox', async () => {
    const reg = await registerUser();
    let sent: DeliveryRow | undefined;
    for (let i = 0; i < 100 && sent?.status !== 'SENT'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      [sent] = await db.select().from(deliveries).where(eq(deliveries.to, reg.email));
    }
    expect(sent).toMatchObject({ status: 'SENT', attempts: 1, lastError: null });
    const [message] = await db.select().from(outboxMessages).where(eq(outboxMessages.deliveryId, sent!.id));
    expect(sent!.providerMessageId).toBe(`sandbox-${message.id}`);
    expect(message).toMatchObject({ channel: 'EMAIL', to: reg.email, template: 'EMAIL_VERIFICATION', locale: 'fr', subject: 'Confirmez votre adresse e-mail' });
    expect(message.links).toEqual([expect.stringMatching(new RegExp(`^${env.PUBLIC_BASE_URL}/verify-email\\?token=[A-Za-z0-9_-]{43}$`))]);
  });
});

describe('the queue consumer', () => {
  it('sends through the sandbox and marks the row SENT with the provider message id', async () => {
    const row = await aDelivery();
    const { acked, retries } = await consume(row.id);
    expect({ acked, retries }).toEqual({ acked: true, retries: [] });
    const after = await rowOf(row.id);
    const [message] = await db.select().from(outboxMessages).where(eq(outboxMessages.deliveryId, row.id));
    expect(after).toMatchObject({ status: 'SENT', attempts: 1, lastError: null, providerMessageId: `sandbox-${message.id}` });
    expect(Date.parse(after.sentAt!)).not.toBeNaN();
    expect(message.text).toContain(`${env.PUBLIC_BASE_URL}/verify-email?token=abc_DEF-123`);
  });

  it('a provider failure is retried with exponential backoff, then lands DEAD with the provider reason', async () => {
    const row = await aDelivery();
    const { binding, env: failing } = emailBinding(() => {
      throw new Error('E_DELIVERY_FAILED: upstream mail server unavailable');
    });
    const delays: (number | undefined)[] = [];
    for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt++) {
      const { acked, retries } = await consume(row.id, { variant: failing });
      expect(acked).toBe(false);
      delays.push(retries[0]?.delaySeconds);
      expect(await rowOf(row.id)).toMatchObject({ status: 'QUEUED', attempts: attempt, lastError: 'E_DELIVERY_FAILED: upstream mail server unavailable' });
    }
    expect(delays).toEqual([30, 60, 120, 240]);
    const last = await consume(row.id, { variant: failing });
    expect(last).toMatchObject({ acked: true, retries: [] });
    expect(await rowOf(row.id)).toMatchObject({ status: 'DEAD', attempts: MAX_ATTEMPTS, lastError: 'E_DELIVERY_FAILED: upstream mail server unavailable', providerMessageId: null });
    expect(binding.send).toHaveBeenCalledTimes(MAX_ATTEMPTS);
    // A DEAD row is not tried again by a stray copy of the message.
    await consume(row.id, { variant: failing });
    expect(binding.send).toHaveBeenCalledTimes(MAX_ATTEMPTS);
    expect(backoffSeconds(20)).toBe(3600);
  });

  it('is idempotent on the delivery id: a redelivered message is not sent twice', async () => {
    const row = await aDelivery();
    const { binding, env: live } = emailBinding();
    expect((await consume(row.id, { variant: live })).acked).toBe(true);
    expect((await consume(row.id, { variant: live })).acked).toBe(true);
    expect((await consume(row.id, { variant: live, msgId: 'same' })).acked).toBe(true);
    expect(binding.send).toHaveBeenCalledTimes(1);
    expect(await rowOf(row.id)).toMatchObject({ status: 'SENT', attempts: 1, providerMessageId: '<cf-1@example.com>' });
  });

  it('a template that does not exist is FAILED at once, not retried', async () => {
    const row = await aDelivery({ template: 'NO_SUCH_TEMPLATE' });
    expect(await consume(row.id)).toMatchObject({ acked: true, retries: [] });
    expect(await rowOf(row.id)).toMatchObject({ status: 'FAILED', attempts: 1, lastError: 'No template named NO_SUCH_TEMPLATE' });
  });

  it('a message that reaches the dead-letter queue marks its row DEAD', async () => {
    const row = await aDelivery();
    expect((await consume(row.id, { queue: 'deliveries-dlq' })).acked).toBe(true);
    expect(await rowOf(row.id)).toMatchObject({ status: 'DEAD', attempts: 0, lastError: 'The delivery queue gave up on this message (dead-letter queue)' });
  });
});

describe('the outbox unit of work', () => {
  /** A client of its own, as each request or cron run has. */
  const freshDb = () => clientOf(env.DB);
  const queueStub = () => {
    const queued: number[] = [];
    const stub = { sendBatch: async (messages: { body: { id: number } }[]) => void queued.push(...messages.map((m) => m.body.id)) };
    return { queued, env: { ...env, DELIVERIES: stub } as unknown as typeof env };
  };
  const message = (to: string) => transactionalMessage(freshDb(), { to, template: 'PASSWORD_CHANGED', locale: 'fr', payload: { firstName: 'Jeanne' } });

  it("keeps a committed batch's rows in the client that ran it (not in another request's), and sends them once", async () => {
    const mine = freshDb();
    const other = freshDb();
    const queue = queueStub();
    const [[written]] = (await runBatch(mine, [message(`uow-${crypto.randomUUID().slice(0, 8)}@example.test`)])) as { id: number }[][];
    expect([...mine.$work.deliveries]).toEqual([written.id]);
    expect(other.$work.deliveries.size).toBe(0);
    await enqueuePendingDeliveries({ db: other, env: queue.env });
    expect(queue.queued).toEqual([]);
    await enqueuePendingDeliveries({ db: mine, env: queue.env });
    await enqueuePendingDeliveries({ db: mine, env: queue.env });
    expect(queue.queued).toEqual([written.id]);
  });

  it('keeps nothing of a batch that failed', async () => {
    const mine = freshDb();
    const taken = await aUser();
    const failing = runBatch(mine, [message(`uow-${crypto.randomUUID().slice(0, 8)}@example.test`), mine.insert(users).values({ id: taken.id, email: taken.email, firstName: 'A', lastName: 'B' })]);
    await expect(failing).rejects.toThrow();
    expect(mine.$work.deliveries.size).toBe(0);
  });
});

describe('the cron sweep', () => {
  it('re-enqueues rows left QUEUED for more than 5 minutes, and only those', async () => {
    const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();
    const stale = await aDelivery({ createdAt: minutesAgo(6) });
    const fresh = await aDelivery({ createdAt: minutesAgo(1) });
    const retrying = await aDelivery({ createdAt: minutesAgo(10), attempts: 2 });
    const lost = await aDelivery({ createdAt: minutesAgo(180), attempts: 2 });
    const sent = await aDelivery({ createdAt: minutesAgo(30), status: 'SENT' });
    const queued: number[] = [];
    const variant = { ...env, DELIVERIES: { sendBatch: async (messages: { body: { id: number } }[]) => void queued.push(...messages.map((m) => m.body.id)) } } as unknown as typeof env;
    await requeueStaleDeliveries(depsOf(variant, db));
    expect(queued).toContain(stale.id);
    expect(queued).toContain(lost.id);
    for (const id of [fresh.id, retrying.id, sent.id]) expect(queued).not.toContain(id);
  });

  it('is a job of the cron', async () => {
    const { SCHEDULED_JOBS } = await import('../src/scheduled');
    expect(Object.keys(SCHEDULED_JOBS)).toContain('requeueStaleDeliveries');
  });
});

describe('the real e-mail adapter (Cloudflare Email Service, send_email binding)', () => {
  it('sends a notification with both parts, absolute links and the RFC 8058 one-click unsubscribe headers', async () => {
    const user = await aUser();
    const row = await aDelivery({
      userId: user.id,
      to: user.email,
      template: 'RESERVATION_CONFIRMED',
      locale: 'en',
      payload: { title: 'Booking accepted', message: 'The carrier accepted your booking R-2026-0001', data: { reservationId: 7 } },
    });
    const { sent, env: live } = emailBinding();
    expect((await consume(row.id, { variant: live })).acked).toBe(true);
    expect(sent).toHaveLength(1);
    const message = sent[0];
    const unsubscribe = message.headers['List-Unsubscribe'] as string;
    expect(message).toEqual({
      from: 'no-reply@example.com',
      to: user.email,
      subject: 'Booking accepted',
      text: [
        'Hello,',
        '',
        'The carrier accepted your booking R-2026-0001',
        '',
        'Open the app to see the details.',
        '',
        `View in the app: ${env.PUBLIC_BASE_URL}/app/bookings/7`,
        '',
        'You receive this email to follow your activity on the platform; you can turn it off in your preferences.',
        `Stop receiving this kind of email: ${env.PUBLIC_BASE_URL}/unsubscribe?token=${unsubscribe.match(/token=([^>]+)>/)?.[1]}`,
        '',
        '— The Parcel Marketplace team',
      ].join('\n'),
      html: expect.stringContaining('<p>The carrier accepted your booking R-2026-0001</p>'),
      headers: {
        'List-Unsubscribe': expect.stringMatching(new RegExp(`^<${env.PUBLIC_BASE_URL}/v1/api/unsubscribe\\?token=[A-Za-z0-9_.-]+>$`)),
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
        'X-Delivery-Id': String(row.id),
      },
    });
    const token = unsubscribe.match(/token=([^>]+)>/)![1];
    expect(await openUnsubscribeToken(env, token)).toEqual({
      ok: true,
      claims: { purpose: 'unsubscribe', userId: user.id, kind: 'RESERVATION_CONFIRMED', exp: expect.any(Number) },
    });
    expect(await openUnsubscribeToken(env, `${token}x`)).toEqual({ ok: false, reason: 'FORGED' });
    expect(await rowOf(row.id)).toMatchObject({ status: 'SENT', providerMessageId: '<cf-1@example.com>' });
  });

  it('a notification e-mail carries the item link and a visible unsubscribe link, both in the outbox links[]; a security message no unsubscribe link (CONTRACT section 19)', async () => {
    const user = await aUser();
    const notice = await aDelivery({
      userId: user.id,
      to: user.email,
      template: 'DISPUTE_OPENED',
      locale: 'fr',
      payload: { title: 'Dispute opened', message: 'A dispute was opened', data: { disputeId: 12, reservationId: 7 } },
    });
    const security = await aDelivery({ userId: user.id, to: user.email, template: 'PASSWORD_RESET', payload: { firstName: 'A', path: '/reset-password?token=sec1' } });
    await consume(notice.id);
    await consume(security.id);
    const [mail] = await db.select().from(outboxMessages).where(eq(outboxMessages.deliveryId, notice.id));
    expect(mail.links).toEqual([`${env.PUBLIC_BASE_URL}/app/disputes/12`, expect.stringMatching(new RegExp(`^${env.PUBLIC_BASE_URL}/unsubscribe\\?token=[A-Za-z0-9_.-]+$`))]);
    expect(mail.text).toContain(`Voir dans l'application: ${env.PUBLIC_BASE_URL}/app/disputes/12`);
    expect(mail.html).toContain(`<a href="${env.PUBLIC_BASE_URL}/app/disputes/12"`);
    expect(mail.html).toContain(`<a href="${mail.links[1]}" style="color:#555">Ne plus recevoir ce type d’e-mail</a>`);
    const [reset] = await db.select().from(outboxMessages).where(eq(outboxMessages.deliveryId, security.id));
    expect(reset.links).toEqual([`${env.PUBLIC_BASE_URL}/reset-password?token=sec1`]);
    expect(reset.text).not.toContain('/unsubscribe');

    // The visible link asks first (a link checker's GET changes nothing), the button turns that kind off.
    const page = new URL(mail.links[1]);
    const asked = await call('GET', `${page.pathname}${page.search}`, { headers: { 'Accept-Language': 'fr-FR,fr;q=0.9' } });
    expect(asked.status).toBe(200);
    expect(asked.body).toContain('Ne plus recevoir d’e-mails « Litige ouvert » ?');
    expect(await db.select().from(notificationPreferences).where(eq(notificationPreferences.userId, user.id))).toEqual([]);
    const done = await call('POST', `${page.pathname}${page.search}`);
    expect(done.status).toBe(200);
    expect(done.body).toContain('C’est fait');
    expect(await db.select().from(notificationPreferences).where(eq(notificationPreferences.userId, user.id))).toEqual([
      expect.objectContaining({ kind: 'DISPUTE_OPENED', email: false, push: true }),
    ]);
    expect((await call('GET', '/unsubscribe?token=forged.token')).status).toBe(400);

    // The item link's web fallback page, for a browser without the app.
    const fallback = await call('GET', '/app/disputes/12', { headers: { 'Accept-Language': 'fr' } });
    expect(fallback.status).toBe(200);
    expect(fallback.body).toContain('Votre litige · 12');
    expect(fallback.body).toContain('Installez-la depuis l&#39;App Store ou Google Play');
    expect((await call('GET', '/app/bookings', { headers: { 'Accept-Language': 'en' } })).body).toContain('Your booking');
    expect((await call('GET', '/app/nothing/1')).status).toBe(404);
  });

  it('a security message carries no unsubscribe header, its link is absolute and its HTML escapes values', async () => {
    const row = await aDelivery({ template: 'PASSWORD_RESET', locale: 'en', payload: { firstName: '<b>Jo</b>', path: '/reset-password?token=tok_1' } });
    const { sent, env: live } = emailBinding();
    await consume(row.id, { variant: live });
    expect(sent[0].headers).toEqual({ 'X-Delivery-Id': String(row.id) });
    expect(sent[0].subject).toBe('Reset your password');
    expect(sent[0].text).toContain(`Choose a new password: ${env.PUBLIC_BASE_URL}/reset-password?token=tok_1`);
    expect(sent[0].html).toContain(`<a href="${env.PUBLIC_BASE_URL}/reset-password?token=tok_1"`);
    expect(sent[0].html).toContain('Hello &lt;b&gt;Jo&lt;/b&gt;,');
    expect(sent[0].html).not.toContain('<b>Jo</b>');
  });
});

describe('templates', () => {
  const locales: Locale[] = ['fr', 'en'];
  const payloads: Record<string, Record<string, unknown>> = {
    EMAIL_VERIFICATION: { firstName: 'Jeanne', path: '/verify-email?token=t1' },
    PASSWORD_RESET: { firstName: 'Jeanne', path: '/reset-password?token=t2' },
    PASSWORD_CHANGED: { firstName: 'Jeanne' },
    RECIPIENT_LINK: { recipientName: 'Paul', senderName: 'Jeanne', reservationNumber: 'R-1', path: '/r/abc', step: 'CONFIRMED' },
    DATA_EXPORT_READY: { firstName: 'Jeanne', path: '/v1/api/user/me/exports/1', expiresOn: '2026-12-04' },
    PHONE_VERIFICATION: { code: '482913' },
    AGENCY_INVITATION_SIGN_UP: { agencyName: 'Sahel Express', email: 'fatou@example.sn', expiresOn: '2026-12-21' },
    INCIDENT_OPENED: { incidentId: 3, rule: 'PAYOUTS_FAILED', subject: '', severity: 'PAGE', title: 'Payout failures', summary: '1 payouts refused', openedAt: '2026-12-07T04:40:00.000Z', resolvedAt: null },
    INCIDENT_RESOLVED: { incidentId: 3, rule: 'PAYOUTS_FAILED', subject: '', severity: 'PAGE', title: 'Payout failures', summary: '1 payouts refused', openedAt: '2026-12-07T04:40:00.000Z', resolvedAt: '2026-12-07T05:45:00.000Z' },
  };
  const cases = [
    ...TRANSACTIONAL_TEMPLATES.map((t) => [t, payloads[t]] as const),
    ...NOTIFICATION_KINDS.map((k) => [k, { title: 'Title', message: `Message of ${k}`, data: { reservationId: 1, reservationNumber: 'R-9' } }] as const),
  ].flatMap(([template, payload]) => locales.map((locale) => [template, locale, payload] as const));

  it('every notification kind has a template', () => {
    expect(Object.keys(NOTIFICATION_TEMPLATES).sort()).toEqual([...NOTIFICATION_KINDS].sort());
  });

  it.each(cases)('%s in %s renders a subject, both parts, absolute links and no placeholder', (template, locale, payload) => {
    const rendered = renderEmail(env, { template, locale, payload });
    expect(rendered.subject.length).toBeGreaterThan(3);
    for (const part of [rendered.subject, rendered.text, rendered.html]) {
      expect(part).not.toMatch(/\{\w*\}|undefined|null|NaN|\[object/);
    }
    expect(rendered.html).toMatch(/^<!doctype html>/);
    for (const link of rendered.links) {
      expect(link.startsWith(`${env.PUBLIC_BASE_URL}/`)).toBe(true);
      expect(rendered.text).toContain(link);
    }
  });

  it('the languages differ and the French one is the default of a new account', () => {
    const fr = renderEmail(env, { template: 'EMAIL_VERIFICATION', locale: 'fr', payload: payloads.EMAIL_VERIFICATION });
    const en = renderEmail(env, { template: 'EMAIL_VERIFICATION', locale: 'en', payload: payloads.EMAIL_VERIFICATION });
    expect([fr.subject, en.subject]).toEqual(['Confirmez votre adresse e-mail', 'Confirm your email address']);
    expect(fr.links).toEqual([`${env.PUBLIC_BASE_URL}/verify-email?token=t1`]);
  });

  it.each([
    [undefined, 'fr'],
    ['', 'fr'],
    ['en-US,en;q=0.9', 'en'],
    ['de-DE,en;q=0.5,fr;q=0.8', 'fr'],
    ['de,en;q=0.3', 'en'],
    ['es', 'fr'],
    ['fr;q=0,en', 'en'],
  ])('Accept-Language %j is %s', (header, locale) => {
    expect(localeFromAcceptLanguage(header)).toBe(locale);
  });
});

describe('the transactional writer', () => {
  it('writes one QUEUED e-mail row for the batch', async () => {
    const to = `tx-${crypto.randomUUID().slice(0, 8)}@example.test`;
    await db.batch([transactionalMessage(db, { to, template: 'PASSWORD_CHANGED', locale: 'fr', payload: { firstName: 'A' } })] as never);
    const rows = await db.select().from(deliveries).where(eq(deliveries.to, to)).orderBy(desc(deliveries.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ userId: null, channel: 'EMAIL', template: 'PASSWORD_CHANGED', status: 'QUEUED', attempts: 0 });
  });
});

describe('every link opens something', () => {
  it('the verification link confirms the address and says so, in the reader’s language; a spent link says it is not valid', async () => {
    const reg = await registerUser();
    const { token } = await lastMail(reg.email, 'EMAIL_VERIFICATION');
    const res = await call('GET', `/verify-email?token=${token}`, { headers: { 'Accept-Language': 'fr-FR,fr;q=0.9' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toMatch(/^text\/html/);
    expect(res.headers.get('Content-Security-Policy')).toContain("script-src 'none'");
    expect(res.body).toContain('Adresse e-mail confirmée');
    const [row] = await db.select({ emailVerified: users.emailVerified }).from(users).where(eq(users.id, reg.id));
    expect(row.emailVerified).toBe(true);
    const again = await call('GET', `/verify-email?token=${token}`, { headers: { 'Accept-Language': 'en' } });
    expect(again.status).toBe(400);
    expect(again.body).toContain('This confirmation link is invalid, expired or already used');
    expect((await call('GET', '/verify-email')).status).toBe(400);
    expect((await call('GET', `/verify-email?token=${'x'.repeat(500)}`)).status).toBe(400);
  });

  it('the reset link shows the form with the rules; a short password is refused next to its field; a good one is set', async () => {
    const reg = await registerUser();
    await post('/v1/api/auth/password/forgot', { email: reg.email });
    const { token } = await lastMail(reg.email, 'PASSWORD_RESET');
    const form = await call('GET', `/reset-password?token=${token}`, { headers: { 'Accept-Language': 'en' } });
    expect(form.status).toBe(200);
    expect(form.body).toContain('<form method="post" action="/reset-password"');
    expect(form.body).toContain('Between 10 and 128 characters, not one of the most common passwords.');
    expect(form.body).toContain(`name="token" value="${token}"`);
    const submit = (password: string) =>
      call('POST', '/reset-password', {
        raw: new URLSearchParams({ token, password }).toString(),
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Accept-Language': 'en' },
      });
    const short = await submit('short');
    expect(short.status).toBe(400);
    expect(short.body).toMatch(/<p id="password-error" class="error" role="alert">The password must have at least 10 characters.<\/p>/);
    const common = await submit('Password1234');
    expect(common.status).toBe(400);
    expect(common.body).toContain('This password is among the most common passwords: choose another.');
    expect((await login(reg.email, PASSWORD)).status).toBe(200); // nothing changed
    const done = await submit('A-new-password-9');
    expect(done.status).toBe(200);
    expect(done.body).toContain('Password changed');
    expect((await login(reg.email, 'A-new-password-9')).status).toBe(200);
    expect((await submit('Another-password-9')).status).toBe(400); // the link is spent
    // The security notice of the change is in the outbox, in the account's language.
    expect(await lastMail(reg.email, 'PASSWORD_CHANGED').catch(() => null)).toBeNull(); // it carries no token
    const [notice] = await db.select().from(deliveries).where(and(eq(deliveries.to, reg.email), eq(deliveries.template, 'PASSWORD_CHANGED')));
    expect(notice).toMatchObject({ locale: 'fr', status: expect.stringMatching(/QUEUED|SENT/) });
  });

  it('serves the universal-link and app-link files from configuration', async () => {
    const apple = await call('GET', '/.well-known/apple-app-site-association');
    expect(apple.status).toBe(200);
    expect(apple.body).toEqual({
      applinks: { details: [{ appIDs: [env.APPLE_APP_IDS], components: [{ '/': '/verify-email' }, { '/': '/reset-password' }, { '/': '/r/*' }, { '/': '/app/*' }] }] },
    });
    const android = await call('GET', '/.well-known/assetlinks.json');
    expect(android.status).toBe(200);
    expect(android.body).toEqual([
      {
        relation: ['delegate_permission/common.handle_all_urls'],
        target: { namespace: 'android_app', package_name: env.ANDROID_APP_PACKAGE, sha256_cert_fingerprints: [env.ANDROID_CERT_FINGERPRINTS] },
      },
    ]);
  });
});

describe('the development outbox', () => {
  const DEV = { ...env, ENVIRONMENT: 'development' } as typeof env;
  async function fetchAs(variant: typeof env, path: string) {
    const ctx = createExecutionContext();
    const res = await worker.fetch(new Request(`http://api.test${path}`), variant, ctx);
    const text = await res.text();
    return { status: res.status, text, json: res.headers.get('Content-Type')?.includes('json') ? JSON.parse(text) : undefined };
  }

  it('lists what the sandbox sent, newest first, filtered by address and channel, with the contract fields', async () => {
    const first = await aDelivery({ template: 'PASSWORD_RESET', payload: { firstName: 'A', path: '/reset-password?token=r1' } });
    const second = await aDelivery({ to: first.to, payload: { firstName: 'A', path: '/verify-email?token=v1' } });
    await consume(first.id);
    await consume(second.id);
    const res = await fetchAs(DEV, `/v1/api/dev/outbox?to=${encodeURIComponent(first.to)}&channel=EMAIL`);
    expect(res.status).toBe(200);
    expect(res.json.page).toEqual({ number: 0, size: 20, totalElements: 2, totalPages: 1 });
    expect(res.json.content.map((m: { template: string }) => m.template)).toEqual(['EMAIL_VERIFICATION', 'PASSWORD_RESET']);
    expect(Object.keys(res.json.content[0]).sort()).toEqual(['channel', 'createdAt', 'id', 'links', 'locale', 'subject', 'template', 'text', 'to']);
    expect(res.json.content[0]).toMatchObject({ channel: 'EMAIL', to: first.to, locale: 'fr', subject: 'Confirmez votre adresse e-mail', links: [`${env.PUBLIC_BASE_URL}/verify-email?token=v1`] });
    expect((await fetchAs(DEV, `/v1/api/dev/outbox?to=${encodeURIComponent(first.to)}&channel=SMS`)).json.content).toEqual([]);
    expect((await fetchAs(DEV, '/v1/api/dev/outbox?channel=FAX')).status).toBe(400);
  });

  it('the page shows each message with its links to click', async () => {
    const row = await aDelivery({ payload: { firstName: 'A', path: '/verify-email?token=page1' } });
    await consume(row.id);
    const res = await fetchAs(DEV, `/dev/outbox?to=${encodeURIComponent(row.to)}`);
    expect(res.status).toBe(200);
    expect(res.text).toContain(`<a class="link" href="${env.PUBLIC_BASE_URL}/verify-email?token=page1">`);
    expect(res.text).toContain('Confirmez votre adresse e-mail');
  });

  it('answers 404 ENDPOINT_NOT_FOUND outside development, whatever the query (the guard runs before validation)', async () => {
    for (const path of ['/v1/api/dev/outbox', '/dev/outbox']) {
      for (const query of ['', '?channel=FAX', '?size=0&page=-1', `?to=${'x'.repeat(400)}`, '?sort=password,asc']) {
        const res = await call('GET', `${path}${query}`);
        expect([query, res.status]).toEqual([query, 404]);
        expect(res.body).toEqual({
          timestamp: expect.any(String),
          status: 404,
          errorCode: 'ENDPOINT_NOT_FOUND',
          message: `No endpoint GET ${path}`,
          path,
          suggestions: ['See the API reference for the paths this service answers'],
        });
      }
    }
    expect((await call('POST', '/v1/api/dev/seed')).status).toBe(404);
  });
});

describe('the recipient', () => {
  const recipientMails = (reservationNumber: string) =>
    db
      .select()
      .from(deliveries)
      .where(and(eq(deliveries.template, 'RECIPIENT_LINK'), eq(deliveries.channel, 'EMAIL'), sql`json_extract(${deliveries.payload}, '$.reservationNumber') = ${reservationNumber}`))
      .orderBy(deliveries.id);

  it('gets the public page link by e-mail when the reservation is confirmed, then again at deposit, in the sender’s locale', async () => {
    const { reservation, carrier, sender, trip } = await aReservation({
      status: 'PAID',
      set: { recipient: { firstName: 'Rita', lastName: 'Recipient', email: ' Rita.R@Example.com ' } },
    });
    await db.update(users).set({ locale: 'en' }).where(eq(users.id, sender.id));
    // A country where neither language is local: the sender's locale stands (recipient.ts).
    await db.update(reservations).set({ arrivalCountry: 'DE' }).where(eq(reservations.id, reservation.id));
    expect(trip.id).toBe(reservation.announcementId);
    expect((await post(`/v1/api/bookings/${reservation.id}/accept`, undefined, { token: carrier.token })).status).toBe(200);
    const [confirmed] = await recipientMails(reservation.reservationNumber);
    const [senderRow] = await db.select({ firstName: users.firstName }).from(users).where(eq(users.id, sender.id));
    expect(confirmed).toMatchObject({
      userId: null,
      channel: 'EMAIL',
      to: 'rita.r@example.com',
      locale: 'en',
      payload: { recipientName: 'Rita', senderName: senderRow.firstName, reservationNumber: reservation.reservationNumber, path: `/r/${reservation.recipientToken}`, step: 'CONFIRMED' },
    });
    const rendered = renderEmail(env, confirmed);
    expect(rendered.subject).toBe(`A parcel ${reservation.reservationNumber} is coming to you`);
    expect(rendered.links).toEqual([`${env.PUBLIC_BASE_URL}/r/${reservation.recipientToken}`]);

    const qr = await call('GET', `/v1/api/bookings/${reservation.id}/qrcode/deposit`, { token: sender.token });
    expect((await post('/v1/api/qrcode/process/depot', { payload: qr.body.payload }, { token: carrier.token })).status).toBe(200);
    const mails = await recipientMails(reservation.reservationNumber);
    expect(mails.map((m) => (m.payload as { step: string }).step)).toEqual(['CONFIRMED', 'DEPOSITED']);
    expect(renderEmail(env, mails[1]).subject).toBe(`Your parcel ${reservation.reservationNumber} is on its way`);
  });

  it('without an e-mail address, gets no e-mail; a refused transition writes none', async () => {
    const { reservation, carrier } = await aReservation({ status: 'PAID', set: { recipient: { firstName: 'Awa', lastName: 'Diop', phone: '+221 77 123 45 67' } } });
    expect((await post(`/v1/api/bookings/${reservation.id}/accept`, undefined, { token: carrier.token })).status).toBe(200);
    expect(await recipientMails(reservation.reservationNumber)).toEqual([]);
    const other = await aReservation({ status: 'PENDING_PAYMENT', set: { recipient: { firstName: 'R', lastName: 'R', email: 'r@example.com' } } });
    expect((await post(`/v1/api/bookings/${other.reservation.id}/accept`, undefined, { token: other.carrier.token })).status).toBe(409);
    expect(await recipientMails(other.reservation.reservationNumber)).toEqual([]);
  });
});

describe('the locale in the profile', () => {
  it('PUT /user/me changes the language of the messages; an unsupported one is a 400 and changes nothing', async () => {
    const user = await aUser();
    const localeOf = async () => (await db.select({ locale: users.locale }).from(users).where(eq(users.id, user.id)))[0].locale;
    expect(await localeOf()).toBe('fr');
    expect((await call('PUT', '/v1/api/user/me', { body: { locale: 'en' }, token: user.token })).status).toBe(200);
    expect(await localeOf()).toBe('en');
    const bad = await call('PUT', '/v1/api/user/me', { body: { locale: 'de' }, token: user.token });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ errorCode: 'VALIDATION_ERROR', fieldErrors: [expect.objectContaining({ field: 'locale' })] });
    expect(await localeOf()).toBe('en');
  });
});

describe('one-click unsubscribe (RFC 8058)', () => {
  it('the List-Unsubscribe URL turns that kind of e-mail off; the notification stays, other kinds and security messages still go', async () => {
    const user = await aUser();
    const row = await aDelivery({ userId: user.id, to: user.email, template: 'RESERVATION_CONFIRMED', locale: 'en', payload: { title: 't', message: 'm', data: null } });
    const { sent, env: live } = emailBinding();
    await consume(row.id, { variant: live });
    const url = new URL((sent[0].headers['List-Unsubscribe'] as string).slice(1, -1));
    const res = await call('POST', `${url.pathname}${url.search}`, { raw: 'List-Unsubscribe=One-Click', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    expect(res.status).toBe(200);
    // The mail client names no language: the account's own (French, the default), else the one it names.
    expect(res.body).toEqual({ message: 'Vous ne recevrez plus ce type d’e-mail', kind: 'RESERVATION_CONFIRMED' });
    expect(res.headers.get('Content-Language')).toBe('fr');
    await db.update(users).set({ locale: 'en' }).where(eq(users.id, user.id));
    const again = await call('POST', `${url.pathname}${url.search}`, { raw: 'List-Unsubscribe=One-Click', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    expect(again.body).toEqual({ message: 'You will no longer receive this kind of e-mail', kind: 'RESERVATION_CONFIRMED' });
    await db.update(users).set({ locale: 'fr' }).where(eq(users.id, user.id));
    const english = await call('POST', `${url.pathname}${url.search}`, { raw: 'List-Unsubscribe=One-Click', headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Accept-Language': 'en' } });
    expect(english.body.message).toBe('You will no longer receive this kind of e-mail');
    const mailsOf = async (template: string) => db.select().from(deliveries).where(and(eq(deliveries.userId, user.id), eq(deliveries.template, template)));
    await db.batch([
      ...notify(db, { userId: user.id, type: 'RESERVATION_CONFIRMED', text: msg('notice.kycApproved') }),
      ...notify(db, { userId: user.id, type: 'KYC_APPROVED', text: msg('notice.kycApproved') }),
      transactionalMessage(db, { userId: user.id, to: user.email, template: 'PASSWORD_CHANGED', locale: 'fr', payload: { firstName: 'A' } }),
    ] as never);
    expect(await mailsOf('RESERVATION_CONFIRMED')).toHaveLength(1); // only the one sent before
    expect(await mailsOf('KYC_APPROVED')).toHaveLength(1);
    expect(await mailsOf('PASSWORD_CHANGED')).toHaveLength(1);
    expect(await db.select().from(notifications).where(and(eq(notifications.userId, user.id), eq(notifications.type, 'RESERVATION_CONFIRMED')))).toHaveLength(1);
  });

  it('an expired link is 400 INVALID_ARGUMENT naming the expiry, in French too, and changes nothing', async () => {
    const user = await aUser();
    const issued = Date.now() - (UNSUBSCRIBE_TTL_SECONDS + 60) * 1000;
    const token = await unsubscribeToken(env, user.id, 'RESERVATION_CONFIRMED', issued);
    const res = await call('POST', `/v1/api/unsubscribe?token=${token}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 400, errorCode: 'INVALID_ARGUMENT', fieldErrors: [{ field: 'token', message: 'expired', rejectedValue: '[redacted]' }] });
    const fr = await call('POST', `/v1/api/unsubscribe?token=${token}`, { headers: { 'Accept-Language': 'fr' } });
    expect(fr.body).toMatchObject({ message: 'Le lien de désabonnement est invalide', fieldErrors: [{ field: 'token', message: 'expiré' }] });
    expect(await db.select().from(notificationPreferences).where(eq(notificationPreferences.userId, user.id))).toEqual([]);
  });

  it('a forged token is 400 INVALID_ARGUMENT and changes nothing', async () => {
    const res = await call('POST', '/v1/api/unsubscribe?token=eyJmb3JnZWQiOnRydWV9.AAAA');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 400, errorCode: 'INVALID_ARGUMENT', fieldErrors: [{ field: 'token', message: 'invalid or forged', rejectedValue: '[redacted]' }] });
    expect((await call('POST', '/v1/api/unsubscribe')).status).toBe(400);
    const long = await call('POST', `/v1/api/unsubscribe?token=${'a'.repeat(1001)}`);
    expect([long.status, long.body.errorCode, long.body.fieldErrors.map((e: { field: string }) => e.field)]).toEqual([400, 'VALIDATION_ERROR', ['token']]);
  });
});
