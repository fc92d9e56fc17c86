// Declared contents (CONTRACT 21): what the sender says each item is worth, in the trip's currency.
// The body's schema checks sign and at most two decimals; the trip's currency, known once the trip
// is read, decides the exact decimals here (12.5 XOF is refused, not rounded). Pure functions.
import { parseMinor, storedMoney } from '../../lib/amount';
import { validationError, type FieldError } from '../../errors';

/**
 * The declared value of each item in minor units of `currency` (null where none was declared),
 * or the 400 VALIDATION_ERROR naming every `items.<i>.declaredValue` with too many decimals.
 */
export function declaredValuesMinor(items: readonly { declaredValue?: number | null }[], storedCurrency: string): (number | null)[] {
  const currency = storedMoney(0, storedCurrency).currency;
  const errors: FieldError[] = [];
  const values = items.map((item, i) => {
    if (item.declaredValue === undefined || item.declaredValue === null) return null;
    const parsed = parseMinor(item.declaredValue, currency);
    if (parsed.ok) return parsed.money.minor;
    errors.push({ field: `items[${i}].declaredValue`, message: parsed.text, rejectedValue: item.declaredValue });
    return null;
  });
  if (errors.length > 0) {
    throw validationError('validation.failed', { where: 'body', names: errors.map((e) => e.field).join(', ') }, {
      fieldErrors: errors,
      suggestions: ['validation.correctFields'],
    });
  }
  return values;
}

/** The total declared value of a reservation's items, in minor units (items declaring nothing count 0). */
export const declaredTotalOf = (items: readonly { declaredValueMinor: number | null }[]): number =>
  items.reduce((total, item) => total + (item.declaredValueMinor ?? 0), 0);

/** Whether every item carries a declared value (what protection needs, CONTRACT 21). */
export const everyItemDeclared = (items: readonly { declaredValueMinor: number | null }[]): boolean =>
  items.length > 0 && items.every((item) => item.declaredValueMinor !== null);
