// The Reservation read model: one reservation with its trip, its two parties and its items, and
// the listings of them. The busiest reads are compiled once (db/statements.ts) and only bound per
// request; every read is one D1 round trip, alone or at the end of a write batch.
import { and, asc, count, eq, inArray, type Placeholder } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { Db } from '../../db/client';
import {
  announcements,
  reservationItems,
  reservations,
  users,
  type AnnouncementRow,
  type ReservationItemRow,
  type ReservationRow,
  type ReservationStatus,
  type UserRow,
} from '../../db/schema';
import { aliasedColumns, compiled, compiledShapes } from '../../db/statements';
import type { AuthUser, Deps } from '../../env';
import { notFound } from '../../errors';
import { offsetOf, orderBy, type SortSpec } from '../../lib/pagination';
import { assertReservationAccess } from './reservation-access';

const senderUser = alias(users, 'sender_user');
const carrierUser = alias(users, 'carrier_user');

/** What a reservation view needs of its trip and of its two parties (D1 caps a result at 100 columns). */
const TRIP_FIELDS = ['departureCity', 'arrivalCity', 'departureDate', 'arrivalDate', 'pickupPoint', 'deliveryPoint'] as const;
export const PARTY_FIELDS = [
  'id',
  'firstName',
  'lastName',
  'username',
  'phoneNumber',
  'nationality',
  'email',
  'birthDate',
  'connectedAccountId',
  'enabled',
] as const;
export type TripFields = Pick<AnnouncementRow, (typeof TRIP_FIELDS)[number]>;
export type PartyFields = Pick<UserRow, (typeof PARTY_FIELDS)[number]>;

export interface ReservationView {
  r: ReservationRow;
  a: TripFields;
  sender: PartyFields;
  carrier: PartyFields;
  items: ItemView[];
}

export type ItemView = Omit<ReservationItemRow, 'id' | 'reservationId'>;

function viewSelect(db: Db) {
  return db
    .select({
      r: aliasedColumns(reservations, 'r'),
      a: aliasedColumns(announcements, 'a', TRIP_FIELDS),
      sender: aliasedColumns(senderUser, 's', PARTY_FIELDS),
      carrier: aliasedColumns(carrierUser, 'k', PARTY_FIELDS),
    })
    .from(reservations)
    .innerJoin(announcements, eq(announcements.id, reservations.announcementId))
    .innerJoin(senderUser, eq(senderUser.id, reservations.senderId))
    .innerJoin(carrierUser, eq(carrierUser.id, reservations.carrierId));
}

function attachItems(rows: Omit<ReservationView, 'items'>[], items: ReservationItemRow[]): ReservationView[] {
  const byReservation = new Map<number, ItemView[]>();
  for (const { id: _id, reservationId, ...item } of items) {
    const list = byReservation.get(reservationId) ?? [];
    list.push(item);
    byReservation.set(reservationId, list);
  }
  return rows.map((row) => ({ ...row, items: byReservation.get(row.r.id) ?? [] }));
}

const viewById = compiled((db, p: Record<'id', Placeholder>) => viewSelect(db).where(eq(reservations.id, p.id)));
const itemsOf = compiled((db, p: Record<'id', Placeholder>) =>
  db.select().from(reservationItems).where(eq(reservationItems.reservationId, p.id)).orderBy(asc(reservationItems.id)),
);

/** The two reads of one reservation's view, to run alone or at the end of a write batch. */
export function reservationViewStatements(db: Db, id: number) {
  return [viewById(db, { id }), itemsOf(db, { id })] as [ReturnType<typeof viewById>, ReturnType<typeof itemsOf>];
}

/** The view from the results of reservationViewStatements, or null when the reservation does not exist. */
export function reservationViewOf(
  rows: Omit<ReservationView, 'items'>[],
  items: ReservationItemRow[],
): ReservationView | null {
  return rows.length === 0 ? null : attachItems(rows, items)[0];
}

