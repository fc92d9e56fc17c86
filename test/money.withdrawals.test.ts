// Money, withdrawals (CONTRACT section 10): withdrawals to the connected payout account
// (including concurrent ones), automatic withdrawals paid by the cron, Connect onboarding
// (pay-connect), and the same for an agency's own wallet.
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createApp } from '../src/app';
import { payoutAccounts, withdrawals } from '../src/db/schema';
import { localMetrics } from '../src/providers/metrics/local-metrics';
import { db, reservationRow, runCron } from './helpers/db';
import { anAdmin, aPayoutAccount, aReservation, aUser, FIFTY_EUR, tokenFor } from './helpers/factories';
import { call, errorBody, get, post, put } from './helpers/http';
import { accountBalance, fakeStripeForThisFile, ledgerInvariantViolations, sendPaymentEvent, walletKey } from './helpers/money';

const stripe = fakeStripeForThisFile();

/** A carrier whose wallet holds `cents` from one delivery, with a payout-ready connected account. */
async function carrierWithBalance(cents: number) {
  // The carrier gets 85 % of the price: 1 kg at the price that leaves the wanted amount.
  const { carrier } = await aReservation({ status: 'DELIVERED', available: true, payment: stripe, weightG: 1000, pricePerKgCents: Math.round(cents / 0.85) });
  const balance = await accountBalance(walletKey(carrier.id));
  const account = stripe.addAccount();
  await aPayoutAccount(carrier, account.id);
  return { carrier, balance, account };
}

