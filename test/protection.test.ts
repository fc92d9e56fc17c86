// The protection option at the HTTP level (CONTRACT section 21): booking with protection (declared
// values required), the premium charged beside the price (Stripe lines, Wave amount), held as
// unearned, given back with a full refund of the price on every path and earned by the reserve
// otherwise (the cancellation quote says the same), GET /bookings/{id}/protection, and the
// PROTECTION_PAYOUT resolution of a dispute paid from the reserve.
import { env } from 'cloudflare:workers';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLogs, moneyDocuments, transactions, users } from '../src/db/schema';
import { db, reservationRow } from './helpers/db';
import { aCarrier, aCategory, anAdmin, aReservation, aTrip, aUser, bookingInput, FIFTY_EUR } from './helpers/factories';
import { errorBody, get, post } from './helpers/http';
import { toldTo } from './helpers/notices';
import { formatMoneyIn } from '../src/lib/money';

const eur = (minor: number, locale: 'fr' | 'en') => formatMoneyIn(minor, 'EUR', locale);
import { accountBalance, fakeStripeForThisFile, ledgerInvariantViolations, reservationMoney, walletKey } from './helpers/money';

const stripe = fakeStripeForThisFile();
const RESERVE = 'PROTECTION_RESERVE';
const PREMIUMS = 'PROTECTION_PREMIUMS';

/** 50.00 EUR paid by card, declared 100.00 EUR, premium 3.00 EUR (3 % of the 20.00 minimum is less). */
const PROTECTED = { protectionPremiumCents: 300, protectionDeclaredCents: 10_000, protectionCoverageCents: 10_000 };
const paidProtected = { payment: stripe, ...FIFTY_EUR, set: PROTECTED };

const protectionOf = (token: string, id: number) => get(`/v1/api/bookings/${id}/protection`, { token });

async function bookingSetup() {
  const carrier = await aCarrier();
  const sender = await aUser();
  const category = await aCategory({ name: 'Electronics' });
  const trip = await aTrip(carrier, { pricePerKgCents: 1_250, totalWeightG: 20_000 });
  return { carrier, sender, category, trip };
}

