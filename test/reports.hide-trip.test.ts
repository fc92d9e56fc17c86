// A report closed with HIDE_ANNOUNCEMENT (docs/decisions-moderation.md), through the real worker
// and D1: the trip leaves the search and refuses bookings and offers; its reservations not yet
// handed over are cancelled with a full refund (the card hold voided, a captured payment refunded
// at the provider's fetch boundary), capacity released, senders and carrier told (notifications and
// outbox), audited; a parcel already handed over keeps its delivery; the close is idempotent under
// concurrency (a double close, a booking racing the close); the cron finishes what is left.
import { env } from 'cloudflare:workers';
import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { formatMoneyIn } from '../src/lib/money';
import { announcements, auditLogs, deliveries, notifications, offers, reservations } from '../src/db/schema';
import { depsOf } from '../src/env';
import { captureLoaded } from '../src/features/money';
import { notificationLine } from '../src/features/deliveries/templates/notifications';
import { db, reservationRow, runCron, tripRow } from './helpers/db';
import { aCarrier, aCategory, anAdmin, aReservation, aTrip, aUser, bookingInput, FIFTY_EUR, type TestUser } from './helpers/factories';
import { get, post } from './helpers/http';
import { fakeStripeForThisFile, ledgerInvariantViolations, reservationMoney } from './helpers/money';

const stripe = fakeStripeForThisFile();
const paid = { payment: stripe, ...FIFTY_EUR };

const capture = async (id: number) => (await captureLoaded(depsOf(env), await reservationRow(id))).paymentStatus === 'CAPTURED';