describe('withdrawals (POST /withdrawals)', () => {
  it('a withdrawal transfers to the connected account in cents with an idempotency key', async () => {
    const { carrier, balance, account } = await carrierWithBalance(10_000);
    const before = stripe.requests.length;
    const res = await post('/v1/api/withdrawals', { amount: 12.34 }, { token: carrier.token });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ amount: 12.34, currency: 'EUR', status: 'COMPLETED', automatic: false });
    const [transfer] = stripe.requests.slice(before);
    expect(transfer).toMatchObject({
      method: 'POST',
      path: '/v1/transfers',
      idempotencyKey: `withdrawal-${res.body.id}`,
      body: { amount: '1234', currency: 'eur', destination: account.id },
    });
    expect(res.body.transferId).toBe([...stripe.transfers.values()].find((t) => t.destination === account.id)!.id);
    expect(await accountBalance(walletKey(carrier.id))).toBe(balance - 1234);
  });

  it('the withdrawal is listed (GET /withdrawals)', async () => {
    const { carrier } = await carrierWithBalance(10_000);
    const res = await post('/v1/api/withdrawals', { amount: 12.34 }, { token: carrier.token });
    const list = await get('/v1/api/withdrawals', { token: carrier.token });
    expect(list.body.page.totalElements).toBe(1);
    expect(list.body.content[0]).toMatchObject({ id: res.body.id, status: 'COMPLETED', amount: 12.34 });
  });

  it('the same Idempotency-Key withdraws once, even concurrently', async () => {
    const { carrier, balance } = await carrierWithBalance(10_000);
    const headers = { 'Idempotency-Key': `w-${crypto.randomUUID()}` };
    const results = await Promise.all([1, 2, 3].map(() => post('/v1/api/withdrawals', { amount: 20 }, { token: carrier.token, headers })));
    // Each either answers as the first (201, same withdrawal) or, caught while the first still
    // runs by the Idempotency-Key middleware, is told to retry (409); never a second withdrawal.
    const made = results.filter((r) => r.status === 201);
    expect(made.length).toBeGreaterThanOrEqual(1);
    for (const r of results.filter((r) => r.status !== 201)) expect(errorBody(r)).toMatchObject({ status: 409, errorCode: 'INVALID_STATE' });
    expect(new Set(made.map((r) => r.body.id)).size).toBe(1);
    const replay = await post('/v1/api/withdrawals', { amount: 20 }, { token: carrier.token, headers });
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual(made[0].body);
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await accountBalance(walletKey(carrier.id))).toBe(balance - 2000);
  });

  it('another amount with a used Idempotency-Key is 409 INVALID_STATE', async () => {
    const { carrier, balance } = await carrierWithBalance(10_000);
    const headers = { 'Idempotency-Key': `w-${crypto.randomUUID()}` };
    expect((await post('/v1/api/withdrawals', { amount: 20 }, { token: carrier.token, headers })).status).toBe(201);
    const other = await post('/v1/api/withdrawals', { amount: 21 }, { token: carrier.token, headers });
    expect(other.status).toBe(409);
    expect(errorBody(other)).toMatchObject({ errorCode: 'INVALID_STATE' });
    expect(await accountBalance(walletKey(carrier.id))).toBe(balance - 2000);
  });

  it('without a connected account: 422 STRIPE_CONNECT_NOT_CONFIGURED', async () => {
    const user = await aUser();
    const res = await post('/v1/api/withdrawals', { amount: 1 }, { token: user.token });
    expect(res.status).toBe(422);
    expect(errorBody(res)).toMatchObject({ status: 422, errorCode: 'STRIPE_CONNECT_NOT_CONFIGURED' });
  });

  it('with a connected account not yet payout-ready: 422 STRIPE_CONNECT_NOT_CONFIGURED', async () => {
    const user = await aUser();
    await aPayoutAccount(user, stripe.addAccount(false).id, false);
    expect(errorBody(await post('/v1/api/withdrawals', { amount: 1 }, { token: user.token }))).toMatchObject({ errorCode: 'STRIPE_CONNECT_NOT_CONFIGURED' });
  });

  it('more than the balance: 422 INSUFFICIENT_FUNDS, nothing moves', async () => {
    const { carrier, balance } = await carrierWithBalance(1000);
    const res = await post('/v1/api/withdrawals', { amount: balance / 100 + 0.01 }, { token: carrier.token });
    expect(res.status).toBe(422);
    expect(errorBody(res)).toMatchObject({ errorCode: 'INSUFFICIENT_FUNDS' });
    expect(await accountBalance(walletKey(carrier.id))).toBe(balance);
    expect(await db().select().from(withdrawals).where(eq(withdrawals.ownerId, carrier.id))).toEqual([]);
  });

  it.each([0, -5, 1.234, '10'])('an amount of %j is 400 VALIDATION_ERROR', async (amount) => {
    const user = await aUser();
    const res = await post('/v1/api/withdrawals', { amount }, { token: user.token });
    expect(res.status, String(amount)).toBe(400);
    expect(errorBody(res)).toMatchObject({ errorCode: 'VALIDATION_ERROR', fieldErrors: [expect.objectContaining({ field: 'amount' })] });
  });

  it('a refused transfer returns the money to the wallet: 502, withdrawal FAILED', async () => {
    const { carrier, balance, account } = await carrierWithBalance(5000);
    stripe.refuseTransfersTo.add(account.id);
    const failedBefore = (await localMetrics.summary('1h', new Date())).payoutsFailed;
    const res = await post('/v1/api/withdrawals', { amount: 10 }, { token: carrier.token });
    expect(res.status).toBe(502);
    // The refusal is a PAYOUT_FAILED metric (docs/OPERATIONS.md: it pages the on-call operator).
    expect((await localMetrics.summary('1h', new Date())).payoutsFailed - failedBefore).toBe(1);
    expect(errorBody(res)).toMatchObject({ errorCode: 'PAYMENT_PROCESSING_ERROR' });
    expect(await accountBalance(walletKey(carrier.id))).toBe(balance);
    const [w] = await db().select().from(withdrawals).where(eq(withdrawals.ownerId, carrier.id));
    expect(w).toMatchObject({ status: 'FAILED', amountCents: 1000 });
    expect(w.failureReason).toContain('capabilities');
    const wallet = await get('/v1/api/user/me/wallet', { token: carrier.token });
    expect(wallet.body).toMatchObject({ balance: balance / 100, pendingWithdrawalAmount: 0, totalWithdrawn: 0 });
    expect(await ledgerInvariantViolations()).toEqual([]);
  });

  it('many simultaneous withdrawals: exactly the affordable ones succeed, the balance never goes below zero', async () => {
    const { carrier, balance } = await carrierWithBalance(10_000);
    expect(balance).toBe(10_000);
    const results = await Promise.all(
      Array.from({ length: 12 }, () => post('/v1/api/withdrawals', { amount: 15 }, { token: carrier.token })),
    );
    const ok = results.filter((r) => r.status === 201);
    const refused = results.filter((r) => r.status === 422);
    expect(ok).toHaveLength(6);
    expect(refused).toHaveLength(6);
    for (const r of refused) expect(r.body.errorCode).toBe('INSUFFICIENT_FUNDS');
    expect(await accountBalance(walletKey(carrier.id))).toBe(1000);
    expect(await ledgerInvariantViolations()).toEqual([]);
  });
});