describe('POST /bookings with protection', () => {
  it('without a declared value on every item: 400 VALIDATION_ERROR naming each item, in English and French', async () => {
    const { sender, category, trip } = await bookingSetup();
    const body = bookingInput(trip.id, category.id, 2, {
      protection: true,
      // A phone or laptop carries a lithium battery: the corridor's restriction is acknowledged (CONTRACT 26).
      acknowledgedRestrictions: ['LITHIUM_IN_DEVICE'],
      items: [
        { categoryId: category.id, name: 'Phone', weight: 0.5, declaredValue: 300 },
        { categoryId: category.id, name: 'Shoes', weight: 1 },
      ],
    });
    const en = await post('/v1/api/bookings', body, { token: sender.token });
    expect(en.status).toBe(400);
    expect(errorBody(en)).toMatchObject({
      status: 400,
      errorCode: 'VALIDATION_ERROR',
      message: 'Protection needs the declared value of every item, above zero in total',
      fieldErrors: [{ field: 'items[1].declaredValue', message: 'Declare what this item is worth to protect the parcel', rejectedValue: null }],
      suggestions: ['Declare what each item is worth, or book without protection'],
    });
    const fr = await post('/v1/api/bookings', body, { token: sender.token, headers: { 'Accept-Language': 'fr' } });
    expect(errorBody(fr)).toMatchObject({
      errorCode: 'VALIDATION_ERROR',
      message: 'La protection exige la valeur déclarée de chaque objet, supérieure à zéro au total',
      fieldErrors: [{ field: 'items[1].declaredValue', message: 'Déclarez la valeur de cet objet pour protéger le colis' }],
    });
    const zero = await post('/v1/api/bookings', bookingInput(trip.id, category.id, 2, { protection: true, items: [{ categoryId: category.id, weight: 1, declaredValue: 0 }] }), {
      token: sender.token,
    });
    expect(errorBody(zero)).toMatchObject({ errorCode: 'VALIDATION_ERROR', fieldErrors: [{ field: 'protection' }] });
  });

  it('with declared values: 201, totalAmount stays the transport price, the premium and coverage are kept, GET /protection shows them', async () => {
    const { sender, carrier, category, trip } = await bookingSetup();
    const res = await post(
      '/v1/api/bookings',
      bookingInput(trip.id, category.id, 4, {
        protection: true,
        // A phone or laptop carries a lithium battery: the corridor's restriction is acknowledged (CONTRACT 26).
        acknowledgedRestrictions: ['LITHIUM_IN_DEVICE'],
        items: [
          { categoryId: category.id, name: 'Laptop', weight: 2, declaredValue: 1200.5 },
          { categoryId: category.id, name: 'Books', weight: 1, declaredValue: 45 },
        ],
      }),
      { token: sender.token },
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ totalAmount: 50, platformCommission: 7.5, carrierAmount: 42.5, currency: 'EUR' });
    // 3 % of 1,245.50 = 37.365 -> 37.37
    expect(await reservationRow(res.body.id)).toMatchObject({ totalAmountCents: 5_000, protectionPremiumCents: 3_737, protectionDeclaredCents: 124_550, protectionCoverageCents: 124_550 });

    const expected = { protected: true, declaredValue: 1245.5, premium: 37.37, coverage: 1245.5, currency: 'EUR', claim: null };
    expect((await protectionOf(sender.token, res.body.id)).body).toEqual(expected);
    expect((await protectionOf(carrier.token, res.body.id)).body).toEqual(expected);
    expect((await protectionOf((await anAdmin()).token, res.body.id)).status).toBe(200);
    const stranger = await protectionOf((await aUser()).token, res.body.id);
    expect(stranger.status).toBe(403);
    expect(errorBody(stranger)).toMatchObject({ errorCode: 'ACCESS_DENIED' });
    expect((await protectionOf(sender.token, 999_999)).status).toBe(404);
  });

  it('a declared value above the maximum covered value: the premium and the coverage are capped (2,000 EUR)', async () => {
    const { sender, category, trip } = await bookingSetup();
    const res = await post('/v1/api/bookings', bookingInput(trip.id, category.id, 2, { protection: true, items: [{ categoryId: category.id, weight: 1, declaredValue: 5000 }] }), {
      token: sender.token,
    });
    expect(res.status).toBe(201);
    expect((await protectionOf(sender.token, res.body.id)).body).toEqual({ protected: true, declaredValue: 5000, premium: 60, coverage: 2000, currency: 'EUR', claim: null });
  });

  it('in XOF: the premium in whole francs', async () => {
    const carrier = await aCarrier();
    const sender = await aUser();
    const category = await aCategory();
    const trip = await aTrip(carrier, { currency: 'XOF', pricePerKgCents: 2_500, totalWeightG: 20_000 });
    const res = await post('/v1/api/bookings', bookingInput(trip.id, category.id, 2, { protection: true, items: [{ categoryId: category.id, weight: 1, declaredValue: 65_595 }] }), {
      token: sender.token,
    });
    expect(res.status).toBe(201);
    expect((await protectionOf(sender.token, res.body.id)).body).toEqual({ protected: true, declaredValue: 65_595, premium: 1_968, coverage: 65_595, currency: 'XOF', claim: null });
  });

  it('without protection: protected false, premium 0', async () => {
    const { sender, category, trip } = await bookingSetup();
    const res = await post('/v1/api/bookings', bookingInput(trip.id, category.id, 2), { token: sender.token });
    expect((await protectionOf(sender.token, res.body.id)).body).toEqual({ protected: false, declaredValue: null, premium: 0, coverage: null, currency: 'EUR', claim: null });
  });
});

