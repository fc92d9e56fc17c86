// Money operations (CONTRACT 27): the pause switches per provider (API and console), what a paused
// checkout or payout answers, and that nothing is charged or debited meanwhile.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLogs, withdrawals } from '../src/db/schema';
import { hashPassword } from '../src/lib/password';
import { PASSWORD } from './helpers/auth';
import { Browser } from './helpers/console-browser';
import { db } from './helpers/db';
import { aCarrier, anAdmin, aPayoutAccount, aReservation, aSuperAdmin, aUser, FIFTY_EUR } from './helpers/factories';
import { errorBody, get, post, put } from './helpers/http';
import { accountBalance, fakeStripeForThisFile, walletKey } from './helpers/money';

const stripe = fakeStripeForThisFile();

const pause = (token: string, provider: string, operation: string, paused: boolean, reason?: string) =>
  put(`/v1/api/superadmin/pauses/${provider}/${operation}`, { paused, ...(reason ? { reason } : {}) }, { token });

describe('pause switches (GET/PUT /superadmin/pauses)', () => {
  it('lists every provider of the payment methods with both operations; only super-admins change them, audited', async () => {
    const superAdmin = await aSuperAdmin();
    const list = await get('/v1/api/superadmin/pauses', { token: superAdmin.token });
    expect(list.status).toBe(200);
    expect(list.body.pauses.map((s: { provider: string; operation: string }) => `${s.provider}:${s.operation}`)).toEqual(['STRIPE:CHECKOUT', 'STRIPE:PAYOUT', 'WAVE:CHECKOUT', 'WAVE:PAYOUT', 'PAWAPAY:CHECKOUT', 'PAWAPAY:PAYOUT']);
    expect(list.body.pauses.every((s: { paused: boolean }) => !s.paused)).toBe(true);

    const admin = await anAdmin();
    expect((await pause(admin.token, 'WAVE', 'CHECKOUT', true)).status).toBe(403);
    expect((await get('/v1/api/superadmin/pauses', { token: admin.token })).status).toBe(403);
    const unknown = await pause(superAdmin.token, 'PAYPAL', 'CHECKOUT', true);
    expect(unknown.status).toBe(400);
    expect(errorBody(unknown)).toMatchObject({ errorCode: 'INVALID_ARGUMENT', message: 'Unknown provider PAYPAL: one of STRIPE, WAVE, PAWAPAY' });
    expect((await pause(superAdmin.token, 'WAVE', 'REFUND', true)).status).toBe(400);

    const paused = await pause(superAdmin.token, 'wave', 'PAYOUT', true, 'Wave payouts timing out');
    expect(paused.status).toBe(200);
    expect(paused.body).toMatchObject({ provider: 'WAVE', operation: 'PAYOUT', paused: true, reason: 'Wave payouts timing out', pausedBy: superAdmin.id });
    const resumed = await pause(superAdmin.token, 'WAVE', 'PAYOUT', false);
    expect(resumed.body).toMatchObject({ paused: false, reason: null, pausedAt: null });
    const audits = (await db().select().from(auditLogs).where(eq(auditLogs.actorId, superAdmin.id))).map((a) => [a.action, a.targetId]);
    expect(audits).toEqual([
      ['PROVIDER_PAUSED', 'WAVE:PAYOUT'],
      ['PROVIDER_RESUMED', 'WAVE:PAYOUT'],
    ]);
  });

  it('a paused card checkout answers 503 with Retry-After and says so, without calling Stripe; resumed, it opens', async () => {
    const superAdmin = await aSuperAdmin();
    const sender = await aUser();
    const { reservation } = await aReservation({ sender, ...FIFTY_EUR });
    expect((await pause(superAdmin.token, 'STRIPE', 'CHECKOUT', true, 'Stripe incident')).status).toBe(200);
    const before = stripe.requests.length;
    const refused = await post('/v1/api/payments/checkout', { reservationId: reservation.id }, { token: sender.token });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('Retry-After')).toBe('900');
    expect(errorBody(refused)).toEqual({
      status: 503,
      errorCode: 'PAYMENT_PROCESSING_ERROR',
      message: 'Payments by Stripe are paused for now by the operators (a provider incident); nothing was charged',
      path: '/v1/api/payments/checkout',
      suggestions: ['Try again in a few minutes, or pay with another method'],
    });
    expect(stripe.requests.length).toBe(before);
    const french = await post('/v1/api/payments/checkout', { reservationId: reservation.id }, { token: sender.token, headers: { 'Accept-Language': 'fr' } });
    expect(french.body.message).toContain('Les paiements par Stripe sont suspendus');

    expect((await pause(superAdmin.token, 'STRIPE', 'CHECKOUT', false)).status).toBe(200);
    const opened = await post('/v1/api/payments/checkout', { reservationId: reservation.id }, { token: sender.token });
    expect(opened.status).toBe(200);
    expect(opened.body.paymentId).toMatch(/^cs_test_/);
  });

  it('a paused payout refuses the withdrawal (503) before the wallet is debited; resumed, it pays', async () => {
    const superAdmin = await aSuperAdmin();
    const carrier = await aCarrier();
    await aReservation({ carrier, status: 'DELIVERED', available: true, payment: stripe, ...FIFTY_EUR });
    await aPayoutAccount(carrier, stripe.addAccount().id);
    const balance = await accountBalance(walletKey(carrier.id));
    expect(balance).toBeGreaterThan(1000);
    await pause(superAdmin.token, 'STRIPE', 'PAYOUT', true);
    const refused = await post('/v1/api/withdrawals', { amount: 10 }, { token: carrier.token });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('Retry-After')).toBe('900');
    expect(refused.body.message).toBe('Payouts through Stripe are paused for now by the operators (a provider incident); the wallet was not debited');
    expect(await accountBalance(walletKey(carrier.id))).toBe(balance);
    expect(await db().select().from(withdrawals).where(eq(withdrawals.ownerId, carrier.id))).toEqual([]);
    await pause(superAdmin.token, 'STRIPE', 'PAYOUT', false);
    const paid = await post('/v1/api/withdrawals', { amount: 10 }, { token: carrier.token });
    expect(paid.status).toBe(201);
    expect(paid.body.status).toBe('COMPLETED');
    expect(await accountBalance(walletKey(carrier.id))).toBe(balance - 1000);
  });

  it('the console shows the switches and pauses and resumes them', async () => {
    const superAdmin = await aSuperAdmin({ passwordHash: await hashPassword(PASSWORD) });
    const b = new Browser();
    expect((await b.signIn(superAdmin.email)).status).toBe(303);
    const page = await b.get('/console/pauses');
    expect(page.status).toBe(200);
    expect(page.text).toContain('New checkouts');
    const action = '/console/pauses/WAVE/CHECKOUT';
    const done = await b.submit('/console/pauses', action, { paused: 'true', reason: 'Wave down' });
    expect(done.status).toBe(303);
    const after = await b.get('/console/pauses');
    expect(after.text).toContain('WAVE CHECKOUT paused.');
    expect(after.text).toContain('Wave down');
    const list = await get('/v1/api/superadmin/pauses', { token: superAdmin.token });
    expect(list.body.pauses.find((s: { provider: string; operation: string }) => s.provider === 'WAVE' && s.operation === 'CHECKOUT')).toMatchObject({ paused: true, reason: 'Wave down' });
    expect((await b.submit('/console/pauses', action, { paused: 'false' })).status).toBe(303);
    expect((await get('/v1/api/superadmin/pauses', { token: superAdmin.token })).body.pauses.every((s: { paused: boolean }) => !s.paused)).toBe(true);
    const admin = await anAdmin({ passwordHash: await hashPassword(PASSWORD) });
    const a = new Browser();
    await a.signIn(admin.email);
    expect((await a.get('/console/pauses')).status).toBe(403);
  });
});