describe('automatic withdrawals (/withdrawals/auto)', () => {
  it('are off by default; the settings saved are read back and shown in the wallet', async () => {
    const { carrier } = await carrierWithBalance(5000);
    expect((await get('/v1/api/withdrawals/auto', { token: carrier.token })).body).toEqual({ enabled: false, threshold: null, currency: 'EUR' });
    const set = await put('/v1/api/withdrawals/auto', { enabled: true, threshold: 40 }, { token: carrier.token });
    expect(set.body).toEqual({ enabled: true, threshold: 40, currency: 'EUR' });
    expect((await get('/v1/api/user/me/wallet', { token: carrier.token })).body.autoWithdrawal).toEqual({ enabled: true, threshold: 40 });
  });

  it('enabling them without a threshold is 400 VALIDATION_ERROR', async () => {
    const user = await aUser();
    const bad = await put('/v1/api/withdrawals/auto', { enabled: true }, { token: user.token });
    expect(bad.status).toBe(400);
    expect(errorBody(bad)).toMatchObject({ errorCode: 'VALIDATION_ERROR', fieldErrors: [expect.objectContaining({ field: 'threshold' })] });
  });

  it('the cron pays out wallets at or above the threshold, and only those', async () => {
    const { carrier, balance, account } = await carrierWithBalance(5000);
    const below = await carrierWithBalance(1000);
    await put('/v1/api/withdrawals/auto', { enabled: true, threshold: 40 }, { token: carrier.token });
    await put('/v1/api/withdrawals/auto', { enabled: true, threshold: 40 }, { token: below.carrier.token });

    await runCron();

    expect(await accountBalance(walletKey(carrier.id))).toBe(0);
    const [w] = await db().select().from(withdrawals).where(eq(withdrawals.ownerId, carrier.id));
    expect(w).toMatchObject({ status: 'COMPLETED', automatic: true, amountCents: balance, destinationAccountId: account.id });
    expect(await accountBalance(walletKey(below.carrier.id))).toBe(below.balance);
  });
});

