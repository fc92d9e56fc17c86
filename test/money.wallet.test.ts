// Money, wallet (CONTRACT section 10): the user's wallet and summary figures read from the
// ledger, the transactions (page, filters, summary, detail) and their PDF receipts kept in R2.
import { env } from 'cloudflare:workers';
import { describe, expect, it, vi } from 'vitest';
import { depsOf } from '../src/env';
import { walletFiguresOf } from '../src/features/money';
import { db, reservationRow, runCron } from './helpers/db';
import { aCarrier, aPayoutAccount, aReservation, aUser, daysFromToday, FIFTY_EUR } from './helpers/factories';
import { call, errorBody, get, post, put } from './helpers/http';
import { accountBalance, fakeStripeForThisFile, heldKey, ledgerInvariantViolations, walletKey } from './helpers/money';
import { ledgerEntries, transactions, withdrawals } from '../src/db/schema';
import { pdfString } from '../src/lib/pdf';
import { eq } from 'drizzle-orm';

const stripe = fakeStripeForThisFile();

/** 50.00 EUR paid by card through the webhook, then moved on by `status`. */
const paid = { payment: stripe, ...FIFTY_EUR };

describe('wallet (GET /user/me/wallet)', () => {
  it('a new user has an empty EUR wallet without automatic withdrawal', async () => {
    const carrier = await aCarrier();
    const empty = await get('/v1/api/user/me/wallet', { token: carrier.token });
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({
      balance: 0,
      heldBalance: 0,
      pendingWithdrawalAmount: 0,
      totalEarned: 0,
      totalWithdrawn: 0,
      currency: 'EUR',
      autoWithdrawal: { enabled: false, threshold: null },
      balances: [{ currency: 'EUR', balance: 0, heldBalance: 0, pendingWithdrawalAmount: 0, totalEarned: 0, totalWithdrawn: 0 }],
    });
  });

  it('the wallet and the User summary figures follow the ledger: earnings less withdrawals', async () => {
    const sender = await aUser();
    const carrier = await aCarrier();
    for (let i = 0; i < 2; i += 1) await aReservation({ sender, carrier, status: 'DELIVERED', available: true, ...paid });
    await aPayoutAccount(carrier, stripe.addAccount().id);
    expect((await post('/v1/api/withdrawals', { amount: 30.5 }, { token: carrier.token })).status).toBe(201);

    const wallet = await get('/v1/api/user/me/wallet', { token: carrier.token });
    expect(wallet.body).toMatchObject({ balance: 54.5, heldBalance: 0, pendingWithdrawalAmount: 0, totalEarned: 85, totalWithdrawn: 30.5 });
    expect((await walletFiguresOf(depsOf(env).db, 'USER', [carrier.id])).get(carrier.id)).toEqual({ walletBalance: 54.5, pendingWithdrawalAmount: 0, totalEarned: 85, totalWithdrawn: 30.5 });
  });

  it('the wallet needs a token: 401', async () => {
    expect((await get('/v1/api/user/me/wallet')).status).toBe(401);
  });
});

