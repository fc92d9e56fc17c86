// Disputes (CONTRACT sections 7 and 13): opening (who, when, evidence, one per reservation), the
// payout freeze, messages, the admin queue, and resolutions each way with the money moved through
// the ledger (still balanced) and the fake Stripe API (one refund, in cents, idempotency key).
import { env } from 'cloudflare:workers';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { database } from '../src/db/client';
import { auditLogs, files, moneyDocuments, notifications, reservations } from '../src/db/schema';
import { appConfig } from '../src/config';
import { errorBody, get, post } from './helpers/http';
import { aFile, aPayoutAccount, deliverWithRelease, makeAvailable, minutesFromNow, aUser, aCarrier, anAdmin, aReservation, FIFTY_EUR } from './helpers/factories';
import { reservationRow, runCron } from './helpers/db';
import { fakeStripeForThisFile, accountBalance, heldKey, receivableKey, walletKey, reservationMoney, ledgerInvariantViolations } from './helpers/money';

const stripe = fakeStripeForThisFile();
const db = database(env.DB);

/** A reservation paid by card through the webhook (50.00 EUR), then moved on by `status`. */
const paid = { payment: stripe, ...FIFTY_EUR };

async function parties() {
  return { sender: await aUser(), carrier: await aCarrier(), admin: await anAdmin() };
}

const open = (token: string, reservationId: number, extra: Record<string, unknown> = {}) =>
  post('/v1/api/disputes', { reservationId, reason: 'DAMAGED', description: 'The parcel arrived broken.', ...extra }, { token });

const resolve = (token: string, id: number, body: Record<string, unknown>) =>
  post(`/v1/api/admin/disputes/${id}/resolve`, { note: 'Checked the evidence', ...body }, { token });

const refundRequests = (pi: string) => stripe.requestsTo('POST', '/v1/refunds').filter((r) => r.body.payment_intent === pi);