describe('pay-connect', () => {
  it('onboarding creates one Express account for the user and an onboarding link', async () => {
    const user = await aUser();
    const before = stripe.requests.length;
    const first = await post('/v1/api/pay-connect/onboarding', undefined, { token: user.token });
    expect(first.status).toBe(200);
    expect(first.body.connectedAccountId).toMatch(/^acct_/);
    expect(first.body.onboardingUrl).toContain('https://connect.stripe.com/setup/e/');
    const [create, link] = stripe.requests.slice(before);
    expect(create).toMatchObject({
      path: '/v1/accounts',
      idempotencyKey: `connect-account-user-${user.id}`,
      body: { type: 'express', email: user.email, capabilities: { transfers: { requested: 'true' } } },
    });
    expect(link).toMatchObject({ path: '/v1/account_links', body: { account: first.body.connectedAccountId, type: 'account_onboarding' } });
    expect(link.body.return_url).toContain('/v1/api/pay-connect/return?account=');
  });

  it('onboarding again keeps the same account', async () => {
    const user = await aUser();
    const first = await post('/v1/api/pay-connect/onboarding', undefined, { token: user.token });
    const second = await post('/v1/api/pay-connect/onboarding', undefined, { token: user.token });
    expect(second.body.connectedAccountId).toBe(first.body.connectedAccountId);
    expect(stripe.requestsTo('POST', '/v1/accounts').filter((r) => r.idempotencyKey === `connect-account-user-${user.id}`)).toHaveLength(1);
  });

  /** A user who started the onboarding, and their connected account at the fake Stripe. */
  async function onboarded() {
    const user = await aUser();
    const res = await post('/v1/api/pay-connect/onboarding', undefined, { token: user.token });
    return { user, account: stripe.accounts.get(res.body.connectedAccountId)! };
  }

  const finishOnboarding = async (account: Record<string, any>) => {
    Object.assign(account, { charges_enabled: true, payouts_enabled: true, details_submitted: true, requirements: { currently_due: [] } });
    expect((await sendPaymentEvent(stripe.event('account.updated', account))).status).toBe(200);
  };

  it('until the onboarding is finished the user cannot receive payments and is told why', async () => {
    const { user } = await onboarded();
    const notYet = await get('/v1/api/pay-connect/can-receive-payments', { token: user.token });
    expect(notYet.body).toEqual({ canReceivePayments: false, chargesEnabled: false, payoutsEnabled: false, reason: 'Onboarding is not finished', currencies: expect.any(Array) });
  });

  it('account.updated makes the account ACTIVE and the user eligible to receive payments', async () => {
    const { user, account } = await onboarded();
    await finishOnboarding(account);
    const ready = await get('/v1/api/pay-connect/can-receive-payments', { token: user.token });
    expect(ready.body).toEqual({ canReceivePayments: true, chargesEnabled: true, payoutsEnabled: true, reason: null, currencies: expect.any(Array) });
    // Per currency (CONTRACT section 20): the Stripe currencies follow the connected account.
    expect(ready.body.currencies).toContainEqual({ currency: 'EUR', canReceive: true, reason: null });
    const status = await get('/v1/api/pay-connect/account-status', { token: user.token });
    expect(status.body).toEqual({
      connectedAccountId: account.id,
      status: 'ACTIVE',
      chargesEnabled: true,
      payoutsEnabled: true,
      detailsSubmitted: true,
      requirements: [],
    });
  });

  it('the return page of a finished onboarding says the payout account is ready', async () => {
    const { account } = await onboarded();
    await finishOnboarding(account);
    const returned = await call('GET', `/v1/api/pay-connect/return?account=${account.id}`);
    expect(returned.status).toBe(200);
    expect(String(returned.body)).toContain('Payout account ready');
  });

  it('the refresh link redirects to a new onboarding link of the account', async () => {
    const { account } = await onboarded();
    // Through the app directly: the worker's fetch would follow the redirect.
    const refreshed = await createApp().request(`http://api.test/v1/api/pay-connect/refresh?account=${account.id}`, {}, env);
    expect(refreshed.status).toBe(302);
    expect(refreshed.headers.get('Location')).toContain(`https://connect.stripe.com/setup/e/${account.id}/`);
  });

  it('a user without an account cannot receive payments and says why', async () => {
    const user = await aUser();
    const res = await get('/v1/api/pay-connect/can-receive-payments', { token: user.token });
    expect(res.body).toEqual({
      canReceivePayments: false,
      chargesEnabled: false,
      payoutsEnabled: false,
      reason: 'No connected payout account: start the onboarding first',
      currencies: expect.any(Array),
    });
  });

  it('a user without an account is NOT_CONNECTED', async () => {
    const user = await aUser();
    expect((await get('/v1/api/pay-connect/account-status', { token: user.token })).body.status).toBe('NOT_CONNECTED');
  });
});