describe('the premium charged beside the price', () => {
  it("the card checkout has the transport line and the protection line, the session the sum, in the payer's language", async () => {
    const checkoutOf = async (locale: 'fr' | 'en', price: { weightG: number; pricePerKgCents: number }) => {
      const sender = await aUser();
      await db().update(users).set({ locale }).where(eq(users.id, sender.id));
      const { reservation } = await aReservation({ sender, ...price, set: PROTECTED });
      const before = stripe.requests.length;
      // The request's Accept-Language does not change what the provider is sent: the stored preference does.
      const res = await post('/v1/api/payments/checkout', { reservationId: reservation.id }, { token: sender.token, headers: { 'Accept-Language': locale === 'fr' ? 'en' : 'fr' } });
      expect(res.status).toBe(200);
      const [req] = stripe.requests.slice(before);
      return { number: reservation.reservationNumber, locale: req.body.locale, lines: req.body.line_items.map((l: any) => [l.price_data.product_data.name, l.price_data.unit_amount]) };
    };
    const english = await checkoutOf('en', FIFTY_EUR);
    expect(english).toEqual({
      number: english.number,
      locale: 'en',
      lines: [
        [`Parcel transport ${english.number} (4 kg)`, '5000'],
        [`Protection of the declared value, reservation ${english.number}`, '300'],
      ],
    });
    const french = await checkoutOf('fr', { weightG: 2_500, pricePerKgCents: 2_000 });
    expect(french.locale).toBe('fr');
    expect(french.lines.map(([name]: string[]) => name)).toEqual([`Transport de colis ${french.number} (2,5 kg)`, `Protection de la valeur déclarée, réservation ${french.number}`]);
  });

  it('the authorised payment: 50.00 in escrow, 3.00 in the unearned premiums (not the reserve), the sender paid 53.00', async () => {
    const { reservation } = await aReservation({ status: 'PAID', ...paidProtected });
    expect(await reservationMoney(reservation.id)).toMatchObject({ ESCROW: 5_000, PROTECTION_PREMIUMS: 300, PROTECTION_RESERVE: 0, PROVIDER_CLEARING: -5_300 });
    const [payment] = await db().select().from(transactions).where(and(eq(transactions.reservationId, reservation.id), eq(transactions.type, 'PAYMENT')));
    expect(payment.amountCents).toBe(-5_300);
    expect(await ledgerInvariantViolations()).toEqual([]);
    expect((await reservationRow(reservation.id)).status).toBe('PAID');
  });

  it('the invoice at capture has the protection line beside the transport total', async () => {
    const { reservation } = await aReservation({ status: 'DEPOSITED', ...paidProtected });
    const [invoice] = await db().select().from(moneyDocuments).where(and(eq(moneyDocuments.reservationId, reservation.id), eq(moneyDocuments.kind, 'INVOICE')));
    expect(invoice).toMatchObject({ totalCents: 5_000, carrierCents: 4_250, commissionCents: 750, protectionCents: 300 });
    expect(stripe.paymentIntents.get((await reservationRow(reservation.id)).authorizationId!)!.amount_received).toBe(5_300);
  });
});