describe('opening a dispute', () => {
  it('the sender opens one on a DEPOSITED reservation: 201, reservation DISPUTED, the money stays in escrow, the carrier is notified', async () => {
    const { sender, carrier } = await parties();
    const { reservation: b } = await aReservation({ sender, carrier, status: 'DEPOSITED', ...paid });
    const file = await aFile(sender);

    const res = await open(sender.token, b.id, { evidenceFileIds: [file.id] });

    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      reservationId: b.id,
      openedBy: sender.id,
      openerRole: 'SENDER',
      reason: 'DAMAGED',
      status: 'OPEN',
      previousReservationStatus: 'DEPOSITED',
      frozenAmount: 0,
      shortfallAmount: 0,
      resolution: null,
      reservationStatus: 'DISPUTED',
      evidenceFileIds: [file.id],
      messages: [],
    });
    expect((await reservationRow(b.id)).status).toBe('DISPUTED');
    const [stored] = await db.select().from(files).where(eq(files.id, file.id));
    expect(stored.reservationId).toBe(b.id); // the carrier may now read the evidence
    expect((await reservationMoney(b.id)).ESCROW).toBe(5000);
    const notes = await db.select().from(notifications).where(eq(notifications.userId, carrier.id));
    expect(notes.map((n) => n.type)).toContain('DISPUTE_OPENED');
  });

  it('a dispute cannot be opened before the parcel is handed over: 409 INVALID_STATE', async () => {
    const { sender, carrier } = await parties();
    const { reservation: confirmed } = await aReservation({ sender, carrier, status: 'CONFIRMED', ...paid });
    const wrong = await open(sender.token, confirmed.id);
    expect(wrong.status).toBe(409);
    expect(errorBody(wrong)).toMatchObject({ status: 409, errorCode: 'INVALID_STATE', path: '/v1/api/disputes' });
  });

  it('a dispute cannot be opened more than 72 h after delivery: 409 INVALID_STATE, the reservation stays DELIVERED', async () => {
    const { sender, carrier } = await parties();
    const { reservation: late } = await aReservation({ sender, carrier, status: 'DELIVERED', ...paid });
    await db
      .update(reservations)
      .set({ deliveredAt: minutesFromNow(-73 * 60) })
      .where(eq(reservations.id, late.id));
    const tooLate = await open(sender.token, late.id);
    expect(tooLate.status).toBe(409);
    expect(errorBody(tooLate).errorCode).toBe('INVALID_STATE');
    expect((await reservationRow(late.id)).status).toBe('DELIVERED');
  });

  it('a stranger cannot open a dispute: 403 ACCESS_DENIED', async () => {
    const { sender, carrier } = await parties();
    const { reservation: live } = await aReservation({ sender, carrier, status: 'IN_TRANSIT', ...paid });
    const stranger = await aUser();
    const denied = await open(stranger.token, live.id);
    expect(denied.status).toBe(403);
    expect(errorBody(denied).errorCode).toBe('ACCESS_DENIED');
  });

  it("someone else's file as evidence is 400 INVALID_ARGUMENT and opens nothing", async () => {
    const { sender, carrier } = await parties();
    const { reservation: live } = await aReservation({ sender, carrier, status: 'IN_TRANSIT', ...paid });
    const foreign = await aFile(await aUser());
    const badEvidence = await open(sender.token, live.id, { evidenceFileIds: [foreign.id] });
    expect(badEvidence.status).toBe(400);
    expect(errorBody(badEvidence)).toMatchObject({ errorCode: 'INVALID_ARGUMENT' });
    expect((await reservationRow(live.id)).status).toBe('IN_TRANSIT');
  });

  it('the carrier may open a dispute too', async () => {
    const { sender, carrier } = await parties();
    const { reservation: live } = await aReservation({ sender, carrier, status: 'IN_TRANSIT', ...paid });
    expect((await open(carrier.token, live.id)).status).toBe(201);
  });

  it('a second dispute on the same reservation is 409 ALREADY_EXISTS', async () => {
    const { sender, carrier } = await parties();
    const { reservation: live } = await aReservation({ sender, carrier, status: 'IN_TRANSIT', ...paid });
    expect((await open(carrier.token, live.id)).status).toBe(201);
    const again = await open(sender.token, live.id);
    expect(again.status).toBe(409);
    expect(errorBody(again).errorCode).toBe('ALREADY_EXISTS');
  });

  it('a dispute on an unknown reservation is 404', async () => {
    const sender = await aUser();
    const missing = await open(sender.token, 999_999);
    expect(missing.status).toBe(404);
  });

  it('two concurrent openings: one dispute, the other 409', async () => {
    const { sender, carrier } = await parties();
    const { reservation: b } = await aReservation({ sender, carrier, status: 'IN_TRANSIT', ...paid });
    const results = await Promise.all([open(sender.token, b.id), open(carrier.token, b.id)]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    const n = await db.get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM disputes WHERE reservation_id = ${b.id}`);
    expect(n?.n).toBe(1);
  });

  it('delivery and release are refused while DISPUTED', async () => {
    const { sender, carrier } = await parties();
    const { reservation: b } = await aReservation({ sender, carrier, status: 'IN_TRANSIT', ...paid });
    expect((await open(sender.token, b.id)).status).toBe(201);

    const deliver = await post(`/v1/api/bookings/${b.id}/deliver`, { deliveryCode: b.deliveryCode }, { token: carrier.token });
    expect(deliver.status).toBe(409);
    expect(errorBody(deliver).errorCode).toBe('INVALID_STATE');
    await expect(deliverWithRelease(b.id)).rejects.toMatchObject({ errorCode: 'INVALID_STATE' });
    expect((await reservationRow(b.id)).status).toBe('DISPUTED');
    expect((await reservationMoney(b.id)).ESCROW).toBe(5000);
    expect(await accountBalance(walletKey(carrier.id))).toBe(0);
  });
});

describe('messages, reads and queues', () => {
  /** A dispute opened by the sender on a deposited reservation. */
  async function openDispute() {
    const { sender, carrier, admin } = await parties();
    const { reservation: b } = await aReservation({ sender, carrier, status: 'DEPOSITED', ...paid });
    const opened = await open(sender.token, b.id);
    return { sender, carrier, admin, id: opened.body.id as number };
  }

  it('the parties and an admin post messages, listed in order in the detail', async () => {
    const { sender, carrier, admin, id } = await openDispute();
    expect((await post(`/v1/api/disputes/${id}/messages`, { body: 'Photos attached.' }, { token: sender.token })).status).toBe(201);
    expect((await post(`/v1/api/disputes/${id}/messages`, { body: 'It was fine at handover.' }, { token: carrier.token })).status).toBe(201);
    const last = await post(`/v1/api/disputes/${id}/messages`, { body: 'Looking into it.' }, { token: admin.token });
    expect(last.status).toBe(201);
    expect(last.body.messages.map((m: any) => [m.authorId, m.body])).toEqual([
      [sender.id, 'Photos attached.'],
      [carrier.id, 'It was fine at handover.'],
      [admin.id, 'Looking into it.'],
    ]);
    expect((await get(`/v1/api/disputes/${id}`, { token: carrier.token })).body.messages).toHaveLength(3);
  });

  it('the other party is notified of each message not their own (DISPUTE_MESSAGE)', async () => {
    const { sender, carrier, admin, id } = await openDispute();
    await post(`/v1/api/disputes/${id}/messages`, { body: 'Photos attached.' }, { token: sender.token });
    await post(`/v1/api/disputes/${id}/messages`, { body: 'It was fine at handover.' }, { token: carrier.token });
    await post(`/v1/api/disputes/${id}/messages`, { body: 'Looking into it.' }, { token: admin.token });
    const carrierNotes = await db.select().from(notifications).where(eq(notifications.userId, carrier.id));
    expect(carrierNotes.filter((n) => n.type === 'DISPUTE_MESSAGE')).toHaveLength(2); // from the sender and the admin
  });

  it('a stranger can neither read the dispute nor post to it: 403', async () => {
    const { id } = await openDispute();
    const stranger = await aUser();
    expect((await get(`/v1/api/disputes/${id}`, { token: stranger.token })).status).toBe(403);
    expect((await post(`/v1/api/disputes/${id}/messages`, { body: 'hi' }, { token: stranger.token })).status).toBe(403);
  });

  it('an empty message is 400', async () => {
    const { sender, id } = await openDispute();
    expect((await post(`/v1/api/disputes/${id}/messages`, { body: '' }, { token: sender.token })).status).toBe(400);
  });

  it('an unknown dispute is 404', async () => {
    const sender = await aUser();
    expect((await get('/v1/api/disputes/999999', { token: sender.token })).status).toBe(404);
  });

  it("a party lists their disputes (GET /disputes/mine)", async () => {
    const { carrier, id } = await openDispute();
    const mine = await get('/v1/api/disputes/mine', { token: carrier.token });
    expect(mine.status).toBe(200);
    expect(mine.body.content.map((d: any) => d.id)).toEqual([id]);
    expect(mine.body.page.totalElements).toBe(1);
  });

  it('the admin queue is refused to a non-admin: 403', async () => {
    const { sender } = await openDispute();
    expect((await get('/v1/api/admin/disputes', { token: sender.token })).status).toBe(403);
  });

  it('the admin queue filters by status', async () => {
    const { admin, id } = await openDispute();
    const queue = await get('/v1/api/admin/disputes?status=OPEN&size=100', { token: admin.token });
    expect(queue.status).toBe(200);
    expect(queue.body.content.map((d: any) => d.id)).toContain(id);
    const resolvedQueue = await get('/v1/api/admin/disputes?status=RESOLVED&size=100', { token: admin.token });
    expect(resolvedQueue.body.content.map((d: any) => d.id)).not.toContain(id);
  });
});

describe('resolving', () => {
  it('REFUND_SENDER before delivery: full refund through Stripe once (cents, idempotency key), REFUNDED, ledger balanced, audited', async () => {
    const { sender, carrier, admin } = await parties();
    const { reservation: b, pi } = await aReservation({ sender, carrier, status: 'DEPOSITED', ...paid });
    const id = (await open(sender.token, b.id)).body.id;

    const res = await resolve(admin.token, id, { resolution: 'REFUND_SENDER' });

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'RESOLVED', resolution: 'REFUND_SENDER', refundAmount: 50, resolvedBy: admin.id, reservationStatus: 'REFUNDED' });
    const refunds = refundRequests(pi.id);
    expect(refunds).toHaveLength(1);
    expect(refunds[0].body.amount).toBe('5000');
    expect(refunds[0].idempotencyKey).toBe(`refund-${b.id}`);
    const r = await reservationRow(b.id);
    expect(r).toMatchObject({ status: 'REFUNDED', paymentStatus: 'REFUNDED' });
    expect(r.refundId).toMatch(/^re_/);
    const money = await reservationMoney(b.id);
    expect(money).toMatchObject({ ESCROW: 0, PROVIDER_CLEARING: 0, PLATFORM_REVENUE: 0, WALLET: 0 });
    expect(await ledgerInvariantViolations()).toEqual([]);
    const audit = await db.select().from(auditLogs).where(eq(auditLogs.targetId, String(id)));
    expect(audit.filter((a) => a.action === 'DISPUTE_RESOLVED')).toHaveLength(1);
    const senderNotes = await db.select().from(notifications).where(eq(notifications.userId, sender.id));
    expect(senderNotes.map((n) => n.type)).toContain('DISPUTE_RESOLVED');
  });

  it('RELEASE_TO_CARRIER before delivery: carrier amount to the wallet, commission to revenue, DELIVERED, no provider refund', async () => {
    const { sender, carrier, admin } = await parties();
    const { reservation: b, pi } = await aReservation({ sender, carrier, status: 'IN_TRANSIT', ...paid });
    const id = (await open(carrier.token, b.id)).body.id;

    const res = await resolve(admin.token, id, { resolution: 'RELEASE_TO_CARRIER' });

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ resolution: 'RELEASE_TO_CARRIER', refundAmount: 0, reservationStatus: 'DELIVERED' });
    expect(refundRequests(pi.id)).toHaveLength(0);
    expect(await accountBalance(walletKey(carrier.id))).toBe(4250);
    expect(await reservationMoney(b.id)).toMatchObject({ ESCROW: 0, PLATFORM_REVENUE: 750, WALLET: 4250, PROVIDER_CLEARING: -5000 });
    expect((await reservationRow(b.id)).paymentStatus).toBe('CAPTURED');
    expect(await ledgerInvariantViolations()).toEqual([]);
    // A second resolution is refused and moves nothing.
    const again = await resolve(admin.token, id, { resolution: 'REFUND_SENDER' });
    expect(again.status).toBe(409);
    expect(errorBody(again).errorCode).toBe('INVALID_STATE');
    expect(refundRequests(pi.id)).toHaveLength(0);
  });

  it('after delivery: the share stays held while disputed, even past 72 h; RELEASE_TO_CARRIER makes it available', async () => {
    const { sender, carrier, admin } = await parties();
    const { reservation: b, pi } = await aReservation({ sender, carrier, status: 'DELIVERED', ...paid });
    expect([await accountBalance(heldKey(carrier.id)), await accountBalance(walletKey(carrier.id))]).toEqual([4250, 0]);

    const opened = await open(sender.token, b.id);
    expect(opened.status).toBe(201);
    expect(opened.body).toMatchObject({ previousReservationStatus: 'DELIVERED', frozenAmount: 0, shortfallAmount: 0 });
    // The window closing during the dispute releases nothing.
    await runCron(Date.now() + 73 * 3600_000);
    expect([await accountBalance(heldKey(carrier.id)), await accountBalance(walletKey(carrier.id))]).toEqual([4250, 0]);
    expect(await ledgerInvariantViolations()).toEqual([]);

    const res = await resolve(admin.token, opened.body.id, { resolution: 'RELEASE_TO_CARRIER' });
    expect(res.status).toBe(200);
    expect((await get('/v1/api/user/me/wallet', { token: carrier.token })).body).toMatchObject({ balance: 42.5, heldBalance: 0, totalEarned: 42.5 });
    expect((await reservationRow(b.id)).status).toBe('DELIVERED');
    expect(await reservationMoney(b.id)).toMatchObject({ ESCROW: 0, HELD: 0, PLATFORM_REVENUE: 750, WALLET: 4250 });
    expect(refundRequests(pi.id)).toHaveLength(0);
    expect(await ledgerInvariantViolations()).toEqual([]);
  });

  it('REFUND_SENDER within the window takes the held share: the available balance is untouched, revenue gives back only its commission', async () => {
    const { sender, carrier, admin } = await parties();
    await aReservation({ sender, carrier, status: 'DELIVERED', available: true, ...paid });
    const { reservation: b, pi } = await aReservation({ sender, carrier, status: 'DELIVERED', ...paid });
    const revenueBefore = await accountBalance('PLATFORM_REVENUE');
    const id = (await open(sender.token, b.id)).body.id;

    const res = await resolve(admin.token, id, { resolution: 'REFUND_SENDER' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ refundAmount: 50, shortfallAmount: 0 });
    expect(refundRequests(pi.id).map((r) => r.body.amount)).toEqual(['5000']);
    expect([await accountBalance(heldKey(carrier.id)), await accountBalance(walletKey(carrier.id))]).toEqual([0, 4250]);
    expect(await reservationMoney(b.id)).toMatchObject({ ESCROW: 0, HELD: 0, WALLET: 0, RECEIVABLE: 0, PLATFORM_REVENUE: 0, PROVIDER_CLEARING: 0 });
    expect(await accountBalance('PLATFORM_REVENUE')).toBe(revenueBefore - 750);
    expect((await get('/v1/api/user/me/wallet', { token: carrier.token })).body).toMatchObject({ balance: 42.5, heldBalance: 0, totalEarned: 42.5 });
    expect(await ledgerInvariantViolations()).toEqual([]);
  });

  it('a refund after the share was released and mostly withdrawn: the shortfall is a receivable owed by the carrier, repaid from its next earnings, never by platform revenue', async () => {
    const { sender, carrier, admin } = await parties();
    const { reservation: b, pi } = await aReservation({ sender, carrier, status: 'DELIVERED', available: true, ...paid });
    await aPayoutAccount(carrier, stripe.addAccount().id);
    expect((await post('/v1/api/withdrawals', { amount: 30 }, { token: carrier.token })).status).toBe(201);
    expect(await accountBalance(walletKey(carrier.id))).toBe(1250);

    const opened = await open(sender.token, b.id);
    expect(opened.status).toBe(201);
    const res = await resolve(admin.token, opened.body.id, { resolution: 'REFUND_SENDER' });
    expect(res.status).toBe(200);
    // The sender is refunded in full; the carrier gives back its 12.50 and owes the 30.00 it withdrew.
    expect(res.body).toMatchObject({ refundAmount: 50, shortfallAmount: 30 });
    expect(refundRequests(pi.id).map((r) => r.body.amount)).toEqual(['5000']);
    expect(await accountBalance(walletKey(carrier.id))).toBe(0);
    expect(await accountBalance(receivableKey(carrier.id))).toBe(-3000);
    expect(await reservationMoney(b.id)).toMatchObject({ ESCROW: 0, PROVIDER_CLEARING: 0, PLATFORM_REVENUE: 0, RECEIVABLE: -3000 });
    expect((await get('/v1/api/user/me/wallet', { token: carrier.token })).body).toMatchObject({ balance: 0, totalEarned: 0, totalWithdrawn: 30 });
    expect(await ledgerInvariantViolations()).toEqual([]);

    // The next delivery is held as usual; when it is released, 30.00 of it repays the debt first.
    const { reservation: next } = await aReservation({ sender, carrier, status: 'DELIVERED', ...paid });
    expect(await accountBalance(heldKey(carrier.id))).toBe(4250);
    await makeAvailable(next.id);
    expect(await accountBalance(receivableKey(carrier.id))).toBe(0);
    expect(await accountBalance(walletKey(carrier.id))).toBe(1250);
    expect(await accountBalance(heldKey(carrier.id))).toBe(0);
    expect(await ledgerInvariantViolations()).toEqual([]);
  });

  it('PARTIAL_REFUND after delivery: the amount back to the card, the rest split with commission on the retained part', async () => {
    const { sender, carrier, admin } = await parties();
    const { reservation: b, pi } = await aReservation({ sender, carrier, status: 'DELIVERED', ...paid });
    const id = (await open(sender.token, b.id)).body.id;

    for (const amount of [0, 50, 60]) {
      const bad = await resolve(admin.token, id, { resolution: 'PARTIAL_REFUND', amount });
      expect(bad.status).toBe(400);
    }
    expect((await resolve(admin.token, id, { resolution: 'PARTIAL_REFUND' })).status).toBe(400);
    expect((await resolve(admin.token, id, { resolution: 'REFUND_SENDER', amount: 10 })).status).toBe(400);

    const res = await resolve(admin.token, id, { resolution: 'PARTIAL_REFUND', amount: 20 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ resolution: 'PARTIAL_REFUND', refundAmount: 20, reservationStatus: 'REFUNDED' });
    const refunds = refundRequests(pi.id);
    expect(refunds).toHaveLength(1);
    expect(refunds[0].body.amount).toBe('2000');
    expect(refunds[0].idempotencyKey).toBe(`refund-${b.id}`);
    expect((await reservationRow(b.id)).paymentStatus).toBe('PARTIALLY_REFUNDED');
    const commission = Math.round(3000 * appConfig(env).platform.commissionRate);
    // The carrier's share of the retained part comes out of the hold, available at once: the dispute is over.
    expect(await accountBalance(walletKey(carrier.id))).toBe(3000 - commission);
    expect(await accountBalance(heldKey(carrier.id))).toBe(0);
    expect(await reservationMoney(b.id)).toMatchObject({
      ESCROW: 0,
      HELD: 0,
      WALLET: 3000 - commission,
      PLATFORM_REVENUE: commission,
      PROVIDER_CLEARING: -3000,
    });
    expect(await ledgerInvariantViolations()).toEqual([]);
  });

  it('PARTIAL_REFUND issues a credit note of the refunded 20.00 (PARTIALLY_CREDITED); carrierAmount and platformCommission become the retained split', async () => {
    const { sender, carrier, admin } = await parties();
    const { reservation: b } = await aReservation({ sender, carrier, status: 'DELIVERED', ...paid });
    expect(await reservationRow(b.id)).toMatchObject({ invoiceStatus: 'ISSUED' });
    const id = (await open(sender.token, b.id)).body.id;
    expect((await resolve(admin.token, id, { resolution: 'PARTIAL_REFUND', amount: 20 })).status).toBe(200);
    const commission = Math.round(3000 * appConfig(env).platform.commissionRate);
    expect(await reservationRow(b.id)).toMatchObject({ invoiceStatus: 'PARTIALLY_CREDITED', totalAmountCents: 5000, carrierAmountCents: 3000 - commission, platformCommissionCents: commission });
    const own = await get(`/v1/api/bookings/${b.id}`, { token: sender.token });
    expect(own.body).toMatchObject({ totalAmount: 50, carrierAmount: (3000 - commission) / 100, platformCommission: commission / 100 });
    const docs = await db.select().from(moneyDocuments).where(eq(moneyDocuments.reservationId, b.id)).orderBy(moneyDocuments.id);
    expect(docs.map((d) => [d.kind, d.totalCents, d.carrierCents, d.commissionCents])).toEqual([
      ['INVOICE', 5000, 4250, 750],
      ['CREDIT_NOTE', 2000, 4250 - (3000 - commission), 750 - commission],
    ]);
  });

  it('REFUND_SENDER before capture: the authorisation is voided instead of refunded', async () => {
    const { sender, carrier, admin } = await parties();
    const { reservation: b, pi } = await aReservation({ sender, carrier, status: 'DEPOSITED', ...paid });
    // The deposit capture failed: the payment is still only authorised.
    stripe.paymentIntents.get(pi.id)!.status = 'requires_capture';
    await db.update(reservations).set({ paymentStatus: 'AUTHORIZED' }).where(eq(reservations.id, b.id));
    stripe.outage.add(`/v1/payment_intents/${pi.id}/capture`);
    const id = (await open(sender.token, b.id)).body.id;
    stripe.outage.delete(`/v1/payment_intents/${pi.id}/capture`);
    stripe.paymentIntents.get(pi.id)!.amount_capturable = 5000;

    const res = await resolve(admin.token, id, { resolution: 'REFUND_SENDER' });
    expect(res.status).toBe(200);
    expect(refundRequests(pi.id)).toHaveLength(0);
    const voids = stripe.requestsTo('POST', `/v1/payment_intents/${pi.id}/cancel`);
    expect(voids).toHaveLength(1);
    expect(voids[0].idempotencyKey).toBe(`void-${b.id}`);
    expect((await reservationRow(b.id)).paymentStatus).toBe('VOIDED');
    expect(await ledgerInvariantViolations()).toEqual([]);
  });

  it('two concurrent resolves: one wins, the other 409; one ledger entry, one refund', async () => {
    const { sender, carrier, admin } = await parties();
    const other = await anAdmin();
    const { reservation: b, pi } = await aReservation({ sender, carrier, status: 'DELIVERED', ...paid });
    const id = (await open(sender.token, b.id)).body.id;

    const results = await Promise.all([
      resolve(admin.token, id, { resolution: 'REFUND_SENDER' }),
      resolve(other.token, id, { resolution: 'RELEASE_TO_CARRIER' }),
    ]);

    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const loser = results.find((r) => r.status === 409)!;
    expect(errorBody(loser).errorCode).toBe('INVALID_STATE');
    const winner = results.find((r) => r.status === 200)!;
    const settled = await db.all<{ n: number }>(sql`SELECT COUNT(*) AS n FROM ledger_entries WHERE type = 'DISPUTE_SETTLED' AND reservation_id = ${b.id}`);
    // Only the winner's entry. Either request may win: a release after delivery moves nothing
    // through the ledger (the share was released at delivery and nothing is taken back).
    expect(settled[0].n).toBe(winner.body.resolution === 'REFUND_SENDER' ? 1 : 0);
    expect(refundRequests(pi.id)).toHaveLength(winner.body.resolution === 'REFUND_SENDER' ? 1 : 0);
    expect((await reservationRow(b.id)).status).toBe(winner.body.resolution === 'REFUND_SENDER' ? 'REFUNDED' : 'DELIVERED');
    const audit = await db.select().from(auditLogs).where(eq(auditLogs.targetId, String(id)));
    expect(audit.filter((a) => a.action === 'DISPUTE_RESOLVED')).toHaveLength(1);
    expect(await ledgerInvariantViolations()).toEqual([]);
  });

  it('only admins resolve', async () => {
    const { sender, carrier } = await parties();
    const { reservation: b } = await aReservation({ sender, carrier, status: 'DEPOSITED', ...paid });
    const id = (await open(sender.token, b.id)).body.id;
    expect((await resolve(sender.token, id, { resolution: 'REFUND_SENDER' })).status).toBe(403);
    expect((await resolve((await anAdmin()).token, 999_999, { resolution: 'REFUND_SENDER' })).status).toBe(404);
  });
});
