// Payment methods (CONTRACT section 20): CARD through Stripe in every enabled currency,
// MOBILE_MONEY through Wave in the currencies mobile money is offered in (XOF). What a
// reservation can be paid with is the methods offering its currency.
import type { PaymentMethod } from '../../../db/schema';
import { businessRule } from '../../../errors';
import type { CurrencyCode } from '../../../lib/currency';
import { MOBILE_MONEY_CURRENCIES } from '../../../providers/mobile-money';

export interface OfferedMethod {
  method: PaymentMethod;
  provider: 'STRIPE' | 'WAVE';
  currencies: CurrencyCode[];
}

/** Every method with the enabled currencies it takes (a method taking none is not offered). */
export function paymentMethods(enabled: readonly CurrencyCode[]): OfferedMethod[] {
  const mobile = enabled.filter((c) => MOBILE_MONEY_CURRENCIES.includes(c));
  return [
    { method: 'CARD' as const, provider: 'STRIPE' as const, currencies: [...enabled] },
    { method: 'MOBILE_MONEY' as const, provider: 'WAVE' as const, currencies: mobile },
  ].filter((m) => m.currencies.length > 0);
}

/** The methods a payment in `currency` can use. */
export function methodsFor(currency: string, enabled: readonly CurrencyCode[]): OfferedMethod[] {
  return paymentMethods(enabled).filter((m) => (m.currencies as string[]).includes(currency));
}

/** 422 when `method` cannot pay in `currency`, naming the methods that can. */
export function assertMethodOffered(method: PaymentMethod, currency: string, enabled: readonly CurrencyCode[]): void {
  const offered = methodsFor(currency, enabled);
  if (offered.some((m) => m.method === method)) return;
  throw businessRule('payment.methodNotOffered', { method, currency, offered: offered.map((m) => m.method).join(', ') || '-' }, {
    suggestions: ['payment.listMethods'],
  });
}
