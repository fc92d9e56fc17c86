// Reaching people on every channel (issue 15, CONTRACT section 16): notify() writes the e-mail,
// the push and the SMS of a notification under the user's preferences; the consumer sends push to
// every device through FCM (UNREGISTERED deletes the device) and SMS through Twilio, against fakes
// of their HTTP APIs, FAILED on a refusal and retried on an outage; the sandboxes record to the
// development outbox; the preferences endpoints; the recipient's SMS and its language; the receipt
// PDF attached to the payment confirmation.
import { createExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { and, eq, sql } from 'drizzle-orm';
import { exportPKCS8, generateKeyPair } from 'jose';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { deliveries, devices, notificationPreferences, outboxMessages, reservations, users, type DeliveryRow } from '../src/db/schema';
import { ENGLISH_COUNTRIES, FRENCH_COUNTRIES, recipientLinkMessages } from '../src/features/deliveries/recipient';
import { renderSms } from '../src/features/deliveries/templates';
import { NOTIFICATION_KINDS, notify } from '../src/features/deliveries/notify';
import worker from '../src/index';
import { depsOf } from '../src/env';
import { captureLoaded } from '../src/features/money';
import { db as database, reservationRow } from './helpers/db';
import { consume, emailBinding } from './helpers/deliveries';
import { aReservation, aUser, type TestUser } from './helpers/factories';
import { registerUser } from './helpers/auth';
import { call, get, post, put } from './helpers/http';
import { fakeStripeForThisFile } from './helpers/money';
import { pdfString } from '../src/lib/pdf';
import { msg } from '../src/messages';

const db = database();
// One msw server for the file: the fake Stripe's, with FCM and Twilio added per test.
const stripe = fakeStripeForThisFile();
const server = stripe.server;

const short = () => crypto.randomUUID().slice(0, 8);

async function aUserWith({ phone = null as string | null, devices: tokens = [] as string[], locale = 'fr' as 'fr' | 'en' } = {}): Promise<TestUser> {
  const user = await aUser();
  await db.update(users).set({ phoneNumber: phone, locale }).where(eq(users.id, user.id));
  for (const token of tokens) await db.insert(devices).values({ userId: user.id, token, platform: 'ANDROID' });
  return user;
}

const rowsOf = (userId: number, template: string) =>
  db.select().from(deliveries).where(and(eq(deliveries.userId, userId), eq(deliveries.template, template))).orderBy(deliveries.id);

const channelsOf = async (userId: number, template: string) => (await rowsOf(userId, template)).map((r) => [r.channel, r.to]);

/** A delivery row written straight into D1 (not enqueued: the test drives the consumer itself). */
async function aDelivery(values: Partial<typeof deliveries.$inferInsert> & Pick<typeof deliveries.$inferInsert, 'channel' | 'to'>): Promise<DeliveryRow> {
  const [row] = await db
    .insert(deliveries)
    .values({ template: 'RESERVATION_DEPOSITED', locale: 'fr', payload: { title: 'Parcel handed over', message: 'Your parcel R-1 was handed over.', data: { reservationId: 42, reservationNumber: 'R-1' } }, ...values })
    .returning();
  return row;
}

const rowOf = async (id: number) => (await db.select().from(deliveries).where(eq(deliveries.id, id)))[0];
const recorded = (deliveryId: number) => db.select().from(outboxMessages).where(eq(outboxMessages.deliveryId, deliveryId)).orderBy(outboxMessages.id);

describe('notify() on every channel', () => {
  it('a handover step goes by e-mail, by push (one row for the account with devices) and by SMS (international number); other kinds not by SMS', async () => {
    const user = await aUserWith({ phone: '+33 6 12-34.56 78', devices: [`tok-${short()}`, `tok-${short()}`] });
    await db.batch([
      ...notify(db, { userId: user.id, type: 'RESERVATION_DEPOSITED', text: msg('notice.kycApproved') }),
      ...notify(db, { userId: user.id, type: 'KYC_APPROVED', text: msg('notice.kycApproved') }),
    ] as never);
    expect(await channelsOf(user.id, 'RESERVATION_DEPOSITED')).toEqual([
      ['EMAIL', user.email],
      ['PUSH', `user:${user.id}`],
      ['SMS', '+33612345678'],
    ]);
    expect(await channelsOf(user.id, 'KYC_APPROVED')).toEqual([
      ['EMAIL', user.email],
      ['PUSH', `user:${user.id}`],
    ]);
  });

  it('no device, no push; a national number, no SMS; a deleted account, nothing; a failed batch, nothing', async () => {
    const national = await aUserWith({ phone: '06 12 34 56 78' });
    await db.batch(notify(db, { userId: national.id, type: 'RESERVATION_DELIVERED', text: msg('notice.kycApproved') }) as never);
    expect(await channelsOf(national.id, 'RESERVATION_DELIVERED')).toEqual([['EMAIL', national.email]]);

    const deleted = await aUserWith({ phone: '+33612345678', devices: [`tok-${short()}`] });
    await db.update(users).set({ deletedAt: new Date().toISOString() }).where(eq(users.id, deleted.id));
    await db.batch(notify(db, { userId: deleted.id, type: 'RESERVATION_DELIVERED', text: msg('notice.kycApproved') }) as never);
    expect(await rowsOf(deleted.id, 'RESERVATION_DELIVERED')).toEqual([]);

    const reachable = await aUserWith({ phone: '+33612345678', devices: [`tok-${short()}`] });
    await expect(
      db.batch([
        ...notify(db, { userId: reachable.id, type: 'RESERVATION_DELIVERED', text: msg('notice.kycApproved') }),
        db.insert(users).values({ email: reachable.email, firstName: 'A', lastName: 'B' }),
      ] as never),
    ).rejects.toThrow();
    expect(await rowsOf(reachable.id, 'RESERVATION_DELIVERED')).toEqual([]);
  });

  it('a carrier deposit through the API notifies the sender on the three channels in the transition’s batch', async () => {
    const { reservation, carrier, sender } = await aReservation({ status: 'CONFIRMED' });
    await db.update(users).set({ phoneNumber: '+33612345678' }).where(eq(users.id, sender.id));
    await db.insert(devices).values({ userId: sender.id, token: `tok-${short()}`, platform: 'IOS' });
    const qr = await call('GET', `/v1/api/bookings/${reservation.id}/qrcode/deposit`, { token: sender.token });
    expect((await post('/v1/api/qrcode/process/depot', { payload: qr.body.payload }, { token: carrier.token })).status).toBe(200);
    expect((await rowsOf(sender.id, 'RESERVATION_DEPOSITED')).map((r) => r.channel)).toEqual(['EMAIL', 'PUSH', 'SMS']);
  });
});

describe('notification preferences', () => {
  const PATH = '/v1/api/user/me/notification-preferences';
  // Every kind's default, written out here (not read from the rules): e-mail and push on, SMS for the two handover steps.
  const DEFAULTS = NOTIFICATION_KINDS.map((kind) => ({
    kind,
    email: true,
    push: true,
    sms: kind === 'RESERVATION_DEPOSITED' || kind === 'RESERVATION_DELIVERED',
  }));

  it('GET: the locale and one row per kind with the defaults (e-mail and push on, SMS for the handover steps)', async () => {
    const user = await aUser();
    const res = await get(PATH, { token: user.token });
    expect(res.status).toBe(200);
    expect(res.body.locale).toBe('fr');
    expect(res.body.channels).toEqual(DEFAULTS);
    expect((await get(PATH)).status).toBe(401);
  });

  it('PUT changes the locale and the kinds listed; notify() honours each channel; back to the defaults stores nothing', async () => {
    const user = await aUserWith({ phone: '+221771234567', devices: [`tok-${short()}`] });
    const res = await put(
      PATH,
      {
        locale: 'en',
        channels: [
          { kind: 'RESERVATION_DEPOSITED', email: false, push: false, sms: true },
          { kind: 'KYC_APPROVED', email: true, push: false, sms: true },
        ],
      },
      { token: user.token },
    );
    expect(res.status).toBe(200);
    expect(res.body.locale).toBe('en');
    // The two kinds listed changed, every other kind still at its default.
    const changed: Record<string, { kind: string; email: boolean; push: boolean; sms: boolean }> = {
      RESERVATION_DEPOSITED: { kind: 'RESERVATION_DEPOSITED', email: false, push: false, sms: true },
      KYC_APPROVED: { kind: 'KYC_APPROVED', email: true, push: false, sms: true },
    };
    expect(res.body.channels).toEqual(DEFAULTS.map((row) => changed[row.kind] ?? row));

    await db.batch([
      ...notify(db, { userId: user.id, type: 'RESERVATION_DEPOSITED', text: msg('notice.kycApproved') }),
      ...notify(db, { userId: user.id, type: 'KYC_APPROVED', text: msg('notice.kycApproved') }),
      ...notify(db, { userId: user.id, type: 'RESERVATION_CONFIRMED', text: msg('notice.kycApproved') }),
    ] as never);
    expect((await rowsOf(user.id, 'RESERVATION_DEPOSITED')).map((r) => [r.channel, r.locale])).toEqual([['SMS', 'en']]);
    expect((await rowsOf(user.id, 'KYC_APPROVED')).map((r) => r.channel)).toEqual(['EMAIL', 'SMS']);
    expect((await rowsOf(user.id, 'RESERVATION_CONFIRMED')).map((r) => r.channel)).toEqual(['EMAIL', 'PUSH']);

    // Back to the defaults: the stored choice goes (the defaults apply again).
    expect((await put(PATH, { channels: [{ kind: 'KYC_APPROVED', email: true, push: true, sms: false }] }, { token: user.token })).status).toBe(200);
    const stored = await db.select({ kind: notificationPreferences.kind }).from(notificationPreferences).where(eq(notificationPreferences.userId, user.id));
    expect(stored).toEqual([{ kind: 'RESERVATION_DEPOSITED' }]);
    const [{ locale }] = await db.select({ locale: users.locale }).from(users).where(eq(users.id, user.id));
    expect(locale).toBe('en'); // absent from the PUT: unchanged
  });

  it('security messages ignore the preferences: every e-mail off, the password reset and change still go', async () => {
    const user = await registerUser();
    const off = NOTIFICATION_KINDS.map((kind) => ({ kind, email: false, push: false, sms: false }));
    expect((await put(PATH, { channels: off }, { token: user.accessToken })).status).toBe(200);
    await db.batch(notify(db, { userId: user.id, type: 'KYC_APPROVED', text: msg('notice.kycApproved') }) as never);
    expect(await rowsOf(user.id, 'KYC_APPROVED')).toEqual([]);
    expect((await post('/v1/api/auth/password/forgot', { email: user.email })).status).toBe(202);
    const changed = await put('/v1/api/auth/password', { currentPassword: user.password, newPassword: 'Changed-password-9' }, { token: user.accessToken });
    expect(changed.status).toBe(200);
    expect((await rowsOf(user.id, 'PASSWORD_RESET')).map((r) => r.channel)).toEqual(['EMAIL']);
    expect((await rowsOf(user.id, 'PASSWORD_CHANGED')).map((r) => r.channel)).toEqual(['EMAIL']);
  });

  it('a preference for an unknown kind, a kind listed twice, or a bad locale is 400 VALIDATION_ERROR and changes nothing', async () => {
    const user = await aUser();
    const before = (await get(PATH, { token: user.token })).body;
    const unknown = await put(
      PATH,
      {
        locale: 'en',
        channels: [
          { kind: 'KYC_APPROVED', email: false, push: false, sms: false },
          { kind: 'NO_SUCH_KIND', email: true, push: true, sms: true },
        ],
      },
      { token: user.token },
    );
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({
      status: 400,
      errorCode: 'VALIDATION_ERROR',
      path: PATH,
      fieldErrors: [{ field: 'channels[1].kind', message: expect.any(String), rejectedValue: 'NO_SUCH_KIND' }],
    });
    const twice = await put(
      PATH,
      {
        channels: [
          { kind: 'KYC_APPROVED', email: false, push: true, sms: false },
          { kind: 'KYC_APPROVED', email: true, push: true, sms: false },
        ],
      },
      { token: user.token },
    );
    expect(twice.status).toBe(400);
    expect(twice.body.fieldErrors).toEqual([{ field: 'channels[1].kind', message: 'listed twice', rejectedValue: 'KYC_APPROVED' }]);
    const locale = await put(PATH, { locale: 'de', channels: [] }, { token: user.token });
    expect(locale.status).toBe(400);
    expect(locale.body.fieldErrors).toEqual([expect.objectContaining({ field: 'locale', rejectedValue: 'de' })]);
    expect((await get(PATH, { token: user.token })).body).toEqual(before);
    expect(await db.select().from(notificationPreferences).where(eq(notificationPreferences.userId, user.id))).toEqual([]);
  });
});

/** A Firebase service account with a real key, Google's token endpoint and FCM's send endpoint faked. */
async function fakeFcm(answer: (token: string) => Response) {
  const project = `parcel-${short()}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const account = { project_id: project, client_email: `push@${project}.iam.gserviceaccount.com`, private_key: await exportPKCS8(privateKey) };
  const sent: { auth: string | null; message: Record<string, any> }[] = [];
  server.use(
    http.post('https://oauth2.googleapis.com/token', () => HttpResponse.json({ access_token: `ya29.${project}`, expires_in: 3599, token_type: 'Bearer' })),
    http.post(`https://fcm.googleapis.com/v1/projects/${project}/messages:send`, async ({ request }) => {
      const body = (await request.json()) as { message: Record<string, any> };
      sent.push({ auth: request.headers.get('Authorization'), message: body.message });
      return answer(body.message.token);
    }),
  );
  return { sent, env: { ...env, FCM_SERVICE_ACCOUNT: JSON.stringify(account) } as Env, project };
}