describe('agency money (/agencies/{id}/wallet, withdrawals, pay-connect)', () => {
  /** An agency whose staff carrier delivered one 50.00 EUR reservation (42.50 EUR for the agency). */
  async function agencyWithEarnings(available = true) {
    const owner = await aUser();
    const created = await post('/v1/api/agencies', { name: 'Teranga Cargo', city: 'Dakar', country: 'SN', email: 'pay@teranga.test' }, { token: owner.token });
    expect(created.status).toBe(201);
    const agencyId = created.body.id as number;
    // The staff member who flew is the carrier; the money is the agency's.
    const { carrier } = await aReservation({ status: 'DELIVERED', available, payment: stripe, ...FIFTY_EUR, agencyId });
    return { owner: { ...owner, token: await tokenFor(owner.id, ['ROLE_CLIENT', 'ROLE_AGENCY_OWNER']) }, agencyId, carrier };
  }

  it('a delivered agency trip lands in the agency wallet through the ledger, read by the owner', async () => {
    const { owner, agencyId } = await agencyWithEarnings();
    expect(await accountBalance(`WALLET:AGENCY:${agencyId}`)).toBe(4250);
    const wallet = await get(`/v1/api/agencies/${agencyId}/wallet`, { token: owner.token });
    expect(wallet.status).toBe(200);
    expect(wallet.body).toEqual({
      balance: 42.5,
      heldBalance: 0,
      pendingWithdrawalAmount: 0,
      totalEarned: 42.5,
      totalWithdrawn: 0,
      currency: 'EUR',
      autoWithdrawal: { enabled: false, threshold: null },
      balances: [{ currency: 'EUR', balance: 42.5, heldBalance: 0, pendingWithdrawalAmount: 0, totalEarned: 42.5, totalWithdrawn: 0 }],
    });
  });

  it("within the dispute window the agency's share is its heldBalance, not withdrawable; the cron releases it after 72 h", async () => {
    const { owner, agencyId } = await agencyWithEarnings(false);
    await aPayoutAccount({ id: agencyId }, stripe.addAccount().id, true, 'AGENCY');
    const wallet = async () => (await get(`/v1/api/agencies/${agencyId}/wallet`, { token: owner.token })).body;
    expect(await wallet()).toMatchObject({ balance: 0, heldBalance: 42.5, totalEarned: 42.5 });
    const refused = await post(`/v1/api/agencies/${agencyId}/withdrawals`, { amount: 10 }, { token: owner.token });
    expect([refused.status, refused.body.errorCode]).toEqual([422, 'INSUFFICIENT_FUNDS']);

    await runCron(Date.now() + 72 * 3600_000 + 10 * 60_000);
    expect(await wallet()).toMatchObject({ balance: 42.5, heldBalance: 0, totalEarned: 42.5 });
    expect(await accountBalance(`HELD:AGENCY:${agencyId}`)).toBe(0);
    expect(await ledgerInvariantViolations()).toEqual([]);
  });

  it("the agency's money history lists its earning and its withdrawal, in the reader's language, apart from its owner's and its carrier's", async () => {
    const { owner, agencyId, carrier } = await agencyWithEarnings();
    await aPayoutAccount({ id: agencyId }, stripe.addAccount().id, true, 'AGENCY');
    expect((await post(`/v1/api/agencies/${agencyId}/withdrawals`, { amount: 10 }, { token: owner.token })).status).toBe(201);
    const history = await get(`/v1/api/agencies/${agencyId}/transactions?sort=createdAt,asc`, { token: owner.token, headers: { 'Accept-Language': 'fr' } });
    expect(history.status).toBe(200);
    expect(history.headers.get('Content-Language')).toBe('fr');
    expect(history.body.page.totalElements).toBe(2);
    const [earning, withdrawal] = history.body.content;
    const { reservationNumber } = await reservationRow(earning.reservationId);
    expect(earning).toMatchObject({
      type: 'EARNING',
      amount: 42.5,
      currency: 'EUR',
      description: `Réservation ${reservationNumber} livrée : séquestre libéré, la part du transporteur retenue pendant le délai de litige`,
    });
    expect(earning.receiptUrl).toMatch(/\/v1\/api\/public\/receipts\//);
    expect(withdrawal).toMatchObject({ type: 'WITHDRAWAL', amount: -10, description: 'Retrait vers le compte de versement connecté' });
    // The filters of the caller's history work the same.
    expect((await get(`/v1/api/agencies/${agencyId}/transactions?type=WITHDRAWAL`, { token: owner.token })).body.page.totalElements).toBe(1);
    // An admin reads it; the owner's and the carrier's own histories do not hold the agency's money.
    expect((await get(`/v1/api/agencies/${agencyId}/transactions`, { token: (await anAdmin()).token })).body.page.totalElements).toBe(2);
    expect((await get('/v1/api/transactions', { token: owner.token })).body.page.totalElements).toBe(0);
    expect((await get('/v1/api/transactions', { token: carrier.token })).body.page.totalElements).toBe(0);
    expect(errorBody(await get('/v1/api/agencies/999999/transactions', { token: owner.token }))).toMatchObject({ status: 404, errorCode: 'RESOURCE_NOT_FOUND' });
  });

  it("the agency's earnings reach neither the carrier's nor the owner's personal wallet", async () => {
    const { owner, carrier } = await agencyWithEarnings();
    expect((await get('/v1/api/user/me/wallet', { token: carrier.token })).body.balance).toBe(0);
    expect((await get('/v1/api/user/me/wallet', { token: owner.token })).body.balance).toBe(0);
  });

  it('an admin reads the agency wallet', async () => {
    const { agencyId } = await agencyWithEarnings();
    const admin = await anAdmin();
    expect((await get(`/v1/api/agencies/${agencyId}/wallet`, { token: admin.token })).body.balance).toBe(42.5);
  });

  it('the wallet of an unknown agency is 404 RESOURCE_NOT_FOUND', async () => {
    const { owner } = await agencyWithEarnings();
    expect(errorBody(await get('/v1/api/agencies/999999/wallet', { token: owner.token }))).toMatchObject({ status: 404, errorCode: 'RESOURCE_NOT_FOUND' });
  });

  it('a withdrawal goes to the agency’s connected account and debits the agency wallet only', async () => {
    const { owner, agencyId } = await agencyWithEarnings();
    const account = stripe.addAccount();
    await aPayoutAccount({ id: agencyId }, account.id, true, 'AGENCY');
    const before = stripe.requests.length;
    const res = await post(`/v1/api/agencies/${agencyId}/withdrawals`, { amount: 10 }, { token: owner.token });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ amount: 10, status: 'COMPLETED', automatic: false });
    const [transfer] = stripe.requests.slice(before);
    expect(transfer).toMatchObject({ path: '/v1/transfers', body: { amount: '1000', currency: 'eur', destination: account.id } });
    expect(await accountBalance(`WALLET:AGENCY:${agencyId}`)).toBe(3250);
    const [row] = await db().select().from(withdrawals).where(eq(withdrawals.id, res.body.id));
    expect(row).toMatchObject({ ownerType: 'AGENCY', ownerId: agencyId, destinationAccountId: account.id });

    const list = await get(`/v1/api/agencies/${agencyId}/withdrawals`, { token: owner.token });
    expect(list.body.content.map((w: { id: number }) => w.id)).toEqual([res.body.id]);
    expect((await get('/v1/api/withdrawals', { token: owner.token })).body.page.totalElements).toBe(0);
    expect((await get(`/v1/api/agencies/${agencyId}/wallet`, { token: owner.token })).body).toMatchObject({ balance: 32.5, totalWithdrawn: 10 });
  });

  it("the agency's automatic withdrawal settings are its own, not the owner's", async () => {
    const { owner, agencyId } = await agencyWithEarnings();
    const auto = await put(`/v1/api/agencies/${agencyId}/withdrawals/auto`, { enabled: true, threshold: 50 }, { token: owner.token });
    expect(auto.body).toEqual({ enabled: true, threshold: 50, currency: 'EUR' });
    expect((await get(`/v1/api/agencies/${agencyId}/withdrawals/auto`, { token: owner.token })).body).toEqual({ enabled: true, threshold: 50, currency: 'EUR' });
    expect((await get('/v1/api/withdrawals/auto', { token: owner.token })).body).toEqual({ enabled: false, threshold: null, currency: 'EUR' });
  });

  it('without the agency’s own payout account: 422 pointing to the agency onboarding (the owner’s account does not count)', async () => {
    const { owner, agencyId } = await agencyWithEarnings();
    await aPayoutAccount(owner, stripe.addAccount().id); // the owner's personal account
    const res = await post(`/v1/api/agencies/${agencyId}/withdrawals`, { amount: 1 }, { token: owner.token });
    expect(res.status).toBe(422);
    expect(errorBody(res)).toMatchObject({
      errorCode: 'STRIPE_CONNECT_NOT_CONFIGURED',
      suggestions: ['Finish setting up the payout account first'],
    });
    expect(await accountBalance(`WALLET:AGENCY:${agencyId}`)).toBe(4250);
  });

  it('onboarding creates the agency’s own Express account with the agency’s e-mail', async () => {
    const { owner, agencyId } = await agencyWithEarnings();
    const before = stripe.requests.length;
    const res = await post(`/v1/api/agencies/${agencyId}/pay-connect/onboarding`, undefined, { token: owner.token });
    expect(res.status).toBe(200);
    const [create] = stripe.requests.slice(before);
    expect(create).toMatchObject({ path: '/v1/accounts', idempotencyKey: `connect-account-agency-${agencyId}`, body: { email: 'pay@teranga.test' } });
    const [acct] = await db().select().from(payoutAccounts).where(eq(payoutAccounts.providerAccountId, res.body.connectedAccountId));
    expect(acct).toMatchObject({ ownerType: 'AGENCY', ownerId: agencyId });
    const status = await get(`/v1/api/agencies/${agencyId}/pay-connect/account-status`, { token: owner.token });
    expect(status.body).toMatchObject({ connectedAccountId: res.body.connectedAccountId, status: 'ONBOARDING' });
    const eligibility = await get(`/v1/api/agencies/${agencyId}/pay-connect/can-receive-payments`, { token: owner.token });
    expect(eligibility.body).toMatchObject({ canReceivePayments: false, reason: 'Onboarding is not finished' });
    // The owner's personal connection is a different one.
    expect((await get('/v1/api/pay-connect/account-status', { token: owner.token })).body.status).toBe('NOT_CONNECTED');
  });

  describe('anyone but the owner', () => {
    const routes = (agencyId: number): [string, string, unknown][] => [
      ['GET', `/v1/api/agencies/${agencyId}/wallet`, undefined],
      ['GET', `/v1/api/agencies/${agencyId}/transactions`, undefined],
      ['POST', `/v1/api/agencies/${agencyId}/withdrawals`, { amount: 1 }],
      ['GET', `/v1/api/agencies/${agencyId}/withdrawals`, undefined],
      ['GET', `/v1/api/agencies/${agencyId}/withdrawals/auto`, undefined],
      ['PUT', `/v1/api/agencies/${agencyId}/withdrawals/auto`, { enabled: false }],
      ['POST', `/v1/api/agencies/${agencyId}/pay-connect/onboarding`, undefined],
      ['GET', `/v1/api/agencies/${agencyId}/pay-connect/account-status`, undefined],
      ['GET', `/v1/api/agencies/${agencyId}/pay-connect/can-receive-payments`, undefined],
    ];

    /** An agency with earnings and its own payout account. */
    async function payableAgency() {
      const agency = await agencyWithEarnings();
      await aPayoutAccount({ id: agency.agencyId }, stripe.addAccount().id, true, 'AGENCY');
      return agency;
    }

    it('the staff carrier is refused 403 ACCESS_DENIED on every route, and nothing moves', async () => {
      const { agencyId, carrier } = await payableAgency();
      const before = stripe.requests.length;
      for (const [method, path, body] of routes(agencyId)) {
        const res = await call(method, path, { token: carrier.token, body });
        expect(res.status, `${method} ${path}`).toBe(403);
        expect(errorBody(res)).toMatchObject({ errorCode: 'ACCESS_DENIED' });
      }
      expect(stripe.requests.length).toBe(before);
      expect(await accountBalance(`WALLET:AGENCY:${agencyId}`)).toBe(4250);
    });

    it('an admin is refused 403 on every route that changes something, and nothing moves', async () => {
      const { agencyId } = await payableAgency();
      const admin = await anAdmin();
      const before = stripe.requests.length;
      for (const [method, path, body] of routes(agencyId).filter(([m]) => m !== 'GET')) {
        expect((await call(method, path, { token: admin.token, body })).status, `admin ${method} ${path}`).toBe(403);
      }
      expect(stripe.requests.length).toBe(before);
      expect(await accountBalance(`WALLET:AGENCY:${agencyId}`)).toBe(4250);
    });
  });
});
