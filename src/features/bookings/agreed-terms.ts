// What a booking on terms agreed by offer brings to createBooking (create-booking.ts): one
// booking path for both, the offer's guard and statements in the booking's own batch.
import type { Db } from '../../db/client';
import type { Statement } from '../../db/statements';
import type { AppError } from '../../errors';

/**
 * A booking on terms agreed by offer (offers/): the agreed price per kg instead of the listed one,
 * written only while the offer is still `offerStatus`, with the offer's own statements in its batch
 * (`alongside`, guarded on the reservation number) instead of the carrier's booking notice.
 */
export interface AgreedTerms {
  pricePerKgMinor: number;
  offerId: number;
  offerStatus: string;
  alongside: (db: Db, reservationNumber: string) => Statement[];
  /** Why the write was refused when the offer moved meanwhile (checked before the trip's reasons). */
  refusal: () => Promise<AppError | null>;
}