/** A day as each language writes it in a notice. */
const day = (iso: string, locale: string) => new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${iso}T00:00:00Z`));

/** A sender's notices about the cancellation and its money: [type, message] (not the payment's own). */
const notesOf = async (userId: number) =>
  (
    await db()
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, userId), inArray(notifications.type, ['RESERVATION_CANCELLED', 'PAYMENT_RELEASED', 'PAYMENT_REFUNDED'])))
      .orderBy(notifications.id)
  ).map((n) => [n.type, n.message]);
const outboxOf = (userId: number, template: string) =>
  db().select().from(deliveries).where(and(eq(deliveries.userId, userId), eq(deliveries.template, template)));
const auditOf = (action: string, targetId: number) =>
  db().select().from(auditLogs).where(and(eq(auditLogs.action, action), eq(auditLogs.targetId, String(targetId))));

/** A trip at 12.50 EUR/kg (4 kg = 50.00 EUR), reported by a user; an admin to close the report. */
async function reportedTrip() {
  const carrier = await aCarrier();
  const admin = await anAdmin();
  const reporter = await aUser();
  const trip = await aTrip(carrier, { pricePerKgCents: FIFTY_EUR.pricePerKgCents, totalWeightG: 40_000, reservedWeightG: 0 });
  const report = await post('/v1/api/reports', { targetType: 'ANNOUNCEMENT', targetId: trip.id, reason: 'Prohibited goods' }, { token: reporter.token });
  expect(report.status).toBe(201);
  return { carrier, admin, reporter, trip, reportId: report.body.id as number };
}

const hide = (admin: TestUser, reportId: number, note = 'Annonce frauduleuse') =>
  post(`/v1/api/admin/reports/${reportId}/close`, { action: 'HIDE_ANNOUNCEMENT', note }, { token: admin.token });

describe('closing a report with HIDE_ANNOUNCEMENT', () => {
  it('cancels the reservations not yet handed over with a full refund, tells every party, keeps the handed-over parcel on its way', async () => {
    const { carrier, admin, trip, reportId } = await reportedTrip();
    const on = { trip, carrier, reserveOnTrip: true };
    const unpaid = await aReservation({ ...on, status: 'PENDING_PAYMENT', ...FIFTY_EUR });
    const opened = await post('/v1/api/payments/checkout', { reservationId: unpaid.reservation.id }, { token: unpaid.sender.token });
    expect(opened.status).toBe(200); // its sender is on the provider's checkout page
    const sessionId = opened.body.paymentId as string;
    const authorised = await aReservation({ ...on, status: 'PAID', ...paid });
    const accepted = await aReservation({ ...on, status: 'CONFIRMED', ...paid });
    expect(await capture(accepted.reservation.id)).toBe(true); // captured early: the money goes back as a refund
    const deposited = await aReservation({ ...on, status: 'DEPOSITED', ...paid });
    expect((await tripRow(trip.id)).reservedWeightG).toBe(16_000);
    const before = stripe.requests.length;

    const res = await hide(admin, reportId);

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'CLOSED', action: 'HIDE_ANNOUNCEMENT', resolutionNote: 'Annonce frauduleuse' });
    // The trip: hidden, only the handed-over parcel's kilos still reserved.
    expect(await tripRow(trip.id)).toMatchObject({ status: 'CANCELLED', reservedWeightG: 4_000 });
    const cancelled = { status: 'CANCELLED', cancellationReason: 'TRIP_REMOVED', cancelledBy: admin.id };
    expect(await reservationRow(unpaid.reservation.id)).toMatchObject({ ...cancelled, paymentStatus: 'EXPIRED' });
    expect(await reservationRow(authorised.reservation.id)).toMatchObject({ ...cancelled, paymentStatus: 'VOIDED' });
    expect(await reservationRow(accepted.reservation.id)).toMatchObject({ ...cancelled, paymentStatus: 'REFUNDED', refundId: expect.stringMatching(/^re_/) });
    expect(await reservationRow(deposited.reservation.id)).toMatchObject({ status: 'DEPOSITED', paymentStatus: 'CAPTURED', cancelledAt: null });

    // The provider: the open checkout closed (its page can no longer be paid), one void of the hold,
    // one refund of the full 50.00 EUR, nothing for the deposited one.
    const calls = stripe.requests.slice(before);
    expect(calls).toHaveLength(3);
    expect(stripe.sessions.get(sessionId)!.status).toBe('expired');
    expect(calls).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ method: 'POST', path: `/v1/checkout/sessions/${sessionId}/expire` }),
        expect.objectContaining({ path: `/v1/payment_intents/${authorised.pi.id}/cancel`, idempotencyKey: `void-${authorised.reservation.id}` }),
        expect.objectContaining({ path: '/v1/refunds', body: expect.objectContaining({ payment_intent: accepted.pi.id, amount: '5000' }) }),
      ]),
    );
    // The ledger: nothing left in escrow or kept for the cancelled ones; the deposited one still held.
    for (const { reservation } of [authorised, accepted]) {
      expect(await reservationMoney(reservation.id)).toMatchObject({ ESCROW: 0, PROVIDER_CLEARING: 0, PLATFORM_REVENUE: 0, WALLET: 0 });
    }
    expect((await reservationMoney(deposited.reservation.id)).ESCROW).toBe(5000);
    expect(await ledgerInvariantViolations()).toEqual([]);

    // The senders and the carrier, told once each.
    const n = (f: { reservation: { reservationNumber: string } }) => f.reservation.reservationNumber;
    const removed = (f: { reservation: { reservationNumber: string } }) => `Booking ${n(f)} was cancelled: its trip was removed by the moderation team.`;
    expect(await notesOf(unpaid.sender.id)).toEqual([['RESERVATION_CANCELLED', removed(unpaid)]]);
    expect(await notesOf(authorised.sender.id)).toEqual([
      ['RESERVATION_CANCELLED', `${removed(authorised)} 50.00 EUR goes back to you in full.`],
      ['PAYMENT_RELEASED', `The hold of 50.00 EUR on your card for reservation ${n(authorised)} is released: nothing is charged.`],
    ]);
    expect(await notesOf(accepted.sender.id)).toEqual([
      ['RESERVATION_CANCELLED', `${removed(accepted)} 50.00 EUR goes back to you in full.`],
      ['PAYMENT_REFUNDED', `50.00 EUR for reservation ${n(accepted)} was refunded to the card you paid with. Your bank may take 5 to 10 days to show it.`],
    ]);
    expect(await notesOf(deposited.sender.id)).toEqual([]);
    const carrierNotes = await db().select().from(notifications).where(and(eq(notifications.userId, carrier.id), eq(notifications.type, 'TRIP_REMOVED')));
    expect(carrierNotes).toHaveLength(1);
    expect(carrierNotes[0]).toMatchObject({
      message: `Your trip Paris - Dakar of ${day(trip.departureDate, 'en-GB')} was removed by the moderation team (report #${reportId}: “Annonce frauduleuse”). Bookings not yet handed over are cancelled and their senders refunded in full; parcels already handed over to you must still be delivered.`,
      data: { announcementId: trip.id, reportId, note: 'Annonce frauduleuse' },
    });

    // The outbox: an e-mail each, in the addressee's language from the same payload.
    const [carrierMail] = await outboxOf(carrier.id, 'TRIP_REMOVED');
    expect(carrierMail).toMatchObject({ channel: 'EMAIL', status: expect.any(String) });
    expect(notificationLine('TRIP_REMOVED', 'fr', carrierMail.payload as Record<string, unknown>).line).toBe(
      `Votre trajet Paris - Dakar du ${day(trip.departureDate, 'fr-FR')} a été retiré par l'équipe de modération (signalement n° ${reportId} : « Annonce frauduleuse »). Les réservations pas encore remises sont annulées et leurs expéditeurs remboursés en totalité ; les colis qui vous ont déjà été remis doivent être livrés.`,
    );
    for (const f of [unpaid, authorised, accepted]) {
      const mails = await outboxOf(f.sender.id, 'RESERVATION_CANCELLED');
      expect(mails.map((m) => m.channel)).toEqual(['EMAIL']);
      // The French e-mail states the amount going back (CONTRACT section 26); nothing paid, nothing said about money.
      const back = f === unpaid ? '' : ` ${formatMoneyIn(5000, 'EUR', 'fr')} vous sont remboursés en totalité.`;
      expect(notificationLine('RESERVATION_CANCELLED', 'fr', mails[0].payload as Record<string, unknown>).line).toBe(
        `La réservation ${n(f)} a été annulée : son trajet a été retiré par l'équipe de modération.${back}`,
      );
    }
    // The audit: the close and the hiding, once each.
    expect(await auditOf('REPORT_CLOSED', reportId)).toHaveLength(1);
    expect(await auditOf('ANNOUNCEMENT_HIDDEN', trip.id)).toMatchObject([{ actorId: admin.id, details: { reportId, previousStatus: 'ACTIVE' } }]);

    // The handed-over parcel: its parties still read the trip and the booking, and it is delivered.
    expect((await get(`/v1/api/annonces/${trip.id}`, { token: deposited.sender.token })).body.status).toBe('CANCELLED');
    expect((await get(`/v1/api/bookings/${deposited.reservation.id}`, { token: deposited.sender.token })).status).toBe(200);
    const delivered = await post(`/v1/api/bookings/${deposited.reservation.id}/deliver`, { deliveryCode: deposited.reservation.deliveryCode }, { token: carrier.token });
    expect(delivered.status).toBe(200);
    expect(await reservationRow(deposited.reservation.id)).toMatchObject({ status: 'DELIVERED' });
  });

  it('takes the trip out of the search, refuses new bookings and offers on it (422) and closes its open offers, the sender told', async () => {
    const { admin, trip, reportId } = await reportedTrip();
    const category = await aCategory({ name: 'Books' });
    const offerer = await aUser();
    const offer = await post(
      `/v1/api/annonces/${trip.id}/offers`,
      { ...bookingInput(trip.id, category.id, 2), announcementId: undefined, pricePerKg: 11 },
      { token: offerer.token },
    );
    expect(offer.status).toBe(201);
    const listed = async () => ((await get('/v1/api/annonces?departureCity=Paris&arrivalCity=Dakar&size=100')).body.content as { id: number }[]).map((a) => a.id);
    expect(await listed()).toContain(trip.id);

    expect((await hide(admin, reportId)).status).toBe(200);

    expect(await listed()).not.toContain(trip.id);

    expect((await db().select().from(offers).where(eq(offers.id, offer.body.id)))[0]).toMatchObject({ status: 'EXPIRED' });
    const [note] = await db().select().from(notifications).where(and(eq(notifications.userId, offerer.id), eq(notifications.type, 'OFFER_EXPIRED')));
    expect(note.message).toBe('Your offer on Paris - Dakar is closed: the trip was removed by the moderation team.');
    const [mail] = await outboxOf(offerer.id, 'OFFER_EXPIRED');
    expect(notificationLine('OFFER_EXPIRED', 'fr', mail.payload as Record<string, unknown>).line).toBe("Votre offre sur Paris - Dakar est close : le trajet a été retiré par l'équipe de modération.");

    const sender = await aUser();
    const booking = await post('/v1/api/bookings', bookingInput(trip.id, category.id, 2), { token: sender.token });
    expect(booking.status).toBe(422);
    expect(booking.body.errorCode).toBe('BUSINESS_RULE_VIOLATION');
    const again = await post(`/v1/api/annonces/${trip.id}/offers`, { ...bookingInput(trip.id, category.id, 2), announcementId: undefined, pricePerKg: 11 }, { token: sender.token });
    expect(again.status).toBe(422);
    expect(again.body.errorCode).toBe('BUSINESS_RULE_VIOLATION');
  });

  it('two concurrent closes: one 200, one 409 INVALID_STATE; the refund, the notices and the audit happen once', async () => {
    const { carrier, admin, trip, reportId } = await reportedTrip();
    const admin2 = await anAdmin();
    const booked = await aReservation({ trip, carrier, reserveOnTrip: true, status: 'CONFIRMED', ...paid });
    expect(await capture(booked.reservation.id)).toBe(true);
    const before = stripe.requests.length;

    const results = await Promise.all([hide(admin, reportId), hide(admin2, reportId, 'Doublon')]);

    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const refused = results.find((r) => r.status === 409)!;
    expect(refused.body).toMatchObject({ errorCode: 'INVALID_STATE', message: `Report ${reportId} is already closed` });
    expect(stripe.requests.slice(before).filter((c) => c.path === '/v1/refunds')).toHaveLength(1);
    expect(await reservationRow(booked.reservation.id)).toMatchObject({ status: 'CANCELLED', paymentStatus: 'REFUNDED' });
    expect(await reservationMoney(booked.reservation.id)).toMatchObject({ ESCROW: 0, PROVIDER_CLEARING: 0 });
    expect(await notesOf(booked.sender.id)).toHaveLength(2); // the cancellation and the refund, once
    expect(await db().select().from(notifications).where(and(eq(notifications.userId, carrier.id), eq(notifications.type, 'TRIP_REMOVED')))).toHaveLength(1);
    expect(await auditOf('REPORT_CLOSED', reportId)).toHaveLength(1);
    expect(await auditOf('ANNOUNCEMENT_HIDDEN', trip.id)).toHaveLength(1);
    // A third close, sequential: 409, nothing more.
    const third = await hide(admin, reportId);
    expect(third.status).toBe(409);
    expect(stripe.requests.slice(before).filter((c) => c.path === '/v1/refunds')).toHaveLength(1);
    expect(await ledgerInvariantViolations()).toEqual([]);
  });

  it("the same admin's double click (often the same millisecond in the runtime): one close, every notice and audit entry once", async () => {
    for (let i = 0; i < 5; i++) {
      const { carrier, admin, reporter, trip, reportId } = await reportedTrip();
      const results = await Promise.all([hide(admin, reportId), hide(admin, reportId)]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      expect((await db().select().from(notifications).where(eq(notifications.userId, carrier.id))).map((n) => n.type)).toEqual(['TRIP_REMOVED']);
      expect((await db().select().from(notifications).where(eq(notifications.userId, reporter.id))).map((n) => n.type)).toEqual(['REPORT_CLOSED']);
      expect(await auditOf('REPORT_CLOSED', reportId)).toHaveLength(1);
      expect(await auditOf('ANNOUNCEMENT_HIDDEN', trip.id)).toHaveLength(1);
    }
  });

  it('a booking racing the close is either refused or cancelled; never left open on the hidden trip', async () => {
    const category = await aCategory({ name: 'Books' });
    for (let i = 0; i < 3; i++) {
      const { admin, trip, reportId } = await reportedTrip();
      const sender = await aUser();
      const [closed, booking] = await Promise.all([hide(admin, reportId), post('/v1/api/bookings', bookingInput(trip.id, category.id, 2), { token: sender.token })]);
      expect(closed.status).toBe(200);
      if (booking.status === 201) {
        expect(await reservationRow(booking.body.id)).toMatchObject({ status: 'CANCELLED', cancellationReason: 'TRIP_REMOVED' });
        expect((await tripRow(trip.id)).reservedWeightG).toBe(0);
      } else {
        expect(booking.status).toBe(422);
        expect(booking.body.errorCode).toBe('BUSINESS_RULE_VIOLATION');
      }
      const open = await db()
        .select()
        .from(reservations)
        .where(and(eq(reservations.announcementId, trip.id), inArray(reservations.status, ['PENDING_PAYMENT', 'PAID', 'CONFIRMED'])));
      expect(open).toEqual([]);
    }
  });

  it('a paid reservation left on a hidden trip (a sweep cut short) is cancelled and refunded by the cron', async () => {
    const carrier = await aCarrier();
    const trip = await aTrip(carrier, { pricePerKgCents: FIFTY_EUR.pricePerKgCents, totalWeightG: 40_000, reservedWeightG: 0 });
    const stranded = await aReservation({ trip, carrier, reserveOnTrip: true, status: 'PAID', ...paid });
    // The state a hide leaves when its sweep fails after the commit.
    await db().update(announcements).set({ status: 'CANCELLED' }).where(eq(announcements.id, trip.id));

    await runCron();

    expect(await reservationRow(stranded.reservation.id)).toMatchObject({ status: 'CANCELLED', cancellationReason: 'TRIP_REMOVED', cancelledBy: null, paymentStatus: 'VOIDED' });
    expect(await reservationMoney(stranded.reservation.id)).toMatchObject({ ESCROW: 0, PROVIDER_CLEARING: 0 });
    expect(await notesOf(stranded.sender.id)).toEqual([
      ['RESERVATION_CANCELLED', `Booking ${stranded.reservation.reservationNumber} was cancelled: its trip was removed by the moderation team. 50.00 EUR goes back to you in full.`],
      ['PAYMENT_RELEASED', `The hold of 50.00 EUR on your card for reservation ${stranded.reservation.reservationNumber} is released: nothing is charged.`],
    ]);
    expect((await tripRow(trip.id)).reservedWeightG).toBe(0);
    await runCron(); // nothing twice
    expect(await notesOf(stranded.sender.id)).toHaveLength(2);
  });
});
