// Pure announcement rules: city search keys, trip date checks. No I/O.
import type { FieldError } from '../../errors';
import { msg } from '../../errors';

/** Today's date (UTC) as YYYY-MM-DD. */
export const todayUtc = (now: Date = new Date()): string => now.toISOString().slice(0, 10);

/**
 * arrivalDate >= departureDate >= today; returns the failing fields (empty when valid). A date
 * left out (not sent, or failed its own format check) is not checked, nor compared.
 */
export function tripDateErrors(departureDate: string | undefined, arrivalDate: string | undefined, today: string): FieldError[] {
  const errors: FieldError[] = [];
  if (departureDate !== undefined && departureDate < today) {
    errors.push({ field: 'departureDate', message: msg('announcement.departureDateMustTodayLater', { today }), rejectedValue: departureDate });
  }
  if (departureDate !== undefined && arrivalDate !== undefined && arrivalDate < departureDate) {
    errors.push({ field: 'arrivalDate', message: 'announcement.arrivalDateMustAfterDepartureDate', rejectedValue: arrivalDate });
  }
  return errors;
}

/** The most matches the public search counts (and, with a radius or a date, weighs): past it the page says `totalCapped`. */
export const SEARCH_TOTAL_CAP = 1000;
