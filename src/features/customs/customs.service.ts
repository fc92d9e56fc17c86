// The customs declaration of a reservation (CONTRACT 21): read for its sender or its carrier side
// (the carrier, or staff of the carrying agency's branch), once paid; as JSON or as the CN23 PDF.
import { eq } from 'drizzle-orm';
import { users, type Locale } from '../../db/schema';
import type { AuthUser, Deps } from '../../env';
import { assertReservationAccess } from '../../access/reservation-access';
import { getReservationView } from '../reservations/reservation-views';
import { cn23Pdf } from './cn23';
import { assertDeclarable, cn23ExtrasOf, customsDeclarationOf, type CustomsDeclaration, type SenderAddress } from './customs.rules';
import type { ReservationView } from '../reservations/reservation-views';
import { corridorEntries } from '../reference/prohibited-items.service';
import { PROHIBITED_ITEMS } from '../reference/prohibited-items.data';

/** The reservation, once the caller may read its declaration: 404, then 403, then 409 before payment. */
async function declarableView(deps: Deps, auth: AuthUser, id: number): Promise<ReservationView> {
  const view = await getReservationView(deps.db, id);
  await assertReservationAccess(deps, auth, view.r, { sender: true, carrier: true });
  assertDeclarable(view.r.status);
  return view;
}

/** The sender's postal address from their profile. */
async function senderAddress(deps: Deps, senderId: number): Promise<SenderAddress> {
  const [home] = await deps.db.select({ address: users.address, postalCode: users.postalCode, city: users.city }).from(users).where(eq(users.id, senderId));
  return home ?? { address: null, postalCode: null, city: null };
}

export async function getCustomsDeclaration(deps: Deps, auth: AuthUser, id: number): Promise<CustomsDeclaration> {
  const view = await declarableView(deps, auth, id);
  return customsDeclarationOf(view, auth.id, await senderAddress(deps, view.r.senderId));
}

/** The CN23 PDF in `locale`, with its reservation number (for the file name). */
export async function getCustomsDeclarationPdf(deps: Deps, auth: AuthUser, id: number, locale: Locale) {
  const view = await declarableView(deps, auth, id);
  const extras = cn23ExtrasOf(view);
  // The restrictions the sender accepted, by their names in the reader's language, never their codes.
  const entries = [...(await corridorEntries(deps, view.r.departureCountry, view.r.arrivalCountry)), ...PROHIBITED_ITEMS];
  const named = extras.acknowledgedRestrictions.map((code) => entries.find((e) => e.code === code)?.name[locale] ?? code);
  const declaration = customsDeclarationOf(view, auth.id, await senderAddress(deps, view.r.senderId));
  return { pdf: cn23Pdf(declaration, { ...extras, acknowledgedRestrictions: named }, locale), reservationNumber: view.r.reservationNumber };
}
