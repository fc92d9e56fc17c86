// Payment methods (CONTRACT sections 20 and 29): CARD through Stripe in every enabled currency, and
// MOBILE_MONEY through each operator the mobile-money rails reach (Wave; MTN and Orange through
// pawaPay), each with its currency, countries, limits and decimals, and whether it pays in and out.
// What a reservation can be paid with is the methods offering its currency.
import type { PaymentMethod } from '../../../db/schema';
import type { Deps } from '../../../env';
import { businessRule } from '../../../errors';
import type { CurrencyCode } from '../../../lib/currency';
import { amountOf } from '../../../lib/money';
import type { Operator, OperatorLimits } from '../../../providers/mobile-money';

export interface OfferedMethod {
  method: PaymentMethod;
  /** STRIPE for cards; the operator for mobile money (WAVE, MTN_MOMO_CMR, ORANGE_CIV, ...). */
  provider: string;
  currencies: CurrencyCode[];
  displayName?: string;
  countries?: string[];
  payIn?: { min: number; max: number } | null;
  payout?: { min: number; max: number } | null;
  decimals?: number;
  approval?: Operator['approval'];
}

export interface MethodFilter {
  currency?: string;
  country?: string;
}

const limits = (l: OperatorLimits | null, currency: string) =>
  l ? { min: amountOf(l.minMinor, currency), max: l.maxMinor === Number.MAX_SAFE_INTEGER ? null : amountOf(l.maxMinor, currency) } : null;

/** One entry per operator and currency, its countries merged (Wave: Senegal, Côte d'Ivoire, ...). */
function mobileMethods(operators: Operator[], enabled: readonly CurrencyCode[], country?: string): OfferedMethod[] {
  const byKey = new Map<string, OfferedMethod>();
  for (const o of operators) {
    if (!(enabled as readonly string[]).includes(o.currency) || (country && o.country !== country)) continue;
    if (!o.payIn && !o.payout) continue;
    const key = `${o.code}:${o.currency}`;
    const found = byKey.get(key);
    if (found) {
      found.countries!.push(o.country);
      continue;
    }
    byKey.set(key, {
      method: 'MOBILE_MONEY',
      provider: o.code,
      displayName: o.displayName,
      currencies: [o.currency as CurrencyCode],
      countries: [o.country],
      payIn: limits(o.payIn, o.currency) as OfferedMethod['payIn'],
      payout: limits(o.payout, o.currency) as OfferedMethod['payout'],
      decimals: o.decimals,
      approval: o.approval,
    });
  }
  return [...byKey.values()];
}

/** Every method (CARD with every enabled currency, each mobile-money operator), narrowed by currency and country. */
export async function paymentMethods(deps: Deps, enabled: readonly CurrencyCode[], filter: MethodFilter = {}): Promise<OfferedMethod[]> {
  const card: OfferedMethod = { method: 'CARD', provider: 'STRIPE', currencies: [...enabled] };
  const mobile = mobileMethods(await deps.providers.mobileMoney.operators(), enabled, filter.country);
  return [card, ...mobile].filter((m) => m.currencies.length > 0 && (!filter.currency || (m.currencies as string[]).includes(filter.currency)));
}

/** 422 when `method` cannot pay in `currency`, naming the methods that can. */
export async function assertMethodOffered(deps: Deps, method: PaymentMethod, currency: string, enabled: readonly CurrencyCode[]): Promise<void> {
  // A card payment never waits on (or fails with) a mobile-money rail's configuration.
  if (method === 'CARD' && (enabled as readonly string[]).includes(currency)) return;
  const offered = await paymentMethods(deps, enabled, { currency });
  if (offered.some((m) => m.method === method)) return;
  throw businessRule('payment.methodNotOffered', { method, currency, offered: [...new Set(offered.map((m) => m.method))].join(', ') || '-' }, {
    suggestions: ['payment.listMethods'],
  });
}