describe('the premium goes back with a full refund of the price, and only then', () => {
  it('the sender cancels a PAID booking: the quote says 53.00 back, the whole hold is voided, the unearned premiums give the premium back', async () => {
    const { sender, reservation } = await aReservation({ status: 'PAID', ...paidProtected });
    const [reserveBefore, premiumsBefore] = [await accountBalance(RESERVE), await accountBalance(PREMIUMS)];
    const quote = await get(`/v1/api/bookings/${reservation.id}/cancellation-quote`, { token: sender.token });
    expect(quote.body).toMatchObject({ refundAmount: 53, keptAmount: 0, rule: 'NOT_CONFIRMED' });
    const pi = (await reservationRow(reservation.id)).authorizationId!;
    const res = await post(`/v1/api/bookings/${reservation.id}/cancel`, {}, { token: sender.token });
    expect(res.status).toBe(200);
    expect(stripe.requestsTo('POST', `/v1/payment_intents/${pi}/cancel`)).toHaveLength(1);
    expect(await accountBalance(PREMIUMS)).toBe(premiumsBefore - 300);
    expect(await accountBalance(RESERVE)).toBe(reserveBefore);
    const back = await db().select().from(transactions).where(and(eq(transactions.reservationId, reservation.id), eq(transactions.type, 'HOLD_RELEASE')));
    expect(back.map((t) => t.amountCents)).toEqual([5_300]);
    expect(await ledgerInvariantViolations()).toEqual([]);
  });

  it('a STRICT late cancellation keeps part of the price: the premium is kept (earned by the reserve), the quote and the partial capture agree', async () => {
    const { sender, reservation } = await aReservation({ status: 'CONFIRMED', payment: stripe, ...FIFTY_EUR, set: { ...PROTECTED, cancellationPolicy: 'STRICT' } });
    const [reserveBefore, premiumsBefore] = [await accountBalance(RESERVE), await accountBalance(PREMIUMS)];
    const quote = await get(`/v1/api/bookings/${reservation.id}/cancellation-quote`, { token: sender.token });
    // STRICT, 72 h or more ahead: all but the commission (42.50) back; the premium (3.00) is kept.
    expect(quote.body).toMatchObject({ refundAmount: 42.5, keptAmount: 10.5, rule: 'DEPARTURE_72H_OR_MORE' });
    const pi = (await reservationRow(reservation.id)).authorizationId!;
    expect((await post(`/v1/api/bookings/${reservation.id}/cancel`, {}, { token: sender.token })).status).toBe(200);
    const [capture] = stripe.requestsTo('POST', `/v1/payment_intents/${pi}/capture`);
    expect(capture.body.amount_to_capture).toBe('1050'); // the commission and the premium
    expect(await accountBalance(RESERVE)).toBe(reserveBefore + 300);
    expect(await accountBalance(PREMIUMS)).toBe(premiumsBefore - 300);
    expect((await reservationMoney(reservation.id)).entries.map((e) => e.type)).toContain('PROTECTION_PREMIUM_EARNED');
    const back = await db().select().from(transactions).where(and(eq(transactions.reservationId, reservation.id), eq(transactions.type, 'HOLD_RELEASE')));
    expect(back.map((t) => t.amountCents)).toEqual([4_250]);
    expect(await ledgerInvariantViolations()).toEqual([]);
  });

  it('the carrier cancels after capture: 53.00 refunded to the card, the credit note has the protection line', async () => {
    const { carrier, reservation } = await aReservation({ status: 'CONFIRMED', ...paidProtected });
    const pi = (await reservationRow(reservation.id)).authorizationId!;
    // Captured early (the card hold would lapse): the cancellation is then a refund.
    await post(`/v1/api/bookings/${reservation.id}/cancel`, {}, { token: carrier.token });
    const row = await reservationRow(reservation.id);
    expect(row.status).toBe('CANCELLED');
    const refunds = stripe.requestsTo('POST', '/v1/refunds').filter((r) => r.body.payment_intent === pi);
    const voids = stripe.requestsTo('POST', `/v1/payment_intents/${pi}/cancel`);
    // Not captured yet: the whole hold (53.00) is voided; either way nothing of the premium is kept.
    expect(refunds.length + voids.length).toBe(1);
    expect(await ledgerInvariantViolations()).toEqual([]);
  });

  it('a dispute resolved REFUND_SENDER after capture refunds 53.00 and credits the premium', async () => {
    const { sender, reservation } = await aReservation({ status: 'DEPOSITED', ...paidProtected });
    const admin = await anAdmin();
    const [reserveBefore, premiumsBefore] = [await accountBalance(RESERVE), await accountBalance(PREMIUMS)];
    const opened = await post('/v1/api/disputes', { reservationId: reservation.id, reason: 'DAMAGED', description: 'Broken screen.' }, { token: sender.token });
    const res = await post(`/v1/api/admin/disputes/${opened.body.id}/resolve`, { resolution: 'REFUND_SENDER', note: 'Carrier at fault' }, { token: admin.token });
    expect(res.status).toBe(200);
    const pi = (await reservationRow(reservation.id)).authorizationId!;
    const [refund] = stripe.requestsTo('POST', '/v1/refunds').filter((r) => r.body.payment_intent === pi);
    expect(refund.body.amount).toBe('5300');
    expect(await accountBalance(PREMIUMS)).toBe(premiumsBefore - 300);
    expect(await accountBalance(RESERVE)).toBe(reserveBefore);
    const [credit] = await db().select().from(moneyDocuments).where(and(eq(moneyDocuments.reservationId, reservation.id), eq(moneyDocuments.kind, 'CREDIT_NOTE')));
    expect(credit).toMatchObject({ totalCents: 5_000, protectionCents: 300 });
    expect((await reservationRow(reservation.id)).paymentStatus).toBe('REFUNDED');
    expect(await ledgerInvariantViolations()).toEqual([]);
  });
});

