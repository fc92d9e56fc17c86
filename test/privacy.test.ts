// Personal data (CONTRACT section 24): the export (content, owner only, e-mail, expiry), the
// erasure of DELETE /user/me (refused while work is unfinished; what goes, what stays), and the
// retention job's rules at their boundaries.
import { env } from 'cloudflare:workers';
import { and, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { database } from '../src/db/client';
import { depsOf } from '../src/env';
import {
  announcements,
  auditLogs,
  conversations,
  dataExports,
  deliveries,
  devices,
  disputeMessages,
  disputes,
  files,
  kycRecords,
  ledgerAccounts,
  ledgerEntries,
  mobilePayoutAccounts,
  notificationPreferences,
  notifications,
  reports,
  reservationErasures,
  reservations,
  searchAlerts,
  transactions,
  users,
  withdrawals,
} from '../src/db/schema';
import { renderEmail } from '../src/features/deliveries/templates';
import { buildPendingExports, EXPORT_TTL_MS, purgeExpiredExports } from '../src/features/privacy/export.service';
import { runRetention } from '../src/features/privacy/privacy.jobs';
import {
  ERASED_RECIPIENT,
  erasePersonalReservationData,
  purgeDeliveries,
  purgeKycDocuments,
  purgeNotifications,
  purgeTrackingPoints,
  RETENTION_DAYS,
} from '../src/features/privacy/retention';
import { createIdp, login, registerUser, serveJwks, signIdToken, uniqueEmail } from './helpers/auth';
import { del, errorBody, get, post } from './helpers/http';
import { aCarrier, aCategory, aFile, aReservation, aTrip, aUser, type TestUser } from './helpers/factories';
import { runCron, trackingStub } from './helpers/db';
import { toNotification } from '../src/features/notifications/notifications.service';

const db = database(env.DB);
const deps = () => depsOf(env);
const ME = '/v1/api/user/me';
const EXPORTS = `${ME}/exports`;
const DAY_MS = 24 * 60 * 60 * 1000;
const ago = (days: number, now = Date.now()) => new Date(now - days * DAY_MS).toISOString();
/** Just inside a limit (one minute short of it) and just outside (one minute past). */
const inside = (days: number, now: Date) => new Date(now.getTime() - days * DAY_MS + 60_000).toISOString();
const outside = (days: number, now: Date) => new Date(now.getTime() - days * DAY_MS - 60_000).toISOString();

afterEach(() => vi.restoreAllMocks());

const conversationStub = (id: number) => env.CONVERSATION.get(env.CONVERSATION.idFromName(String(id)));

async function message(token: string, reservationId: number, body: string) {
  const res = await post(`/v1/api/bookings/${reservationId}/messages`, { body }, { token });
  if (res.status !== 201) throw new Error(`message: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

async function storedFile(owner: { id: number }, purpose: 'AVATAR' | 'KYC_DOCUMENT' | 'PARCEL_IMAGE', createdAt?: string) {
  const storageKey = `test/${crypto.randomUUID()}`;
  await env.UPLOADS.put(storageKey, 'bytes');
  return aFile(owner, { purpose, storageKey, ...(createdAt ? { createdAt } : {}) });
}

// ---- Export ------------------------------------------------------------------------------------

describe('POST /user/me/exports and GET /user/me/exports/{id}', () => {
  it('builds the archive in the background, e-mails its link, serves it to its owner only, then forgets it', async () => {
    const carrier = await aCarrier();
    const reg = await registerUser({ phoneNumber: '+33612345678' });
    const sender: TestUser = { id: reg.id, email: reg.email, roles: ['ROLE_CLIENT'], token: reg.accessToken };
    const { reservation, trip } = await aReservation({ sender, carrier, status: 'DELIVERED', set: { deliveredAt: new Date().toISOString() } });
    await message(sender.token, reservation.id, 'Bonjour, le colis est fragile');
    await message(carrier.token, reservation.id, 'Bien noté');
    await db.insert(devices).values({ userId: sender.id, token: `fcm-${crypto.randomUUID()}`, platform: 'ANDROID' });
    await db.insert(notifications).values({ userId: sender.id, type: 'RESERVATION_DELIVERED', title: 'Livré', message: 'Votre colis est livré' });
    await db.insert(searchAlerts).values({ userId: sender.id, name: 'Paris-Dakar' });
    const avatar = await storedFile(sender, 'AVATAR');

    const asked = await post(EXPORTS, undefined, { token: sender.token });
    expect(asked.status).toBe(202);
    expect(asked.body).toMatchObject({ id: expect.any(Number), status: 'PENDING', readyAt: null, expiresAt: null });
    const path = `${EXPORTS}/${asked.body.id}`;

    // One in progress at a time: the exact error body.
    const again = await post(EXPORTS, undefined, { token: sender.token });
    expect(again.status).toBe(409);
    expect(errorBody(again)).toMatchObject({
      status: 409,
      errorCode: 'INVALID_STATE',
      message: `An export of your data is already being prepared (${asked.body.id}); you will get an e-mail when it is ready`,
    });
    const fr = await post(EXPORTS, undefined, { token: sender.token, headers: { 'Accept-Language': 'fr' } });
    expect(fr.body.message).toBe(`Un export de vos données est déjà en préparation (${asked.body.id}) ; vous recevrez un e-mail quand il sera prêt`);

    // Pending: the status, for its owner; nobody else learns it exists.
    expect((await get(path, { token: sender.token })).status).toBe(202);
    expect((await get(path, { token: sender.token })).body.status).toBe('PENDING');
    const stranger = await aUser();
    const hidden = await get(path, { token: stranger.token });
    expect(hidden.status).toBe(404);
    expect(hidden.body.errorCode).toBe('RESOURCE_NOT_FOUND');
    expect((await get(path, { token: carrier.token })).status).toBe(404);

    // What else names the sender: an offer made, a report filed, a Wave account, a withdrawal.
    const openTrip = await aTrip(carrier, { pricePerKgCents: 1_000, totalWeightG: 20_000 });
    const category = await aCategory({ name: 'Livres' });
    const offer = await post(
      `/v1/api/annonces/${openTrip.id}/offers`,
      {
        reservedWeight: 2,
        pricePerKg: 8.5,
        contentInfo: 'Livres',
        items: [{ categoryId: category.id, name: 'Romans', reservedQuantity: 2, weight: 1.5 }],
        recipient: { firstName: 'Awa', lastName: 'Diop', phone: '+221 77 123 45 67', city: 'Dakar' },
        declarations: { noProhibitedItems: true },
      },
      { token: sender.token },
    );
    expect(offer.status).toBe(201);
    await db.insert(reports).values({ reporterId: sender.id, targetType: 'ANNOUNCEMENT', targetId: openTrip.id, reason: 'SCAM' });
    await db.insert(mobilePayoutAccounts).values({ ownerType: 'USER', ownerId: sender.id, provider: 'WAVE', currency: 'XOF', phone: '+221771234567', name: 'Awa Diop' });
    await db.insert(withdrawals).values({ ownerType: 'USER', ownerId: sender.id, amountCents: 5_000, currency: 'XOF', destinationAccountId: 'wave:+221771234567', token: 'secret-withdrawal-token' });

    expect(await buildPendingExports(deps())).toBeGreaterThanOrEqual(1);
    const [row] = await db.select().from(dataExports).where(eq(dataExports.id, asked.body.id));
    expect(row.status).toBe('READY');
    expect(Date.parse(row.expiresAt!) - Date.parse(row.readyAt!)).toBe(EXPORT_TTL_MS);

    // The e-mail, in the user's language (French by default), links to the export.
    const [mail] = await db.select().from(deliveries).where(and(eq(deliveries.userId, sender.id), eq(deliveries.template, 'DATA_EXPORT_READY')));
    expect(mail).toMatchObject({ channel: 'EMAIL', to: reg.email, locale: 'fr', status: 'QUEUED' });
    const rendered = renderEmail(env, mail);
    expect(rendered.subject).toBe('Votre export de données est prêt');
    expect(rendered.links).toContain(`${env.PUBLIC_BASE_URL}${path}`);
    expect(renderEmail(env, { ...mail, locale: 'en' }).subject).toBe('Your data export is ready');

    const archive = await get(path, { token: sender.token });
    expect(archive.status).toBe(200);
    expect(archive.headers.get('Content-Disposition')).toBe(`attachment; filename="data-export-${asked.body.id}.json"`);
    const body = archive.body;
    expect(body.profile).toMatchObject({ id: sender.id, email: reg.email, phoneNumber: '+33612345678' });
    expect(body.profile).not.toHaveProperty('passwordHash');
    expect(body.reservations.map((r: any) => r.id)).toEqual([reservation.id]);
    expect(body.reservations[0]).not.toHaveProperty('deliveryCode');
    expect(body.trips).toEqual([]);
    expect(body.messages).toEqual([
      { reservationId: reservation.id, messages: [expect.objectContaining({ body: 'Bonjour, le colis est fragile' }), expect.objectContaining({ body: 'Bien noté' })] },
    ]);
    expect(body.notifications).toEqual(expect.arrayContaining([expect.objectContaining({ title: 'Livré' })]));
    expect(body.devices).toEqual([expect.objectContaining({ platform: 'ANDROID' })]);
    expect(body.devices[0]).not.toHaveProperty('token');
    expect(body.preferences.searchAlerts).toEqual([expect.objectContaining({ name: 'Paris-Dakar' })]);
    expect(body.files).toEqual([expect.objectContaining({ id: avatar.id, purpose: 'AVATAR', url: `/v1/api/files/${avatar.id}` })]);
    expect(Object.keys(body)).toEqual(
      expect.arrayContaining(['profile', 'trips', 'reservations', 'messages', 'reviews', 'disputes', 'notifications', 'transactions', 'devices', 'preferences', 'files']),
    );
    expect(body.offers.map((o: any) => [o.id, o.senderId])).toEqual([[offer.body.id, sender.id]]);
    expect(body.reportsFiled).toEqual([expect.objectContaining({ targetType: 'ANNOUNCEMENT', targetId: openTrip.id, reason: 'SCAM' })]);
    expect(body.payoutAccounts.mobileMoney).toEqual([expect.objectContaining({ provider: 'WAVE', phone: '+221771234567' })]);
    expect(body.withdrawals).toEqual([expect.objectContaining({ amountCents: 5_000, currency: 'XOF' })]);
    expect(body.withdrawals[0]).not.toHaveProperty('token');
    // The carrier's archive holds the trip.
    await post(EXPORTS, undefined, { token: carrier.token });
    await buildPendingExports(deps());
    const [carrierExport] = await db.select().from(dataExports).where(eq(dataExports.userId, carrier.id));
    expect((await get(`${EXPORTS}/${carrierExport.id}`, { token: carrier.token })).body.trips.map((t: any) => t.id)).toEqual([trip.id, openTrip.id]);

    // Only its owner downloads it.
    expect((await get(path, { token: stranger.token })).status).toBe(404);

    // After 7 days: gone (404 like an unknown export), then the job deletes the object and the row.
    // (The 7 days pass: the row's deadline is moved, the access token would not outlive a real week.)
    const expired = new Date(Date.now() - 1000).toISOString();
    await db.update(dataExports).set({ expiresAt: expired }).where(eq(dataExports.id, row.id));
    const gone = await get(path, { token: sender.token });
    expect(gone.status).toBe(404);
    expect(errorBody(gone)).toMatchObject({ errorCode: 'RESOURCE_NOT_FOUND', message: `Data export ${row.id} not found` });
    expect(await env.UPLOADS.head(row.storageKey!)).not.toBeNull();
    expect(await purgeExpiredExports(deps(), new Date())).toBeGreaterThanOrEqual(1);
    expect(await env.UPLOADS.head(row.storageKey!)).toBeNull();
    expect(await db.select().from(dataExports).where(eq(dataExports.id, row.id))).toEqual([]);
  });

  it('is built by the cron, not on the request path', async () => {
    const user = await aUser();
    const asked = await post(EXPORTS, undefined, { token: user.token });
    await runCron();
    const res = await get(`${EXPORTS}/${asked.body.id}`, { token: user.token });
    expect(res.status).toBe(200);
    expect(res.body.profile).toMatchObject({ id: user.id, email: user.email });
  });

  it('allows 3 exports a day, then 429', async () => {
    const user = await aUser();
    for (let i = 0; i < 3; i++) {
      const res = await post(EXPORTS, undefined, { token: user.token });
      expect(res.status).toBe(202);
      await db.update(dataExports).set({ status: 'FAILED' }).where(eq(dataExports.id, res.body.id));
    }
    const res = await post(EXPORTS, undefined, { token: user.token });
    expect(res.status).toBe(429);
    expect(errorBody(res)).toMatchObject({ status: 429, errorCode: 'BUSINESS_RULE_VIOLATION', message: 'At most 3 exports of your data a day; try again later' });
    expect(res.headers.get('Retry-After')).toBe('3600');
  });

  it('needs a signed-in caller', async () => {
    expect((await post(EXPORTS)).status).toBe(401);
    expect((await get(`${EXPORTS}/1`)).status).toBe(401);
  });
});

// ---- Erasure -----------------------------------------------------------------------------------

describe('DELETE /user/me: erasure', () => {
  it('is refused 409 INVALID_STATE while the user has an open trip', async () => {
    const carrier = await aCarrier();
    const trip = await aTrip(carrier);
    const res = await del(ME, { token: carrier.token });
    expect(res.status).toBe(409);
    expect(errorBody(res)).toEqual({
      status: 409,
      errorCode: 'INVALID_STATE',
      reason: 'ACCOUNT_HAS_OPEN_TRIPS',
      message: `The account cannot be deleted while a trip is open (${trip.id}); close or cancel it first`,
      path: ME,
      suggestions: [],
    });
    const fr = await del(ME, { token: carrier.token, headers: { 'Accept-Language': 'fr' } });
    expect(fr.body.message).toBe(`Le compte ne peut pas être supprimé tant qu’un trajet est ouvert (${trip.id}) ; clôturez-le ou annulez-le d’abord`);
    expect((await get(ME, { token: carrier.token })).status).toBe(200);
  });

  it('is refused while a reservation is unfinished, as sender or carrier', async () => {
    const { sender, carrier, reservation } = await aReservation({ status: 'IN_TRANSIT' });
    for (const user of [sender, carrier]) {
      const res = await del(ME, { token: user.token });
      expect(res.status).toBe(409);
      expect(errorBody(res)).toMatchObject({
        errorCode: 'INVALID_STATE',
        message: `The account cannot be deleted while a reservation is in progress (${reservation.reservationNumber}); wait until it is delivered, cancelled or its dispute is closed`,
      });
    }
  });

  it('erases the personal data, keeps the money records pseudonymised, and sign-in stays impossible', async () => {
    const reg = await registerUser({ phoneNumber: '+33611111111', birthDate: '1985-05-05' });
    const sender: TestUser = { id: reg.id, email: reg.email, roles: ['ROLE_CLIENT'], token: reg.accessToken };
    const carrier = await aCarrier();
    const recipient = { firstName: 'Awa', lastName: 'Diop', phone: '+221770000000', email: 'awa@example.sn', address: '12 rue X' };
    const { reservation, trip } = await aReservation({ sender, carrier, status: 'DELIVERED', set: { recipient, deliveredAt: new Date().toISOString() } });
    await db.update(announcements).set({ status: 'CLOSED' }).where(eq(announcements.id, trip.id));
    await message(sender.token, reservation.id, 'Mon adresse est 12 rue X');
    await message(carrier.token, reservation.id, 'Merci, à bientôt');
    const [dispute] = await db
      .insert(disputes)
      .values({ reservationId: reservation.id, openedBy: sender.id, openerRole: 'SENDER', reason: 'DAMAGED', description: 'Carton abîmé', status: 'RESOLVED', previousStatus: 'DELIVERED', token: crypto.randomUUID() } as any)
      .returning();
    await db.insert(disputeMessages).values({ disputeId: dispute.id, authorId: sender.id, body: 'Voici les photos' } as any);
    await db.insert(devices).values({ userId: sender.id, token: `fcm-${crypto.randomUUID()}`, platform: 'IOS' });
    await db.insert(searchAlerts).values({ userId: sender.id, name: 'Lyon-Abidjan' });
    await db.insert(notificationPreferences).values({ userId: sender.id, kind: 'ALERT_MATCH', email: false, push: true, sms: false });
    await db.insert(notifications).values({ userId: sender.id, type: 'RESERVATION_DELIVERED', title: 'Livré', message: 'x' });
    await db.insert(deliveries).values({ userId: sender.id, channel: 'SMS', to: '+33611111111', template: 'RESERVATION_DELIVERED', payload: {} });
    const avatar = await storedFile(sender, 'AVATAR');
    const kycDocument = await storedFile(sender, 'KYC_DOCUMENT');
    await db.insert(kycRecords).values({
      userId: sender.id, status: 'VERIFIED', externalUserId: 'ext', sessionId: `s-${crypto.randomUUID()}`, kycSessionUrl: 'https://kyc.test/s', kycSessionToken: 'secret', submittedAt: ago(40), reviewedAt: ago(39),
    });
    // The sender's payment, as the ledger recorded it: a money record that must outlive the account.
    const [entry] = await db
      .insert(ledgerEntries)
      .values({ key: `escrow-in:${reservation.id}`, token: crypto.randomUUID(), type: 'PAYMENT_ESCROWED', reservationId: reservation.id, description: 'Paiement' })
      .returning();
    const [payment] = await db
      .insert(transactions)
      .values({ ownerType: 'USER', ownerId: sender.id, type: 'PAYMENT', amountCents: -5000, currency: 'EUR', ledgerEntryId: entry.id, reservationId: reservation.id, description: 'Paiement' })
      .returning();
    const balances = await db.select().from(ledgerAccounts);

    const res = await del(ME, { token: sender.token });
    expect(res.status).toBe(200);

    const [row] = await db.select().from(users).where(eq(users.id, sender.id));
    expect(row).toMatchObject({ email: `deleted-user-${sender.id}@deleted.invalid`, phoneNumber: null, birthDate: null, googleSubject: null, appleSubject: null, enabled: false });
    for (const table of [devices, searchAlerts, notifications]) expect(await db.select().from(table).where(eq(table.userId, sender.id))).toEqual([]);
    expect(await db.select().from(notificationPreferences).where(eq(notificationPreferences.userId, sender.id))).toEqual([]);
    expect(await db.select().from(deliveries).where(eq(deliveries.userId, sender.id))).toEqual([]);
    expect(await db.select().from(files).where(eq(files.ownerId, sender.id))).toEqual([]);
    expect(await env.UPLOADS.head(avatar.storageKey)).toBeNull();
    expect(await env.UPLOADS.head(kycDocument.storageKey)).toBeNull();
    const [kyc] = await db.select().from(kycRecords).where(eq(kycRecords.userId, sender.id));
    expect(kyc).toMatchObject({ status: 'VERIFIED', kycSessionToken: null });
    // The recipient's details are gone; the reservation and its money stay.
    const [after] = await db.select().from(reservations).where(eq(reservations.id, reservation.id));
    expect(after.recipient).toEqual(ERASED_RECIPIENT);
    expect(after).toMatchObject({ status: 'DELIVERED', totalAmountCents: reservation.totalAmountCents, senderId: sender.id });
    // The user's message bodies are emptied; the carrier's stay.
    const { messages } = await conversationStub(reservation.id).messages({ reservationId: reservation.id, order: 'asc', limit: 10, offset: 0 });
    expect(messages.map((m) => [m.authorId, m.authorName, m.body])).toEqual([
      [sender.id, '', ''],
      [carrier.id, expect.stringMatching(/\S/), 'Merci, à bientôt'],
    ]);
    expect((await db.select().from(disputeMessages).where(eq(disputeMessages.disputeId, dispute.id)))[0].body).toBe('');
    // The carrier's notice of the sender's message no longer names the sender, in either language.
    const [toCarrier] = await db.select().from(notifications).where(and(eq(notifications.userId, carrier.id), eq(notifications.type, 'NEW_MESSAGE')));
    expect(toCarrier.message).toBe(`A deleted user wrote about reservation ${reservation.reservationNumber}.`);
    expect(toNotification(toCarrier, 'fr').message).toBe(`Un utilisateur supprimé a écrit au sujet de la réservation ${reservation.reservationNumber}.`);
    expect(toNotification(toCarrier, 'en').message).toBe(toCarrier.message);
    // Money: the same transactions and balances.
    expect(await db.select().from(transactions).where(eq(transactions.id, payment.id))).toEqual([payment]);
    expect(await db.select().from(ledgerEntries).where(eq(ledgerEntries.id, entry.id))).toEqual([entry]);
    expect(await db.select().from(ledgerAccounts)).toEqual(balances);
    expect(await db.select().from(auditLogs).where(and(eq(auditLogs.action, 'ACCOUNT_DELETED'), eq(auditLogs.targetId, String(sender.id))))).toHaveLength(1);

    // Sign-in impossible; the old token refused; a second DELETE changes nothing.
    expect((await login(reg.email)).status).toBe(401);
    expect((await get(ME, { token: sender.token })).status).toBe(401);
    expect((await del(ME, { token: sender.token })).status).toBe(401);
    // The public profile shows the placeholder.
    const viewer = await aUser();
    expect((await get(`/v1/api/users/${sender.id}`, { token: viewer.token })).body).toMatchObject({ firstName: 'Deleted', lastName: 'User' });
  });
});

describe('DELETE /user/me: social sign-in afterwards', () => {
  const GOOGLE = { url: 'https://www.googleapis.com/oauth2/v3/certs', iss: 'https://accounts.google.com', aud: 'test-google-client' };

  it('the Google account no longer reaches the deleted account: signing in again opens a new, empty one', async () => {
    const google = await createIdp('privacy-google-key');
    serveJwks({ [GOOGLE.url]: [google.jwk] });
    const email = uniqueEmail('gdel');
    const sub = crypto.randomUUID();
    const idToken = await signIdToken(google, { issuer: GOOGLE.iss, audience: GOOGLE.aud, subject: sub, email, extra: { given_name: 'Gia', family_name: 'Google' } });
    const first = await post('/v1/api/auth/oauth2/google', { idToken });
    expect(first.status).toBe(200);
    expect((await del(ME, { token: first.body.accessToken })).status).toBe(200);

    // A new token of the same Google account (each token signs in once).
    const fresh = await signIdToken(google, { issuer: GOOGLE.iss, audience: GOOGLE.aud, subject: sub, email, extra: { given_name: 'Gia', family_name: 'Google' } });
    const again = await post('/v1/api/auth/oauth2/google', { idToken: fresh });
    expect(again.status).toBe(200);
    expect(again.body.user.id).not.toBe(first.body.user.id);
    const [old] = await db.select().from(users).where(eq(users.id, first.body.user.id));
    expect(old).toMatchObject({ googleSubject: null, enabled: false, email: `deleted-user-${old.id}@deleted.invalid` });
    expect((await get(ME, { token: first.body.accessToken })).status).toBe(401);
  });
});

// ---- Retention ---------------------------------------------------------------------------------

describe('the retention job', () => {
  const now = new Date();

  it('deletes read notifications after 90 days and unread ones after a year', async () => {
    const user = await aUser();
    const read = ago(1);
    const rows = await db
      .insert(notifications)
      .values([
        { userId: user.id, type: 'ALERT_MATCH', title: 'read-in', message: 'x', readAt: read, createdAt: inside(RETENTION_DAYS.readNotifications, now) },
        { userId: user.id, type: 'ALERT_MATCH', title: 'read-out', message: 'x', readAt: read, createdAt: outside(RETENTION_DAYS.readNotifications, now) },
        { userId: user.id, type: 'ALERT_MATCH', title: 'unread-in', message: 'x', createdAt: inside(RETENTION_DAYS.unreadNotifications, now) },
        { userId: user.id, type: 'ALERT_MATCH', title: 'unread-out', message: 'x', createdAt: outside(RETENTION_DAYS.unreadNotifications, now) },
      ])
      .returning();
    await purgeNotifications(deps(), now);
    const left = await db.select({ title: notifications.title }).from(notifications).where(eq(notifications.userId, user.id));
    expect(left.map((r) => r.title).sort()).toEqual(['read-in', 'unread-in']);
    expect(rows).toHaveLength(4);
  });

  it('deletes delivery rows after 90 days', async () => {
    const user = await aUser();
    const row = (createdAt: string, to: string) => ({ userId: user.id, channel: 'EMAIL' as const, to, template: 'EMAIL_VERIFICATION', payload: {}, status: 'SENT' as const, createdAt });
    await db.insert(deliveries).values([row(inside(RETENTION_DAYS.deliveries, now), 'in@x.test'), row(outside(RETENTION_DAYS.deliveries, now), 'out@x.test')]);
    await purgeDeliveries(deps(), now);
    expect((await db.select({ to: deliveries.to }).from(deliveries).where(eq(deliveries.userId, user.id))).map((r) => r.to)).toEqual(['in@x.test']);
  });

  it('deletes tracking points 30 days after the reservation finished, once', async () => {
    const finished = async (deliveredAt: string) => {
      const { reservation } = await aReservation({ status: 'DELIVERED', set: { depositedAt: ago(60), deliveredAt } });
      await trackingStub(reservation.id).append([{ lat: 14.7, lng: -17.4, recordedAt: ago(60) }]);
      return reservation.id;
    };
    const kept = await finished(inside(RETENTION_DAYS.trackingPoints, now));
    const purged = await finished(outside(RETENTION_DAYS.trackingPoints, now));
    await purgeTrackingPoints(deps(), now);
    expect((await trackingStub(kept).history()).positions).toHaveLength(1);
    expect((await trackingStub(purged).history()).positions).toHaveLength(0);
    const [mark] = await db.select().from(reservationErasures).where(eq(reservationErasures.reservationId, purged));
    expect(mark.trackingAt).toBe(now.toISOString());
    expect(await db.select().from(reservationErasures).where(eq(reservationErasures.reservationId, kept))).toEqual([]);
    // Done once: the next run does not wake that object again (a point written since is left alone).
    await trackingStub(purged).append([{ lat: 1, lng: 1, recordedAt: ago(1) }]);
    await purgeTrackingPoints(deps(), now, 10_000);
    expect((await trackingStub(purged).history()).positions).toHaveLength(1);
  });

  it('erases recipients and message bodies a year after the reservation finished, not while a dispute is open', async () => {
    const recipient = { firstName: 'Awa', lastName: 'Diop', phone: '+221770000000' };
    const made = async (deliveredAt: string) => {
      const { reservation, sender } = await aReservation({ status: 'DELIVERED', set: { recipient, deliveredAt: new Date().toISOString() } });
      await message(sender.token, reservation.id, 'Code porte 1234');
      await db.update(reservations).set({ deliveredAt }).where(eq(reservations.id, reservation.id));
      return reservation;
    };
    const kept = await made(inside(RETENTION_DAYS.reservationPersonalData, now));
    const erased = await made(outside(RETENTION_DAYS.reservationPersonalData, now));
    const disputed = await made(outside(RETENTION_DAYS.reservationPersonalData, now));
    await db.insert(disputes).values({ reservationId: disputed.id, openedBy: disputed.senderId, openerRole: 'SENDER', reason: 'DAMAGED', description: 'x', status: 'OPEN', previousStatus: 'DELIVERED', token: crypto.randomUUID() } as any);

    await erasePersonalReservationData(deps(), now, 10_000);
    const recipientOf = async (id: number) => (await db.select().from(reservations).where(eq(reservations.id, id)))[0].recipient;
    const bodies = async (id: number) =>
      (await conversationStub(id).messages({ reservationId: id, order: 'asc', limit: 10, offset: 0 })).messages.map((m) => m.body);
    expect(await recipientOf(kept.id)).toMatchObject(recipient);
    expect(await bodies(kept.id)).toEqual(['Code porte 1234']);
    expect(await recipientOf(erased.id)).toEqual(ERASED_RECIPIENT);
    expect(await bodies(erased.id)).toEqual(['']);
    const [indexed] = await db.select().from(conversations).where(eq(conversations.reservationId, erased.id));
    expect(indexed.lastMessage?.body).toBe('');
    expect(await recipientOf(disputed.id)).toMatchObject(recipient);
    expect(await bodies(disputed.id)).toEqual(['Code porte 1234']);
  });

  it('deletes KYC documents 30 days after the decision and keeps the record', async () => {
    const decided = async (reviewedAt: string) => {
      const user = await aUser();
      const file = await storedFile(user, 'KYC_DOCUMENT', ago(100));
      await db.insert(kycRecords).values({
        userId: user.id, status: 'VERIFIED', externalUserId: 'ext', sessionId: `s-${crypto.randomUUID()}`, kycSessionUrl: 'https://kyc.test/s', submittedAt: ago(100), reviewedAt,
      });
      return { user, file };
    };
    const kept = await decided(inside(RETENTION_DAYS.kycDocuments, now));
    const purged = await decided(outside(RETENTION_DAYS.kycDocuments, now));
    await purgeKycDocuments(deps(), now, 10_000);
    expect(await db.select().from(files).where(eq(files.id, kept.file.id))).toHaveLength(1);
    expect(await env.UPLOADS.head(kept.file.storageKey)).not.toBeNull();
    expect(await db.select().from(files).where(eq(files.id, purged.file.id))).toEqual([]);
    expect(await env.UPLOADS.head(purged.file.storageKey)).toBeNull();
    expect(await db.select().from(kycRecords).where(eq(kycRecords.userId, purged.user.id))).toHaveLength(1);
  });

  it('runs once a day, in the cron run of 03:00-03:04 UTC', async () => {
    const user = await aUser();
    const slot = new Date();
    slot.setUTCHours(3, 2, 0, 0);
    const offSlot = new Date(slot.getTime() + 10 * 60_000);
    await db.insert(notifications).values({ userId: user.id, type: 'ALERT_MATCH', title: 'old', message: 'x', readAt: ago(200), createdAt: ago(200) });
    await runCron(offSlot.getTime());
    expect(await db.select().from(notifications).where(eq(notifications.userId, user.id))).toHaveLength(1);
    await runCron(slot.getTime());
    expect(await db.select().from(notifications).where(eq(notifications.userId, user.id))).toEqual([]);
  });

  it('runs every rule in one pass and logs the counts', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const counts = await runRetention(deps(), now);
    expect(Object.keys(counts).sort()).toEqual([
      'auditIps', 'deliveries', 'exports', 'kycDocuments', 'notifications', 'offerRecipients', 'personalDataReservations', 'phoneCodes', 'trackingReservations', 'travelProofs',
    ]);
    expect(log).toHaveBeenCalledWith(expect.stringContaining('"event":"privacy.retention"'));
  });
});
