// The operator's own rules on an amount (CONTRACT section 29): its minimum and maximum for the kind
// of operation, and the decimals it accepts (XOF, XAF: none), checked before anything is sent.
import { businessRule } from '../../../errors';
import { formatMoney } from '../../../lib/money';
import { isCurrencyCode, minorUnitOf } from '../../../lib/currency';
import type { Operator } from '../../../providers/mobile-money';

export type LimitKind = 'payIn' | 'payout' | 'refund';

/** Null when `amountMinor` is fine for `operator`; else the broken rule's message key and values. */
export function limitBreach(operator: Operator, kind: LimitKind, amountMinor: number) {
  const limits = operator[kind];
  const currency = operator.currency;
  // The name people know, with the code the API takes (words, not only internals).
  const provider = `${operator.displayName} (${operator.code})`;
  if (!limits) return { key: 'mobilemoney.operationNotOffered' as const, params: { provider, kind } };
  const minor = isCurrencyCode(currency) ? minorUnitOf(currency) : 0;
  // An operator taking fewer decimals than the currency has: whole units only.
  if (operator.decimals < minor && amountMinor % 10 ** (minor - operator.decimals) !== 0) {
    return { key: 'mobilemoney.amountDecimals' as const, params: { provider, decimals: operator.decimals } };
  }
  if (amountMinor < limits.minMinor || amountMinor > limits.maxMinor) {
    return {
      key: 'mobilemoney.amountOutOfLimits' as const,
      params: { provider, amount: formatMoney(amountMinor, currency), min: formatMoney(limits.minMinor, currency), max: formatMoney(limits.maxMinor, currency) },
    };
  }
  return null;
}

/** 422 BUSINESS_RULE_VIOLATION naming the operator's rule when `amountMinor` breaks it. */
export function assertWithinLimits(operator: Operator, kind: LimitKind, amountMinor: number): void {
  const breach = limitBreach(operator, kind, amountMinor);
  if (breach) throw businessRule(breach.key, breach.params as never);
}