export async function getReservationView(db: Db, id: number): Promise<ReservationView> {
  const [rows, items] = await db.batch(reservationViewStatements(db, id));
  const view = reservationViewOf(rows, items);
  if (!view) throw notFound('Reservation', id);
  return view;
}

/** The columns listings sort on, by the API's sort field names. */
export const RESERVATION_SORT_COLUMNS = {
  createdAt: reservations.createdAt,
  reservationDate: reservations.createdAt,
  status: reservations.status,
  reservedWeight: reservations.reservedWeightG,
  totalAmount: reservations.totalAmountCents,
};
export type ReservationSortField = keyof typeof RESERVATION_SORT_COLUMNS;

/** One page of reservations and its total in one round trip (rows, count, items of those rows). */
export async function listReservationViews(
  db: Db,
  status: ReservationStatus | undefined,
  sort: SortSpec<ReservationSortField>,
  p: { page: number; size: number },
): Promise<{ rows: ReservationView[]; total: number }> {
  const where = status ? eq(reservations.status, status) : undefined;
  const order = orderBy(sort, RESERVATION_SORT_COLUMNS, reservations.id);
  const pageIds = db.select({ id: reservations.id }).from(reservations).where(where).orderBy(...order).limit(p.size).offset(offsetOf(p));
  const [rows, [{ total }], items] = await db.batch([
    viewSelect(db).where(where).orderBy(...order).limit(p.size).offset(offsetOf(p)),
    db.select({ total: count() }).from(reservations).where(where),
    db.select().from(reservationItems).where(inArray(reservationItems.reservationId, pageIds)).orderBy(asc(reservationItems.id)),
  ]);
  return { rows: attachItems(rows, items), total };
}

type PageKeys = 'owner' | 'status' | 'limit' | 'offset';
type Party = 'carrierId' | 'senderId';

// The sender's and the carrier's pages, the busiest listings: three statements compiled once
// per shape (party, status filter or not, sort).
const partyPage = compiledShapes((shape: { party: Party; byStatus: boolean; field: ReservationSortField; direction: 'asc' | 'desc' }) => {
  const order = orderBy({ field: shape.field, direction: shape.direction }, RESERVATION_SORT_COLUMNS, reservations.id);
  const where = (p: Record<PageKeys, Placeholder>) =>
    and(eq(reservations[shape.party], p.owner), shape.byStatus ? eq(reservations.status, p.status) : undefined);
  return {
    rows: compiled((db, p: Record<PageKeys, Placeholder>) => viewSelect(db).where(where(p)).orderBy(...order).limit(p.limit).offset(p.offset)),
    total: compiled((db, p: Record<PageKeys, Placeholder>) => db.select({ total: count() }).from(reservations).where(where(p))),
    items: compiled((db, p: Record<PageKeys, Placeholder>) =>
      db
        .select()
        .from(reservationItems)
        .where(inArray(reservationItems.reservationId, db.select({ id: reservations.id }).from(reservations).where(where(p)).orderBy(...order).limit(p.limit).offset(p.offset)))
        .orderBy(asc(reservationItems.id)),
    ),
  };
});

/** The sender's or the carrier's page of reservations. */
export async function listPartyReservationViews(
  db: Db,
  party: Party,
  ownerId: number,
  status: ReservationStatus | undefined,
  sort: SortSpec<ReservationSortField>,
  p: { page: number; size: number },
): Promise<{ rows: ReservationView[]; total: number }> {
  const shape = partyPage({ party, byStatus: status !== undefined, field: sort.field, direction: sort.direction });
  const values = { owner: ownerId, status: status ?? null, limit: p.size, offset: offsetOf(p) };
  const [rows, [{ total }], items] = await db.batch([shape.rows(db, values), shape.total(db, values), shape.items(db, values)]);
  return { rows: attachItems(rows, items), total };
}

/** Parties (the agency's staff included) and admins may read a reservation; everyone else gets 403. */
export const assertCanRead = (deps: Deps, auth: AuthUser, r: ReservationRow) =>
  assertReservationAccess(deps, auth, r, { sender: true, carrier: true, admins: true });
