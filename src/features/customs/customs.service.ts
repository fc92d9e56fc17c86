// The customs declaration of a reservation (CONTRACT 21): read for its sender or its carrier side
// (the carrier, or staff of the carrying agency's branch), once paid; as JSON or as the CN23 PDF.
import type { Locale } from '../../db/schema';
import type { AuthUser, Deps } from '../../env';
import { assertReservationAccess } from '../../access/reservation-access';
import { getReservationView } from '../reservations/reservation-views';
import { cn23Pdf } from './cn23';
import { assertDeclarable, cn23ExtrasOf, customsDeclarationOf, type CustomsDeclaration } from './customs.rules';
import type { ReservationView } from '../reservations/reservation-views';

/** The reservation, once the caller may read its declaration: 404, then 403, then 409 before payment. */
async function declarableView(deps: Deps, auth: AuthUser, id: number): Promise<ReservationView> {
  const view = await getReservationView(deps.db, id);
  await assertReservationAccess(deps, auth, view.r, { sender: true, carrier: true });
  assertDeclarable(view.r.status);
  return view;
}

export async function getCustomsDeclaration(deps: Deps, auth: AuthUser, id: number): Promise<CustomsDeclaration> {
  return customsDeclarationOf(await declarableView(deps, auth, id), auth.id);
}

/** The CN23 PDF in `locale`, with its reservation number (for the file name). */
export async function getCustomsDeclarationPdf(deps: Deps, auth: AuthUser, id: number, locale: Locale) {
  const view = await declarableView(deps, auth, id);
  return { pdf: cn23Pdf(customsDeclarationOf(view, auth.id), cn23ExtrasOf(view), locale), reservationNumber: view.r.reservationNumber };
}
