// The mobile-money port (CONTRACT section 29: one interface, the rails behind it): a third rail,
// written here and nowhere in src/, is added next to Wave and pawaPay, and booking, escrow, refunds,
// payout accounts and withdrawals use it unchanged: the methods list its operator, a checkout sends
// it one pay-in with our UUID (202-style PENDING), its callback pays the booking, the carrier's
// rejection refunds through it, and a withdrawal pays out through it, settled by its callback.
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { mobileMoneyOperations } from '../src/db/schema';
import { depsOf, type AuthUser, type Deps } from '../src/env';
import { rejectReservation } from '../src/features/bookings/reject-booking';
import { handleRailCallback } from '../src/features/money/mobile-money/callbacks';
import { createCheckout } from '../src/features/money/payments/payments.service';
import { paymentMethods } from '../src/features/money/payments/payment-methods';
import { addPayoutAccount } from '../src/features/money/payout-accounts/payout-accounts.service';
import { requestWithdrawal } from '../src/features/money/withdrawals/withdrawals.service';
import { appConfig } from '../src/config';
import { railsOf, type CallbackVerification, type MobileMoneyRail, type OperationResult, type Operator, type PayInInput, type PayoutInput, type RefundInput } from '../src/providers/mobile-money';
import { db, reservationRow } from './helpers/db';
import { aCarrier, advance, aReservation, aTrip, deliverWithRelease, makeAvailable, type TestUser } from './helpers/factories';
import { accountBalance, ledgerInvariantViolations, reservationMoney, walletKey } from './helpers/money';

type Kind = 'PAYIN' | 'PAYOUT' | 'REFUND';
interface Sent {
  kind: Kind;
  id: string;
  amountMinor: number;
  phone: string | null;
  operator?: string;
}

/** A rail with one operator, Moov Money in Côte d'Ivoire (XOF), kept in memory: pay-ins and payouts wait for a callback, refunds complete at once. */
class MoovRail implements MobileMoneyRail {
  readonly code = 'MOOVPAY';
  readonly mode = 'SANDBOX' as const;
  sent: Sent[] = [];
  private state = new Map<string, OperationResult>();

  async operators(): Promise<Operator[]> {
    const limits = { minMinor: 100, maxMinor: 500_000 };
    return [{ code: 'MOOV_CIV', rail: this.code, displayName: 'Moov Money', country: 'CI', currency: 'XOF', decimals: 0, approval: 'PIN_PROMPT', payIn: limits, payout: limits, refund: limits }];
  }
  async predictOperator(phone: string) {
    const n = phone.replace(/[^\d+]/g, '');
    return /^\+22501\d{8}$/.test(n) ? { operator: 'MOOV_CIV', phone: n } : null;
  }
  private record(kind: Kind, id: string, amountMinor: number, phone: string | null, status: OperationResult['status'], operator?: string) {
    this.sent.push({ kind, id, amountMinor, phone, operator });
    const result: OperationResult = { status, ref: id, providerTransactionId: status === 'COMPLETED' ? `MOOV-${id.slice(0, 6)}` : null, failure: null, amountMinor, currency: 'XOF' };
    this.state.set(id, result);
    return result;
  }
  async payIn(input: PayInInput) {
    return { ...this.record('PAYIN', input.id, input.amountMinor, input.phone, 'PENDING', input.operator), approvalUrl: null, expiresAt: null };
  }
  async payInStatus(id: string) {
    const s = this.state.get(id);
    return s ? { ...s, approvalUrl: null, expiresAt: null } : null;
  }
  async cancelPayIn() {}
  async refund(input: RefundInput) {
    return this.record('REFUND', input.id, input.amountMinor, input.phone, 'COMPLETED');
  }
  async refundStatus(id: string) {
    return this.state.get(id) ?? null;
  }
  async payout(input: PayoutInput) {
    return this.record('PAYOUT', input.id, input.amountMinor, input.phone, 'PENDING', input.operator);
  }
  async payoutStatus(id: string) {
    return this.state.get(id) ?? null;
  }
  /** The rail's callback body for `id`, now final. */
  complete(id: string): string {
    const s = this.state.get(id)!;
    Object.assign(s, { status: 'COMPLETED', providerTransactionId: `MOOV-${id.slice(0, 6)}` });
    return JSON.stringify({ id, kind: this.sent.find((x) => x.id === id)!.kind });
  }
  async verifyCallback(rawBody: string): Promise<CallbackVerification> {
    const { id, kind } = JSON.parse(rawBody) as { id: string; kind: Kind };
    const s = this.state.get(id);
    if (!s) return { ok: false, reason: 'malformed-event' };
    return { ok: true, callback: { eventId: `${id}:${s.status}`, type: `moov.${s.status.toLowerCase()}`, operation: { ...s, kind } } };
  }
}

/** The service's own rails (Wave, pawaPay's local sandbox) plus the third one. */
function withMoov(): { deps: Deps; moov: MoovRail } {
  const deps = depsOf(env);
  const moov = new MoovRail();
  const rails = railsOf([...deps.providers.mobileMoney.all, moov]);
  return { deps: { ...deps, providers: new Proxy(deps.providers, { get: (t, k) => (k === 'mobileMoney' ? rails : Reflect.get(t, k)) }) }, moov };
}

const asAuth = (u: TestUser): AuthUser => ({ id: u.id, roles: u.roles, jti: `t-${u.id}`, exp: Math.floor(Date.now() / 1000) + 3600 });

