// The Reservation read model: one reservation with its trip, its two parties and its items, and
// the listings of them. The busiest reads are compiled once (db/statements.ts) and only bound per
// request; every read is one D1 round trip, alone or at the end of a write batch.
import { and, count, eq, getTableColumns, isNull, or, sql, type SQL } from 'drizzle-orm';
import { actsForAgencyTrip } from '../../access/agency-scope';
import { alias, type AnySQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { Db } from '../../db/client';
import {
  agencies,
  reservationItems,
  reservations,
  users,
  type ReservationItemRow,
  type ReservationRow,
  type ReservationStatus,
  type UserRow,
} from '../../db/schema';
import { aliasedColumns, compiled, runAlone, compiledShapes, pageTotal, rowsAsJson, totalledPage, withTotal, type Placeholders } from '../../db/statements';
import { notFound } from '../../errors';
import { offsetOf, orderBy, type SortSpec } from '../../lib/pagination';

const senderUser = alias(users, 'sender_user');
const carrierUser = alias(users, 'carrier_user');

/**
 * What a reservation view shows of its trip: the reservation's own copy of the terms it was booked
 * on (reservation-terms.ts), never the trip's current values. And of its two parties (D1 caps a
 * result at 100 columns).
 */
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
export type TripFields = Pick<ReservationRow, (typeof TRIP_FIELDS)[number]>;
export type PartyFields = Pick<UserRow, (typeof PARTY_FIELDS)[number]>;

export interface ReservationView {
  r: ReservationRow;
  a: TripFields;
  sender: PartyFields;
  carrier: PartyFields;
  agency: AgencyContact;
  items: ItemView[];
}

export type ItemView = Omit<ReservationItemRow, 'id' | 'reservationId'>;

/**
 * What the Reservation DTO (reservation.schemas.ts) and the read check (assertCanRead) use of a view: the
 * reservation's own columns and the parties' names and emails, not the whole row (about 70 columns
 * a row otherwise). The client reads, by id and by party page, select only these; the super-admin
 * detail and the write paths keep the whole view.
 */
const DTO_RESERVATION_FIELDS = [
  'id',
  'reservationNumber',
  'announcementId',
  'senderId',
  'carrierId',
  'agencyId',
  'status',
  'reservedWeightG',
  'contentInfo',
  'depositCode',
  'deliveryCode',
  'pricePerKgCents',
  'totalAmountCents',
  'platformCommissionCents',
  'carrierAmountCents',
  'currency',
  'paymentId',
  'authorizationId',
  'captureId',
  'refundId',
  'paymentStatus',
  'paymentDate',
  'paymentApprovalUrl',
  'invoiceId',
  'invoiceTransactionId',
  'recipient',
  'declarations',
  'paidAt',
  'createdAt',
] as const satisfies readonly (keyof ReservationRow)[];
const DTO_PARTY_FIELDS = ['id', 'firstName', 'lastName', 'email'] as const satisfies readonly (keyof PartyFields)[];

/** The columns of a view the Reservation DTO reads; a whole ReservationView is one too. */
export interface ReservationDtoView {
  r: Pick<ReservationRow, (typeof DTO_RESERVATION_FIELDS)[number]>;
  a: TripFields;
  sender: Pick<PartyFields, (typeof DTO_PARTY_FIELDS)[number]>;
  carrier: Pick<PartyFields, (typeof DTO_PARTY_FIELDS)[number]>;
  /** The carrying agency's name and contact address; nulls for a private trip. */
  agency: AgencyContact;
  items: ItemView[];
}

export interface AgencyContact {
  name: string | null;
  email: string | null;
}

/**
 * The carrying agency's name and contact address (its own, else its owner's), read by the row's
 * statement: on an agency trip the carrier side is the agency, never the employee who published it
 * (CONTRACT 25). Nulls when `agencyId` is null.
 */
export const agencyContactColumns = (agencyId: SQL | AnySQLiteColumn) => ({
  name: sql<string | null>`(SELECT ${agencies.name} FROM ${agencies} WHERE ${agencies.id} = ${agencyId})`.as('agency_name'),
  email: sql<string | null>`(SELECT coalesce(${agencies.email}, (SELECT ${users.email} FROM ${users} WHERE ${users.id} = ${agencies.ownerId})) FROM ${agencies} WHERE ${agencies.id} = ${agencyId})`.as('agency_email'),
});

// A reservation's items, as one JSON array column of the view's own row (one statement per view,
// not two): every item column but the keys, in insertion order, decoded like the columns.
const itemsJson = rowsAsJson(reservationItems, eq(reservationItems.reservationId, reservations.id), {
  omit: ['id', 'reservationId'],
  orderBy: reservationItems.id,
}).as('items_json');

/** Every column of the reservation (the full view: the super-admin detail). */
const ALL_RESERVATION_FIELDS = Object.keys(getTableColumns(reservations)) as (keyof ReservationRow & string)[];

/**
 * A reservation with its terms, its two parties and its items, with the columns asked for
 * (and `extra` fields, e.g. a page's total).
 */
function joinedView<R extends keyof ReservationRow & string, P extends keyof PartyFields & string, E extends Record<string, SQL.Aliased> = Record<never, never>>(
  db: Db,
  reservationFields: readonly R[],
  partyFields: readonly P[],
  extra?: E,
) {
  return db
    .select({
      r: aliasedColumns(reservations, 'r', reservationFields),
      a: aliasedColumns(reservations, 'a', TRIP_FIELDS),
      sender: aliasedColumns(senderUser, 's', partyFields),
      carrier: aliasedColumns(carrierUser, 'k', partyFields),
      agency: agencyContactColumns(reservations.agencyId),
      items: itemsJson,
      ...(extra as E),
    })
    .from(reservations)
    .innerJoin(senderUser, eq(senderUser.id, reservations.senderId))
    .innerJoin(carrierUser, eq(carrierUser.id, reservations.carrierId));
}

const viewSelect = (db: Db) => joinedView(db, ALL_RESERVATION_FIELDS, PARTY_FIELDS);
/** The same joins with only the columns of ReservationDtoView. */
const dtoViewSelect = (db: Db) => joinedView(db, DTO_RESERVATION_FIELDS, DTO_PARTY_FIELDS);

// The super-admin's detail is no hot path: built per call, not compiled.
const viewById = (db: Db, id: number) => viewSelect(db).where(eq(reservations.id, id));

/** The one view a read by id returned, or 404 when the reservation does not exist. */
function onlyView<T>(id: number, rows: readonly T[]): T {
  const view = rows[0];
  if (!view) throw notFound('Reservation', id);
  return view;
}

/** One reservation with every column (the super-admin detail), or 404. */
export async function getReservationView(db: Db, id: number): Promise<ReservationView> {
  const rows = await runAlone(viewById(db, id));
  return onlyView(id, rows);
}

const dtoViewById = compiled((db, p: Placeholders<{ id: number }>) => dtoViewSelect(db).where(eq(reservations.id, p.id)));

/** The read of one reservation's Reservation DTO columns, for the end of a transition's batch (its response). */
export function reservationDtoViewStatements(db: Db, id: number) {
  return [dtoViewById(db, { id })] as [ReturnType<typeof dtoViewById>];
}

/** The DTO view read at the end of a write batch (reservationDtoViewStatements), or 404. */
export const dtoViewFromReads = (id: number, reads: unknown[]): ReservationDtoView => onlyView(id, reads[0] as ReservationDtoView[]);

/** One reservation with the columns of the Reservation DTO (GET /bookings/{id}), or 404. */
export async function getReservationDtoView(db: Db, id: number): Promise<ReservationDtoView> {
  const rows = await runAlone(dtoViewById(db, { id }));
  return onlyView(id, rows as ReservationDtoView[]);
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

/** One page of reservations carrying its total (rows with their items): one statement. */
export async function listReservationViews(
  db: Db,
  status: ReservationStatus | undefined,
  sort: SortSpec<ReservationSortField>,
  p: { page: number; size: number },
): Promise<{ rows: ReservationView[]; total: number }> {
  const where = status ? eq(reservations.status, status) : undefined;
  const order = orderBy(sort, RESERVATION_SORT_COLUMNS, reservations.id);
  const countAll = db.select({ total: count() }).from(reservations).where(where);
  const offset = offsetOf(p);
  const found = await joinedView(db, ALL_RESERVATION_FIELDS, PARTY_FIELDS, withTotal({}, countAll)).where(where).orderBy(...order).limit(p.size).offset(offset);
  return totalledPage(db, found, offset, () => countAll);
}

/** What a party's page binds. */
type PageValues = { owner: number; status: ReservationStatus | null; limit: number; offset: number };
type Party = 'carrierId' | 'senderId';

// The sender's and the carrier's pages, the busiest listings: statements compiled once
// per shape (party, status filter or not, sort).
const partyPage = compiledShapes((shape: { party: Party; byStatus: boolean; field: ReservationSortField; direction: 'asc' | 'desc' }) => {
  const order = orderBy({ field: shape.field, direction: shape.direction }, RESERVATION_SORT_COLUMNS, reservations.id);
  // A reservation on an agency trip is listed to its carrier only while they act for the trip
  // (isCarrierSide): an employee who moved branch or left no longer sees its sender and recipient.
  const stillActs = (db: Db, p: Placeholders<PageValues>) =>
    shape.party === 'carrierId' ? or(isNull(reservations.agencyId), actsForAgencyTrip(db, p.owner, reservations.agencyId, reservations.announcementId)) : undefined;
  const where = (db: Db, p: Placeholders<PageValues>) =>
    and(eq(reservations[shape.party], p.owner), shape.byStatus ? eq(reservations.status, p.status) : undefined, stillActs(db, p));
  const total = (db: Db, p: Placeholders<PageValues>) => db.select({ total: count() }).from(reservations).where(where(db, p));
  return {
    // The page carries its total (withTotal): one statement.
    rows: compiled((db, p: Placeholders<PageValues>) =>
      joinedView(db, DTO_RESERVATION_FIELDS, DTO_PARTY_FIELDS, withTotal({}, total(db, p))).where(where(db, p)).orderBy(...order).limit(p.limit).offset(p.offset),
    ),
    total: compiled(total),
  };
});

/** The sender's or the carrier's page of reservations, with the columns of the Reservation DTO. */
export async function listPartyReservationViews(
  db: Db,
  party: Party,
  ownerId: number,
  status: ReservationStatus | undefined,
  sort: SortSpec<ReservationSortField>,
  p: { page: number; size: number },
): Promise<{ rows: ReservationDtoView[]; total: number }> {
  const shape = partyPage({ party, byStatus: status !== undefined, field: sort.field, direction: sort.direction });
  const values = { owner: ownerId, status: status ?? null, limit: p.size, offset: offsetOf(p) };
  const rows = await runAlone(shape.rows(db, values));
  const total = await pageTotal(db, rows, values.offset, () => shape.total(db, values));
  return { rows, total };
}
