// The lines of a card checkout (CONTRACT 21): the transport price, and the protection premium as
// its own line when the booking is protected; they add up to what the checkout charges.
import type { ReservationRow } from '../../../db/schema';
import { toStripeAmount, type CurrencyCode } from '../../../lib/currency';
import type { CheckoutLine } from '../../../providers/payment';

export function checkoutLines(
  r: Pick<ReservationRow, 'reservationNumber' | 'totalAmountCents' | 'protectionPremiumCents' | 'currency'>,
  transportDescription: string,
): CheckoutLine[] {
  const unit = (minor: number) => toStripeAmount(minor, r.currency as CurrencyCode);
  const lines: CheckoutLine[] = [{ description: transportDescription, amountCents: unit(r.totalAmountCents) }];
  if (r.protectionPremiumCents > 0) {
    lines.push({ description: `Protection of the declared value, reservation ${r.reservationNumber}`, amountCents: unit(r.protectionPremiumCents) });
  }
  return lines;
}