describe('transactions and receipts', () => {
  /** A sender with two 50.00 EUR payments, the first captured (its invoice), the second's card hold released by a rejection. */
  async function senderWithTransactions() {
    const sender = await aUser();
    const carrier = await aCarrier();
    const { reservation: booking } = await aReservation({ sender, carrier, status: 'DEPOSITED', ...paid });
    const { reservation: second } = await aReservation({ sender, carrier, status: 'PAID', ...paid });
    expect((await post(`/v1/api/bookings/${second.id}/reject`, undefined, { token: carrier.token })).status).toBe(200);
    const payment = (await reservationRow(booking.id)).invoiceTransactionId!;
    return { sender, carrier, booking, payment };
  }

  it('the page lists the payments and the released hold, newest first, in EUR signed for the user', async () => {
    const { sender } = await senderWithTransactions();
    const page = await get('/v1/api/transactions?size=10', { token: sender.token });
    expect(page.status).toBe(200);
    expect(page.body.page).toEqual({ number: 0, size: 10, totalElements: 3, totalPages: 1 });
    expect(page.body.content.map((t: any) => [t.type, t.amount])).toEqual([
      ['HOLD_RELEASE', 50],
      ['PAYMENT', -50],
      ['PAYMENT', -50],
    ]);
  });

  it('filters by type and by date', async () => {
    const { sender } = await senderWithTransactions();
    const payments = await get('/v1/api/transactions?type=PAYMENT', { token: sender.token });
    expect(payments.body.page.totalElements).toBe(2);
    const today = daysFromToday(0);
    expect((await get(`/v1/api/transactions?dateFrom=${today}&dateTo=${today}`, { token: sender.token })).body.page.totalElements).toBe(3);
    expect((await get('/v1/api/transactions?dateTo=2000-01-01', { token: sender.token })).body.page.totalElements).toBe(0);
  });

  it('an unknown type filter is 400', async () => {
    const sender = await aUser();
    const badType = await get('/v1/api/transactions?type=GIFT', { token: sender.token });
    expect(badType.status).toBe(400);
  });

  it('sorting by a field that is not offered is 400 INVALID_ARGUMENT', async () => {
    const sender = await aUser();
    const badSort = await get('/v1/api/transactions?sort=secret,asc', { token: sender.token });
    expect(errorBody(badSort)).toMatchObject({ errorCode: 'INVALID_ARGUMENT' });
  });

  it('the monthly summary totals payments, refunds, released holds and earnings', async () => {
    const { sender } = await senderWithTransactions();
    const summary = await get('/v1/api/transactions/summary?period=MONTH', { token: sender.token });
    expect(summary.status).toBe(200);
    expect(summary.body).toMatchObject({ period: 'MONTH', currency: 'EUR', totalPaid: 100, totalRefunded: 0, totalReleased: 50, totalEarned: 0, net: -50, count: 3 });
  });

  it('the owner reads a transaction in detail', async () => {
    const { sender, booking, payment } = await senderWithTransactions();
    const detail = await get(`/v1/api/transactions/${payment}`, { token: sender.token });
    expect(detail.body).toMatchObject({ id: Number(payment), type: 'PAYMENT', amount: -50, currency: 'EUR', reservationId: booking.id });
  });

  it("another user's transaction is 403, an unknown one 404", async () => {
    const { sender, carrier, payment } = await senderWithTransactions();
    expect((await get(`/v1/api/transactions/${payment}`, { token: carrier.token })).status).toBe(403);
    expect((await get('/v1/api/transactions/99999999', { token: sender.token })).status).toBe(404);
  });

  it('the receipt of a payment is a PDF naming the amount and the reservation', async () => {
    const { sender, booking, payment } = await senderWithTransactions();
    const receipt = await call('GET', `/v1/api/transactions/${payment}/receipt`, { token: sender.token });
    expect(receipt.status).toBe(200);
    expect(receipt.headers.get('Content-Type')).toBe('application/pdf');
    expect(String(receipt.body).startsWith('%PDF-')).toBe(true);
    expect(String(receipt.body)).toContain('(Invoice) Tj');
    expect(String(receipt.body)).toContain('(Total paid: 50.00 EUR) Tj');
    expect(String(receipt.body)).toContain(`(Reservation: ${booking.reservationNumber}) Tj`);
  });

  it('the receipt is kept in R2 and served again unchanged', async () => {
    const { sender, payment } = await senderWithTransactions();
    const receipt = await call('GET', `/v1/api/transactions/${payment}/receipt`, { token: sender.token });
    const stored = await env.UPLOADS.get(`receipts/user-${sender.id}/transaction-${payment}.pdf`);
    expect(stored).not.toBeNull();
    const again = await call('GET', `/v1/api/transactions/${payment}/receipt`, { token: sender.token });
    expect(again.body).toBe(receipt.body);
  });

  it("the history's receiptUrl is a signed link a browser opens without a token: the same PDF, with the issuer's legal details", async () => {
    const { sender, payment } = await senderWithTransactions();
    const page = await get('/v1/api/transactions?size=10', { token: sender.token });
    const links = page.body.content.map((t: { receiptUrl: string }) => t.receiptUrl);
    for (const link of links) expect(link).toMatch(/^https?:\/\/[^/]+\/v1\/api\/public\/receipts\/[\w-]+\.[\w-]+$/);
    const [released] = page.body.content;
    expect(released.type).toBe('HOLD_RELEASE');

    const opened = await call('GET', new URL(released.receiptUrl).pathname); // no bearer token
    expect(opened.status).toBe(200);
    expect(opened.headers.get('Content-Type')).toBe('application/pdf');
    const pdf = String(opened.body);
    for (const text of [
      'Transaction receipt',
      'Issued by:',
      env.PLATFORM_LEGAL_NAME.replace(/[()]/g, '\\$&'),
      env.PLATFORM_LEGAL_ADDRESS,
      `VAT number: ${env.PLATFORM_VAT_NUMBER}`,
      `Company registration: ${env.PLATFORM_COMPANY_REGISTRATION}`,
      'Type: HOLD_RELEASE',
      'Amount: 50.00 EUR',
    ]) {
      expect(pdf).toContain(`(${text}) Tj`);
    }
    // The signed link and the owner's authenticated route serve the one kept receipt.
    const paymentLink = links.find((_: string, i: number) => page.body.content[i].id === Number(payment));
    const bySignedLink = await call('GET', new URL(paymentLink).pathname);
    const byToken = await call('GET', `/v1/api/transactions/${payment}/receipt`, { token: sender.token });
    expect(byToken.status).toBe(200);
    expect(bySignedLink.body).toBe(byToken.body);
  });

  it("the history speaks the reader's language: French when Accept-Language prefers it, else English; a line written before keeps its English", async () => {
    const { sender, booking, payment } = await senderWithTransactions();
    const FR = { 'Accept-Language': 'fr-FR,fr;q=0.9,en;q=0.8' };
    const linesOf = async (headers?: Record<string, string>) => {
      const page = await get('/v1/api/transactions?size=10&sort=createdAt,asc', { token: sender.token, headers });
      expect(page.status).toBe(200);
      return page;
    };
    const second = (await linesOf()).body.content[1].reservationId;
    const secondNumber = (await reservationRow(second)).reservationNumber;

    const french = await linesOf(FR);
    expect(french.headers.get('Content-Language')).toBe('fr');
    expect(french.headers.get('Vary')).toContain('Accept-Language');
    expect(french.body.content.map((t: { description: string }) => t.description)).toEqual([
      `Paiement de la réservation ${booking.reservationNumber} conservé sous séquestre`,
      `Paiement de la réservation ${secondNumber} conservé sous séquestre`,
      `Réservation ${secondNumber} : blocage de 50,00\u00a0EUR sur la carte levé, rien n'a été débité`,
    ]);
    const english = await linesOf({ 'Accept-Language': 'de-DE,en;q=0.5' });
    expect(english.headers.get('Content-Language')).toBe('en');
    expect(english.body.content.map((t: { description: string }) => t.description)).toEqual([
      `Payment for reservation ${booking.reservationNumber} held in escrow`,
      `Payment for reservation ${secondNumber} held in escrow`,
      `Reservation ${secondNumber}: card hold of 50.00 EUR released, nothing charged`,
    ]);
    // The stored English is what the line says in English, word for word.
    const stored = await db().select({ description: transactions.description }).from(transactions).where(eq(transactions.ownerId, sender.id)).orderBy(transactions.id);
    expect(stored.map((t) => t.description)).toEqual(english.body.content.map((t: { description: string }) => t.description));

    const detail = await get(`/v1/api/transactions/${payment}`, { token: sender.token, headers: FR });
    expect(detail.body.description).toBe(`Paiement de la réservation ${booking.reservationNumber} conservé sous séquestre`);

    // A line from before migration 0035 has no key: it stays in the English it was written in.
    await db().update(transactions).set({ descriptionText: null }).where(eq(transactions.id, Number(payment)));
    expect((await get(`/v1/api/transactions/${payment}`, { token: sender.token, headers: FR })).body.description).toBe(
      `Payment for reservation ${booking.reservationNumber} held in escrow`,
    );
  });

  it('the invoice and a receipt in French when Accept-Language prefers it: each language made once, kept apart, both stating the same amounts', async () => {
    const { sender, booking, payment } = await senderWithTransactions();
    const FR = { 'Accept-Language': 'fr' };
    const invoice = await call('GET', `/v1/api/transactions/${payment}/receipt`, { token: sender.token, headers: FR });
    expect(invoice.status).toBe(200);
    expect(invoice.headers.get('Content-Language')).toBe('fr');
    const french = String(invoice.body);
    const { invoiceId } = await reservationRow(booking.id);
    for (const text of [
      'Facture',
      `Numéro de facture\u00a0: ${invoiceId}`,
      'Émis par la plateforme, agissant en qualité de place de marché pour le compte du transporteur\u00a0:',
      `Réservation\u00a0: ${booking.reservationNumber}`,
      'Frais de service de la plateforme TTC\u00a0: 7,50\u00a0EUR',
      'Total payé\u00a0: 50,00\u00a0EUR',
    ]) {
      expect(french).toContain(`${pdfString(text)} Tj`);
    }
    expect(await env.UPLOADS.get(`receipts/user-${sender.id}/transaction-${payment}.fr.pdf`)).not.toBeNull();
    // English is its own copy, the same figures.
    const english = String((await call('GET', `/v1/api/transactions/${payment}/receipt`, { token: sender.token })).body);
    expect(english).toContain(`${pdfString('Total paid: 50.00 EUR')} Tj`);
    expect(english).toContain(`${pdfString('Platform service fee incl. VAT: 7.50 EUR')} Tj`);
    expect(String((await call('GET', `/v1/api/transactions/${payment}/receipt`, { token: sender.token, headers: FR })).body)).toBe(french);

    // A movement without a document: its receipt names the movement and its line in French.
    const page = await get('/v1/api/transactions?type=HOLD_RELEASE', { token: sender.token });
    const [released] = page.body.content;
    const receipt = String((await call('GET', new URL(released.receiptUrl).pathname, { headers: FR })).body);
    const number = (await reservationRow(released.reservationId)).reservationNumber;
    // The text as read on the page: a line too long for it wraps onto the next.
    const shown = [...receipt.matchAll(/\(((?:[^()\\]|\\.)*)\) Tj/g)].map((m) => m[1]).join(' ');
    for (const text of [
      'Reçu de transaction',
      'Type\u00a0: Blocage de la carte levé (HOLD_RELEASE)',
      `Libellé\u00a0: Réservation ${number} : blocage de 50,00\u00a0EUR sur la carte levé, rien n'a été débité`,
      'Montant\u00a0: 50,00\u00a0EUR',
    ]) {
      expect(shown).toContain(pdfString(text).slice(1, -1));
    }
  });

  it("another user's receipt is 403", async () => {
    const { carrier, payment } = await senderWithTransactions();
    const foreign = await call('GET', `/v1/api/transactions/${payment}/receipt`, { token: carrier.token });
    expect(foreign.status).toBe(403);
  });
});