/** A 5000 XOF booking from Abidjan (2 kg at 2500 XOF/kg: carrier 4250, commission 750). */
async function xofBooking(carrier?: TestUser) {
  const c = carrier ?? (await aCarrier());
  const trip = await aTrip(c, { currency: 'XOF', departureCity: 'Abidjan', departureCountry: 'CI', arrivalCity: 'Paris', arrivalCountry: 'FR', pricePerKgCents: 2_500, reservedWeightG: 2_000 });
  return aReservation({ carrier: c, trip, weightG: 2_000, set: { currency: 'XOF' } });
}

async function operation(subject: string) {
  const [op] = await db().select().from(mobileMoneyOperations).where(eq(mobileMoneyOperations.subject, subject));
  return op;
}

describe('a third mobile-money rail behind the port, with no change to booking, ledger or payout code', () => {
  it('is listed, takes the pay-in, pays the booking on its callback and refunds it when the carrier rejects', async () => {
    const { deps, moov } = withMoov();
    const methods = await paymentMethods(deps, appConfig(env).currencies, { currency: 'XOF', country: 'CI' });
    expect(methods.find((m) => m.provider === 'MOOV_CIV')).toEqual({
      method: 'MOBILE_MONEY', provider: 'MOOV_CIV', displayName: 'Moov Money', currencies: ['XOF'], countries: ['CI'], payIn: { min: 100, max: 500_000 }, payout: { min: 100, max: 500_000 }, decimals: 0, approval: 'PIN_PROMPT',
    });

    const { sender, carrier, reservation } = await xofBooking();
    const res = await createCheckout(deps, asAuth(sender), reservation.id, 'MOBILE_MONEY', { provider: 'MOOV_CIV', phone: '+225 01 02 03 04 05' });
    const op = await operation(`payin:${reservation.id}:1`);
    expect(res).toMatchObject({ paymentId: op.id, status: 'PENDING', provider: 'MOOV_CIV', approval: 'PIN_PROMPT', paymentApprovalUrl: null });
    expect(moov.sent).toEqual([{ kind: 'PAYIN', id: op.id, amountMinor: 5000, phone: '+2250102030405', operator: 'MOOV_CIV' }]);
    // The same request again hands back the open pay-in: nothing new sent.
    expect((await createCheckout(deps, asAuth(sender), reservation.id, 'MOBILE_MONEY', { provider: 'MOOV_CIV', phone: '+2250102030405' })).paymentId).toBe(op.id);
    expect(moov.sent).toHaveLength(1);

    const body = moov.complete(op.id);
    expect(await handleRailCallback(deps, 'MOOVPAY', body, new Headers())).toEqual({ received: true, duplicate: false });
    expect(await handleRailCallback(deps, 'MOOVPAY', body, new Headers())).toEqual({ received: true, duplicate: true });
    expect(await reservationRow(reservation.id)).toMatchObject({ status: 'PAID', paymentStatus: 'CAPTURED' });
    expect((await reservationMoney(reservation.id)).ESCROW).toBe(5000);

    await rejectReservation(deps, asAuth(carrier), reservation.id);
    const refund = await operation(`refund:${reservation.id}`);
    expect(moov.sent.slice(1)).toEqual([{ kind: 'REFUND', id: refund.id, amountMinor: 5000, phone: '+2250102030405', operator: undefined }]);
    expect(await reservationRow(reservation.id)).toMatchObject({ status: 'REJECTED', paymentStatus: 'REFUNDED' });
    expect((await reservationMoney(reservation.id)).ESCROW).toBe(0);
    expect(await ledgerInvariantViolations()).toEqual([]);
  });

  it('names its operator on a payout account and pays a withdrawal out through it, settled by its callback', async () => {
    const { deps, moov } = withMoov();
    const carrier = await aCarrier();
    const { sender, reservation } = await xofBooking(carrier);
    const paid = await createCheckout(deps, asAuth(sender), reservation.id, 'MOBILE_MONEY', { provider: 'MOOV_CIV', phone: '+2250102030406' });
    await handleRailCallback(deps, 'MOOVPAY', moov.complete(paid.paymentId), new Headers());
    await advance({ id: reservation.id, action: 'ACCEPT' });
    await advance({ id: reservation.id, action: 'DEPOSIT' });
    await deliverWithRelease(reservation.id);
    await makeAvailable(reservation.id);
    const owner = { type: 'USER' as const, id: carrier.id };
    expect(await addPayoutAccount(deps, owner, { phone: '+225 01 99 88 77 66', name: 'Koffi Yao' })).toMatchObject({ provider: 'MOOV_CIV', currency: 'XOF', phone: '+2250199887766', isDefault: true });

    const w = await requestWithdrawal(deps, owner, 4250, false, null, 'XOF');
    expect(w.status).toBe('PENDING');
    const op = await operation(`payout:${w.id}`);
    expect(moov.sent.at(-1)).toEqual({ kind: 'PAYOUT', id: op.id, amountMinor: 4250, phone: '+2250199887766', operator: 'MOOV_CIV' });
    expect(await accountBalance(walletKey(carrier.id), 'XOF')).toBe(0);
    await handleRailCallback(deps, 'MOOVPAY', moov.complete(op.id), new Headers());
    expect(await operation(`payout:${w.id}`)).toMatchObject({ status: 'COMPLETED' });
    expect(moov.sent.filter((s) => s.kind === 'PAYOUT')).toHaveLength(1);
    expect(await ledgerInvariantViolations()).toEqual([]);
  });
});