const fcmError = (status: number, errorCode: string, message: string) =>
  HttpResponse.json({ error: { code: status, message, status: errorCode === 'UNREGISTERED' ? 'NOT_FOUND' : errorCode, details: [{ '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode }] } }, { status });

const deviceTokens = async (userId: number) => (await db.select({ token: devices.token }).from(devices).where(eq(devices.userId, userId)).orderBy(devices.id)).map((d) => d.token);

describe('push through the consumer', () => {
  it('the sandbox records one message per device, visible in the development outbox with channel PUSH', async () => {
    const tokens = [`Tok-${short()}:APA91b`, `tok-${short()}`];
    const user = await aUserWith({ devices: tokens });
    const row = await aDelivery({ userId: user.id, channel: 'PUSH', to: `user:${user.id}` });
    expect(await consume(row.id)).toMatchObject({ acked: true, retries: [] });
    const messages = await recorded(row.id);
    expect(messages.map((m) => [m.channel, m.to, m.subject, m.text])).toEqual(
      tokens.map((t) => ['PUSH', t, 'Colis remis au transporteur', 'Le colis de votre réservation R-1 a été remis au transporteur.']),
    );
    expect(await rowOf(row.id)).toMatchObject({ status: 'SENT', attempts: 1, providerMessageId: messages.map((m) => `sandbox-${m.id}`).join(' ') });
    const ctx = createExecutionContext();
    const res = await worker.fetch(new Request(`http://api.test/v1/api/dev/outbox?channel=PUSH&to=${tokens[0]}`), { ...env, ENVIRONMENT: 'development' } as Env, ctx);
    const page = (await res.json()) as { content: { channel: string; to: string; template: string }[] };
    expect(page.content).toEqual([expect.objectContaining({ channel: 'PUSH', to: tokens[0], template: 'RESERVATION_DEPOSITED' })]);
  });

  it('FCM: sent to each device in English for an English account; an UNREGISTERED device is deleted; one device reached is SENT', async () => {
    const [good, gone, bad] = [`good-${short()}`, `gone-${short()}`, `bad-${short()}`];
    const user = await aUserWith({ devices: [good, gone, bad], locale: 'en' });
    const fcm = await fakeFcm((token) =>
      token === good
        ? HttpResponse.json({ name: `projects/x/messages/0:${token}` })
        : token === gone
          ? fcmError(404, 'UNREGISTERED', 'Requested entity was not found.')
          : fcmError(400, 'INVALID_ARGUMENT', 'The registration token is not a valid FCM registration token'),
    );
    const row = await aDelivery({ userId: user.id, channel: 'PUSH', to: `user:${user.id}`, locale: 'en' });
    expect(await consume(row.id, { variant: fcm.env })).toMatchObject({ acked: true, retries: [] });
    expect(fcm.sent.map((s) => s.message.token)).toEqual([good, gone, bad]);
    expect(fcm.sent[0]).toEqual({
      auth: `Bearer ya29.${fcm.project}`,
      message: {
        token: good,
        notification: { title: 'Parcel handed over', body: 'Your parcel R-1 was handed over.' },
        data: { kind: 'RESERVATION_DEPOSITED', link: `${env.PUBLIC_BASE_URL}/app/bookings/42`, reservationId: '42', reservationNumber: 'R-1', deliveryId: String(row.id) },
        android: { collapse_key: String(row.id), priority: 'high' },
        apns: { headers: { 'apns-collapse-id': String(row.id) } },
      },
    });
    expect(await rowOf(row.id)).toMatchObject({ status: 'SENT', providerMessageId: `projects/x/messages/0:${good}` });
    expect(await deviceTokens(user.id)).toEqual([good, bad]);
  });

  it('FCM refusing every device (4xx) is FAILED with the reason, not retried; no device left is FAILED', async () => {
    const user = await aUserWith({ devices: [`bad-${short()}`] });
    const fcm = await fakeFcm(() => fcmError(400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.'));
    const row = await aDelivery({ userId: user.id, channel: 'PUSH', to: `user:${user.id}` });
    expect(await consume(row.id, { variant: fcm.env })).toMatchObject({ acked: true, retries: [] });
    expect(await rowOf(row.id)).toMatchObject({ status: 'FAILED', attempts: 1, lastError: 'FCM INVALID_ARGUMENT: Invalid JSON payload received.' });

    const unregistered = await aUserWith({ devices: [`gone-${short()}`] });
    const fcm2 = await fakeFcm(() => fcmError(404, 'UNREGISTERED', 'Requested entity was not found.'));
    const second = await aDelivery({ userId: unregistered.id, channel: 'PUSH', to: `user:${unregistered.id}` });
    await consume(second.id, { variant: fcm2.env });
    expect(await rowOf(second.id)).toMatchObject({ status: 'FAILED', lastError: 'FCM UNREGISTERED: Requested entity was not found.' });
    expect(await deviceTokens(unregistered.id)).toEqual([]);

    const third = await aDelivery({ userId: unregistered.id, channel: 'PUSH', to: `user:${unregistered.id}` });
    await consume(third.id, { variant: fcm2.env });
    expect(await rowOf(third.id)).toMatchObject({ status: 'FAILED', lastError: 'No device registered for push' });
  });

  it('FCM unavailable (5xx) or unreachable is retried with backoff, the reason kept; then sent', async () => {
    const token = `tok-${short()}`;
    const user = await aUserWith({ devices: [token] });
    const answers = [fcmError(503, 'UNAVAILABLE', 'The service is currently unavailable.'), HttpResponse.error(), HttpResponse.json({ name: 'projects/x/messages/0:ok' })];
    const fcm = await fakeFcm(() => answers.shift()!);
    const row = await aDelivery({ userId: user.id, channel: 'PUSH', to: `user:${user.id}` });
    expect(await consume(row.id, { variant: fcm.env })).toMatchObject({ acked: false, retries: [{ delaySeconds: 30 }] });
    expect(await rowOf(row.id)).toMatchObject({ status: 'QUEUED', attempts: 1, lastError: 'FCM UNAVAILABLE: The service is currently unavailable.' });
    expect(await consume(row.id, { variant: fcm.env })).toMatchObject({ acked: false, retries: [{ delaySeconds: 60 }] });
    expect((await rowOf(row.id)).lastError).toMatch(/^FCM unreachable: /);
    expect(await consume(row.id, { variant: fcm.env })).toMatchObject({ acked: true });
    expect(await rowOf(row.id)).toMatchObject({ status: 'SENT', attempts: 3, lastError: null, providerMessageId: 'projects/x/messages/0:ok' });
  });
});

/** Twilio's Messages API faked for one account. */
function fakeTwilio(answer: () => Response) {
  const sid = `AC${crypto.randomUUID().replace(/-/g, '')}`;
  const seen: { auth: string | null; form: Record<string, string> }[] = [];
  server.use(
    http.post(`https://api.twilio.com/2010-04-01/Accounts/${sid}/Messages.json`, async ({ request }) => {
      seen.push({ auth: request.headers.get('Authorization'), form: Object.fromEntries(new URLSearchParams(await request.text())) });
      return answer();
    }),
  );
  return { seen, env: { ...env, TWILIO_ACCOUNT_SID: sid, TWILIO_AUTH_TOKEN: 'twilio-secret', TWILIO_FROM: '+33700000000' } as Env, sid };
}

describe('SMS through the consumer', () => {
  it('the sandbox records the text, visible in the development outbox with channel SMS', async () => {
    const row = await aDelivery({ channel: 'SMS', to: '+33612345678', template: 'RESERVATION_DELIVERED', payload: { title: 't', message: 'Your parcel R-9 was delivered.', data: { reservationNumber: 'R-9' } } });
    expect(await consume(row.id)).toMatchObject({ acked: true });
    const [message] = await recorded(row.id);
    expect(message).toMatchObject({ channel: 'SMS', to: '+33612345678', subject: null, text: 'Colis livré : Le colis de la réservation R-9 a été livré à son destinataire.', links: [] });
    expect(await rowOf(row.id)).toMatchObject({ status: 'SENT', providerMessageId: `sandbox-${message.id}` });
  });

  it('Twilio: the exact form with basic auth, SENT with the message SID', async () => {
    const twilio = fakeTwilio(() => HttpResponse.json({ sid: 'SM0123456789abcdef0123456789abcdef', status: 'queued' }, { status: 201 }));
    const row = await aDelivery({ channel: 'SMS', to: '+221771234567', locale: 'en', template: 'RESERVATION_DELIVERED', payload: { title: 't', message: 'Your parcel R-9 was delivered.', data: null } });
    expect(await consume(row.id, { variant: twilio.env })).toMatchObject({ acked: true });
    expect(twilio.seen).toEqual([
      { auth: `Basic ${btoa(`${twilio.sid}:twilio-secret`)}`, form: { To: '+221771234567', Body: 'Parcel delivered: Your parcel R-9 was delivered.', From: '+33700000000' } },
    ]);
    expect(await rowOf(row.id)).toMatchObject({ status: 'SENT', providerMessageId: 'SM0123456789abcdef0123456789abcdef' });
  });

  it('Twilio refusing the number (4xx) is FAILED with the reason; an outage (5xx) is retried', async () => {
    const refused = fakeTwilio(() => HttpResponse.json({ code: 21211, message: "The 'To' number +33000 is not a valid phone number.", status: 400 }, { status: 400 }));
    const row = await aDelivery({ channel: 'SMS', to: '+33000000000' });
    expect(await consume(row.id, { variant: refused.env })).toMatchObject({ acked: true, retries: [] });
    expect(await rowOf(row.id)).toMatchObject({ status: 'FAILED', attempts: 1, lastError: "Twilio 21211: The 'To' number +33000 is not a valid phone number." });

    const down = fakeTwilio(() => new HttpResponse('upstream down', { status: 503 }));
    const later = await aDelivery({ channel: 'SMS', to: '+33612345678' });
    expect(await consume(later.id, { variant: down.env })).toMatchObject({ acked: false, retries: [{ delaySeconds: 30 }] });
    expect(await rowOf(later.id)).toMatchObject({ status: 'QUEUED', attempts: 1, lastError: 'Twilio HTTP 503: no message' });
  });
});

describe("the recipient's SMS", () => {
  const recipientRows = (reservationNumber: string) =>
    db
      .select()
      .from(deliveries)
      .where(and(eq(deliveries.template, 'RECIPIENT_LINK'), sql`json_extract(${deliveries.payload}, '$.reservationNumber') = ${reservationNumber}`))
      .orderBy(deliveries.id);

  it('gets the page link by SMS and e-mail at confirmation and again at deposit, in the language of the arrival country', async () => {
    // The sender reads English, the parcel goes to Senegal: the recipient's messages are in French.
    const { reservation, carrier, sender, trip } = await aReservation({
      status: 'PAID',
      set: { recipient: { firstName: 'Awa', lastName: 'Diop', email: 'awa@example.com', phone: '+221 77 123 45 67' } },
    });
    expect(trip.arrivalCountry).toBe('SN');
    await db.update(users).set({ locale: 'en' }).where(eq(users.id, sender.id));
    expect((await post(`/v1/api/bookings/${reservation.id}/accept`, undefined, { token: carrier.token })).status).toBe(200);
    const qr = await call('GET', `/v1/api/bookings/${reservation.id}/qrcode/deposit`, { token: sender.token });
    expect((await post('/v1/api/qrcode/process/depot', { payload: qr.body.payload }, { token: carrier.token })).status).toBe(200);

    const rows = await recipientRows(reservation.reservationNumber);
    expect(rows.map((r) => [r.channel, r.to, r.locale, (r.payload as { step: string }).step, r.userId])).toEqual([
      ['EMAIL', 'awa@example.com', 'fr', 'CONFIRMED', null],
      ['SMS', '+221771234567', 'fr', 'CONFIRMED', null],
      ['EMAIL', 'awa@example.com', 'fr', 'DEPOSITED', null],
      ['SMS', '+221771234567', 'fr', 'DEPOSITED', null],
    ]);
    const link = `${env.PUBLIC_BASE_URL}/r/${reservation.recipientToken}`;
    const [senderRow] = await db.select({ firstName: users.firstName }).from(users).where(eq(users.id, sender.id));
    expect(renderSms(env, rows[1])).toEqual({ text: `${senderRow.firstName} vous envoie un colis (réservation ${reservation.reservationNumber}). Suivez-le et recevez-le ici : ${link}`, links: [link] });
    expect(renderSms(env, rows[3]).text).toBe(`Votre colis ${reservation.reservationNumber} envoyé par ${senderRow.firstName} a été remis au transporteur. Suivi et code de remise : ${link}`);
  });

  it('to an English-speaking country in English whatever the sender; without an international number, no SMS', async () => {
    const { reservation, carrier, trip } = await aReservation({ status: 'PAID', set: { recipient: { firstName: 'Jo', lastName: 'Smith', phone: '+44 7700 900123' } } });
    // The reservation's own arrival country (its terms, copied from the trip at booking).
    await db.update(reservations).set({ arrivalCountry: 'GB' }).where(eq(reservations.id, reservation.id));
    expect(trip.id).toBe(reservation.announcementId);
    expect((await post(`/v1/api/bookings/${reservation.id}/accept`, undefined, { token: carrier.token })).status).toBe(200);
    expect((await recipientRows(reservation.reservationNumber)).map((r) => [r.channel, r.to, r.locale])).toEqual([['SMS', '+447700900123', 'en']]);
    const row = (await recipientRows(reservation.reservationNumber))[0];
    expect(renderSms(env, row).text).toMatch(/^First\d+ is sending you a parcel \(reservation R-TEST-/);

    const national = await aReservation({ status: 'PAID', set: { recipient: { firstName: 'R', lastName: 'R', email: 'r@example.com', phone: '06 12 34 56 78' } } });
    expect((await post(`/v1/api/bookings/${national.reservation.id}/accept`, undefined, { token: national.carrier.token })).status).toBe(200);
    expect((await recipientRows(national.reservation.reservationNumber)).map((r) => r.channel)).toEqual(['EMAIL']);
  });
});

describe('the recipient’s language (recipient.ts, the statement’s own rule)', () => {
  // One reservation whose sender's locale and trip's arrival country each case sets, then the
  // recipient's message written by the real statement: its locale is the rule's answer.
  let fixture: Promise<Awaited<ReturnType<typeof aReservation>>> | undefined;
  const reservation = () => (fixture ??= aReservation({ status: 'CONFIRMED', set: { recipient: { firstName: 'R', lastName: 'R', email: 'r@example.com' } } }));

  it.each([
    ['en', 'SN', 'fr'],
    ['en', 'FR', 'fr'],
    ['en', 'ma', 'fr'],
    ['en', 'CM', 'fr'],
    ['en', 'RE', 'fr'],
    ['fr', 'GB', 'en'],
    ['fr', 'NG', 'en'],
    ['fr', 'US', 'en'],
    ['fr', 'DE', 'fr'],
    ['en', 'DE', 'en'],
    ['fr', 'CA', 'fr'],
    ['en', 'CA', 'en'],
    ['en', 'CH', 'en'],
    ['en', '', 'en'],
    ['fr', '', 'fr'],
  ] as const)('sender %s, arrival country %j: %s', async (senderLocale, country, expected) => {
    const { sender, trip, reservation: r } = await reservation();
    await db.batch([
      db.update(users).set({ locale: senderLocale }).where(eq(users.id, sender.id)),
      db.update(reservations).set({ arrivalCountry: country }).where(eq(reservations.id, r.id)),
    ]);
    // The recipient's messages through the runtime statement: the fixture names an e-mail address only, so one row.
    const [written] = (await db.batch([recipientLinkMessages(db, r.id, 'CONFIRMED', sql`1`)] as never)) as [{ id: number }[]];
    expect(written).toHaveLength(1);
    const row = await rowOf(written[0].id);
    expect([row.channel, row.locale]).toEqual(['EMAIL', expected]);
  });

  it('no country is both French and English', () => {
    expect(FRENCH_COUNTRIES.filter((c) => (ENGLISH_COUNTRIES as readonly string[]).includes(c))).toEqual([]);
  });
});

describe('money documents travel with the e-mail about them (CONTRACT section 19)', () => {
  const copy = ({ userId, channel, to, template, locale, payload }: DeliveryRow, as?: string) => aDelivery({ userId, channel, to, template: as ?? template, locale, payload });

  it('the payment confirmation carries no invoice (nothing is charged at authorisation); the delivery notice carries the invoice, in its language', async () => {
    const { sender, reservation } = await aReservation({ status: 'DELIVERED', payment: stripe });
    const [authorised] = (await rowsOf(sender.id, 'PAYMENT_AUTHORIZED')).filter((r) => r.channel === 'EMAIL');
    const { sent, env: live } = emailBinding();
    await consume((await copy(authorised)).id, { variant: live });
    // The sender's delivery notice about the same reservation (the factory delivers without notices).
    await consume((await copy(authorised, 'RESERVATION_DELIVERED')).id, { variant: live });
    const [confirmation, delivered] = sent;
    expect(confirmation.attachments).toBeUndefined();
    const { invoiceId } = await reservationRow(reservation.id);
    expect(invoiceId).toMatch(/^F-\d{4}-\d{6}$/);
    expect(delivered.attachments).toHaveLength(1);
    expect(delivered.attachments[0]).toMatchObject({ disposition: 'attachment', filename: `${invoiceId}.pdf`, type: 'application/pdf' });
    expect(new TextDecoder().decode(new Uint8Array(delivered.attachments[0].content).slice(0, 5))).toBe('%PDF-');

    // The e-mail's language is the invoice's: French for this sender (the default), English for an English copy.
    const pdfText = (content: ArrayBuffer) => new TextDecoder('latin1').decode(new Uint8Array(content));
    expect(authorised.locale).toBe('fr');
    expect(pdfText(delivered.attachments[0].content)).toContain(`${pdfString(`Facture`)} Tj`);
    expect(pdfText(delivered.attachments[0].content)).toContain(`${pdfString(`Numéro de facture\u00a0: ${invoiceId}`)} Tj`);
    await consume((await copy({ ...authorised, locale: 'en' }, 'RESERVATION_DELIVERED')).id, { variant: live });
    const english = pdfText(sent[2].attachments[0].content);
    expect(english).toContain(`${pdfString(`Invoice number: ${invoiceId}`)} Tj`);
    expect(english).not.toContain(pdfString('Facture'));
  });

  it('the refund notice carries the credit note; other e-mails carry none', async () => {
    const { sender, carrier, reservation } = await aReservation({ status: 'CONFIRMED', payment: stripe });
    await captureLoaded(depsOf(env), await reservationRow(reservation.id)); // captured early (an aging hold)
    // The carrier cancels after capture: a refund in full, with its credit note and notice.
    expect((await post(`/v1/api/bookings/${reservation.id}/cancel`, {}, { token: carrier.token })).status).toBe(200);
    const [refunded] = (await rowsOf(sender.id, 'PAYMENT_REFUNDED')).filter((r) => r.channel === 'EMAIL');
    const [paidNotice] = (await rowsOf(carrier.id, 'RESERVATION_PAID')).filter((r) => r.channel === 'EMAIL');
    const { sent, env: live } = emailBinding();
    await consume((await copy(refunded)).id, { variant: live });
    await consume((await copy(paidNotice)).id, { variant: live });
    const [withCredit, without] = sent;
    expect(withCredit.attachments).toHaveLength(1);
    expect(withCredit.attachments[0].filename).toMatch(/^A-\d{4}-\d{6}\.pdf$/);
    expect(without.attachments).toBeUndefined();
  });
});