// Kept last: the cron runs here at times 72 h ahead, which would move the other tests' reservations.
describe('held shares (CONTRACT section 19: payouts wait for the dispute window)', () => {
  const HOUR = 3600_000;

  it("after delivery the carrier's share is heldBalance, not balance", async () => {
    const { carrier } = await aReservation({ status: 'DELIVERED', ...paid });
    const wallet = await get('/v1/api/user/me/wallet', { token: carrier.token });
    expect(wallet.status).toBe(200);
    expect(wallet.body).toMatchObject({ balance: 0, heldBalance: 42.5, totalEarned: 42.5, totalWithdrawn: 0 });
  });

  it('a withdrawal of held money is refused: 422 INSUFFICIENT_FUNDS, the error body says why, nothing moves', async () => {
    const { carrier } = await aReservation({ status: 'DELIVERED', ...paid });
    await aPayoutAccount(carrier, stripe.addAccount().id);
    const res = await post('/v1/api/withdrawals', { amount: 10 }, { token: carrier.token });
    expect(res.status).toBe(422);
    expect(errorBody(res)).toEqual({
      status: 422,
      errorCode: 'INSUFFICIENT_FUNDS',
      reason: 'BALANCE_TOO_LOW',
      message: 'The wallet balance does not cover this withdrawal',
      path: '/v1/api/withdrawals',
      suggestions: [
        'Check the balance available in the wallet',
        'The shares of deliveries can be withdrawn once the 72-hour dispute window has closed',
      ],
    });
    expect(await accountBalance(heldKey(carrier.id))).toBe(4250);
    expect(await db().select().from(withdrawals).where(eq(withdrawals.ownerId, carrier.id))).toEqual([]);
  });

  it('the automatic payout never pays held money; once 72 h have passed the cron makes it available and pays it, once', async () => {
    const { carrier, reservation } = await aReservation({ status: 'DELIVERED', ...paid });
    const account = stripe.addAccount();
    await aPayoutAccount(carrier, account.id);
    expect((await put('/v1/api/withdrawals/auto', { enabled: true, threshold: 10 }, { token: carrier.token })).status).toBe(200);
    const paidOut = async () => db().select().from(withdrawals).where(eq(withdrawals.ownerId, carrier.id));

    await runCron(Date.now());
    await runCron(Date.now() + 71 * HOUR);
    expect(await paidOut()).toEqual([]);
    expect(await accountBalance(heldKey(carrier.id))).toBe(4250);

    const after = Date.now() + 72 * HOUR + 10 * 60_000;
    await runCron(after);
    await runCron(after);
    expect(await accountBalance(heldKey(carrier.id))).toBe(0);
    const [w, ...more] = await paidOut();
    expect(more).toEqual([]);
    expect(w).toMatchObject({ status: 'COMPLETED', automatic: true, amountCents: 4250, destinationAccountId: account.id });
    expect(await accountBalance(walletKey(carrier.id))).toBe(0);
    const releases = await db().select().from(ledgerEntries).where(eq(ledgerEntries.key, `held-release:${reservation.id}`));
    expect(releases).toHaveLength(1);
    expect((await get('/v1/api/user/me/wallet', { token: carrier.token })).body).toMatchObject({ balance: 0, heldBalance: 0, totalEarned: 42.5, totalWithdrawn: 42.5 });
    expect(await ledgerInvariantViolations()).toEqual([]);
  });

  it('with the clock moved past the window (setSystemTime), the cron makes the share available and it can be withdrawn by hand', async () => {
    const { carrier } = await aReservation({ status: 'DELIVERED', ...paid });
    await aPayoutAccount(carrier, stripe.addAccount().id);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 72 * HOUR + 10 * 60_000);
      await runCron();
    } finally {
      vi.useRealTimers();
    }
    expect(await accountBalance(walletKey(carrier.id))).toBe(4250);
    const res = await post('/v1/api/withdrawals', { amount: 42.5 }, { token: carrier.token });
    expect(res.status).toBe(201);
    expect(await accountBalance(walletKey(carrier.id))).toBe(0);
  });
});