describe('PROTECTION_PAYOUT', () => {
  async function disputed(reason = 'LOST', set: Record<string, unknown> = PROTECTED) {
    const fixture = await aReservation({ status: 'DEPOSITED', payment: stripe, ...FIFTY_EUR, set });
    const opened = await post('/v1/api/disputes', { reservationId: fixture.reservation.id, reason, description: 'Never arrived.' }, { token: fixture.sender.token });
    expect(opened.status).toBe(201);
    return { ...fixture, disputeId: opened.body.id as number, admin: await anAdmin() };
  }
  const resolve = (token: string, id: number, body: Record<string, unknown>, headers?: Record<string, string>) =>
    post(`/v1/api/admin/disputes/${id}/resolve`, { note: 'Lost in transit', ...body }, { token, headers });

  it('pays the amount to the sender from the reserve on top of the refund of the price; the premium is kept; audited; GET /protection shows the claim', async () => {
    const { sender, carrier, reservation, disputeId, admin } = await disputed();
    const [reserveBefore, premiumsBefore] = [await accountBalance(RESERVE), await accountBalance(PREMIUMS)];
    const fundingBefore = await accountBalance('PROTECTION_FUNDING');
    const res = await resolve(admin.token, disputeId, { resolution: 'PROTECTION_PAYOUT', amount: 80 });
    expect(res.status).toBe(200);
    // Each side is told what it gets: the refund and the payout to the sender, the share left to the carrier.
    const n = reservation.reservationNumber;
    const toSender = await toldTo(sender.id, 'DISPUTE_RESOLVED');
    const fr = `Le litige de la réservation ${n} est résolu : ${eur(5000, 'fr')} vous sont remboursés, et une indemnisation de ${eur(8000, 'fr')} au titre de la protection est versée sur votre portefeuille.`;
    expect(toSender).toMatchObject({ key: 'notice.disputePayoutToSender', fr, sentFr: [['EMAIL', fr]] });
    expect(toSender.en).toBe(`The dispute on reservation ${n} is resolved: 50.00 EUR goes back to you, and a protection payout of 80.00 EUR is paid into your wallet.`);
    expect((await toldTo(carrier.id, 'DISPUTE_RESOLVED')).en).toBe(
      `The dispute on reservation ${n} is resolved: 50.00 EUR goes back to the sender, who also receives a protection payout of 80.00 EUR; your share is now 0.00 EUR.`,
    );
    expect(res.body).toMatchObject({ status: 'RESOLVED', resolution: 'PROTECTION_PAYOUT' });

    const pi = (await reservationRow(reservation.id)).authorizationId!;
    const [refund] = stripe.requestsTo('POST', '/v1/refunds').filter((r) => r.body.payment_intent === pi);
    expect(refund.body.amount).toBe('5000'); // the price; the premium bought the cover
    expect(await accountBalance(walletKey(sender.id))).toBe(8_000);
    // This booking's 3.00 earned by the reserve in the same posting; from the reserve as far as it
    // goes, the rest funded by the platform.
    expect(await accountBalance(PREMIUMS)).toBe(premiumsBefore - 300);
    const fromReserve = Math.min(8_000, reserveBefore + 300);
    expect(await accountBalance(RESERVE)).toBe(reserveBefore + 300 - fromReserve);
    expect(await accountBalance('PROTECTION_FUNDING')).toBe(fundingBefore - (8_000 - fromReserve));
    const lines = await db().select().from(transactions).where(and(eq(transactions.ownerId, sender.id), eq(transactions.type, 'PROTECTION_PAYOUT')));
    expect(lines.map((t) => t.amountCents)).toEqual([8_000]);
    const [audit] = await db().select().from(auditLogs).where(and(eq(auditLogs.action, 'DISPUTE_RESOLVED'), eq(auditLogs.targetId, String(disputeId))));
    expect(audit.details).toMatchObject({ resolution: 'PROTECTION_PAYOUT', refundCents: 5_000, protectionPayoutCents: 8_000 });

    const view = await protectionOf(sender.token, reservation.id);
    expect(view.body.claim).toMatchObject({ disputeId, status: 'RESOLVED', reason: 'LOST', resolution: 'PROTECTION_PAYOUT', payoutAmount: 80 });
    expect(await ledgerInvariantViolations()).toEqual([]);
    const reserve = await accountBalance(RESERVE);
    expect(reserve).toBeGreaterThanOrEqual(0);
  });

  it('more than the coverage, or no amount: 400 INVALID_ARGUMENT on amount, nothing moves', async () => {
    const { disputeId, admin, reservation } = await disputed();
    const tooMuch = await resolve(admin.token, disputeId, { resolution: 'PROTECTION_PAYOUT', amount: 100.01 });
    expect(tooMuch.status).toBe(400);
    expect(errorBody(tooMuch)).toMatchObject({
      errorCode: 'INVALID_ARGUMENT',
      message: 'A protection payout needs an amount above 0 and at most the covered value',
      fieldErrors: [{ field: 'amount', message: 'Must be > 0 and <= 100.00 EUR', rejectedValue: 100.01 }],
    });
    const none = await resolve(admin.token, disputeId, { resolution: 'PROTECTION_PAYOUT' }, { 'Accept-Language': 'fr' });
    expect(none.status).toBe(400);
    expect(errorBody(none)).toMatchObject({ errorCode: 'INVALID_ARGUMENT', message: 'Une indemnisation par la protection exige un montant supérieur à 0 et au plus égal à la valeur couverte' });
    expect((await reservationRow(reservation.id)).status).toBe('DISPUTED');
    // Nothing moves: no payout line for the sender, the dispute still open.
    const payouts = await db().select().from(transactions).where(and(eq(transactions.ownerId, reservation.senderId), eq(transactions.type, 'PROTECTION_PAYOUT')));
    expect(payouts).toEqual([]);
    expect((await protectionOf(admin.token, reservation.id)).body.claim).toMatchObject({ disputeId, status: 'OPEN', resolution: null, payoutAmount: null });
  });

  it('on an unprotected reservation, or a dispute about lateness: 422 BUSINESS_RULE_VIOLATION', async () => {
    const bare = await disputed('LOST', {});
    // Unprotected: its dispute is no claim on a protection.
    expect((await protectionOf(bare.sender.token, bare.reservation.id)).body).toMatchObject({ protected: false, claim: null });
    const res = await resolve(bare.admin.token, bare.disputeId, { resolution: 'PROTECTION_PAYOUT', amount: 10 });
    expect(res.status).toBe(422);
    expect(errorBody(res)).toMatchObject({
      errorCode: 'BUSINESS_RULE_VIOLATION',
      message: `Reservation ${bare.reservation.reservationNumber} was booked without protection: no protection payout`,
    });
    const late = await disputed('LATE');
    const lateRes = await resolve(late.admin.token, late.disputeId, { resolution: 'PROTECTION_PAYOUT', amount: 10 });
    expect(errorBody(lateRes)).toMatchObject({ errorCode: 'BUSINESS_RULE_VIOLATION', message: 'Protection covers a lost, damaged or undelivered parcel; this dispute is about LATE' });
  });
});

describe('configuration', () => {
  it('the default rate and limits come from lib/protection.ts', async () => {
    const { appConfig } = await import('../src/config');
    expect(appConfig(env).protection.rate).toBe(0.03);
    expect(appConfig(env).protection.limits.EUR).toEqual({ min: 20, max: 2000 });
  });
});
