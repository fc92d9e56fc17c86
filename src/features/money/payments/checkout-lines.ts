// The lines of a card checkout (CONTRACT 21): the transport price, and the protection premium as
// its own line when the booking is protected; they add up to what the checkout charges. Named in
// the payer's language (the provider's page shows them as the products bought).
import type { Locale, ReservationRow } from '../../../db/schema';
import { toStripeAmount, type CurrencyCode } from '../../../lib/currency';
import { localDecimal } from '../../../lib/locale';
import { fromGrams } from '../../../lib/money';
import { msg, render } from '../../../messages';
import type { CheckoutLine } from '../../../providers/payment';

type CheckoutReservation = Pick<ReservationRow, 'reservationNumber' | 'reservedWeightG' | 'totalAmountCents' | 'protectionPremiumCents' | 'currency'>;

/** The transport line's name: `Parcel transport R-... (4 kg)`, `Transport de colis R-... (2,5 kg)`. */
export const transportLineName = (r: CheckoutReservation, locale: Locale) =>
  render(msg('money.checkoutTransport', { number: r.reservationNumber, kg: localDecimal(fromGrams(r.reservedWeightG), locale) }), locale);

export function checkoutLines(r: CheckoutReservation, locale: Locale): CheckoutLine[] {
  const unit = (minor: number) => toStripeAmount(minor, r.currency as CurrencyCode);
  const lines: CheckoutLine[] = [{ description: transportLineName(r, locale), amountCents: unit(r.totalAmountCents) }];
  if (r.protectionPremiumCents > 0) {
    lines.push({ description: render(msg('money.checkoutProtection', { number: r.reservationNumber }), locale), amountCents: unit(r.protectionPremiumCents) });
  }
  return lines;
}
