// Offers (CONTRACT 22): a sender proposes weight and a price per kg with the booking details; the
// carrier side accepts, declines or counters; an accepted offer is a reservation.
import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { createdAt, updatedAt } from './columns';
import { announcements } from './catalog';
import { agencies } from './trust';
import { reservations, type RecipientInfo } from './reservations';
import { users } from './users';

export const OFFER_STATUSES = ['PENDING', 'COUNTERED', 'ACCEPTED', 'DECLINED', 'EXPIRED', 'WITHDRAWN'] as const;
export type OfferStatus = (typeof OFFER_STATUSES)[number];

/** What POST /bookings would take besides the trip and the weight, kept until the offer is accepted. */
export interface OfferBookingDetails {
  contentInfo: string | null;
  items: Record<string, unknown>[];
  recipient: RecipientInfo;
  acknowledgedRestrictions: string[];
  declarations: { noProhibitedItems: boolean } | null;
}

export const offers = sqliteTable(
  'offers',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    announcementId: integer('announcement_id')
      .notNull()
      .references(() => announcements.id),
    senderId: integer('sender_id')
      .notNull()
      .references(() => users.id),
    /** The trip's carrier and agency when the offer was made (the access rules read them, like a reservation's). */
    carrierId: integer('carrier_id')
      .notNull()
      .references(() => users.id),
    agencyId: integer('agency_id').references(() => agencies.id),
    status: text('status', { enum: OFFER_STATUSES }).notNull().default('PENDING'),
    reservedWeightG: integer('reserved_weight_g').notNull(),
    /** The sender's price, in the trip currency's minor unit. */
    pricePerKgMinor: integer('price_per_kg_minor').notNull(),
    /** The carrier's counter price, once countered. */
    counterPricePerKgMinor: integer('counter_price_per_kg_minor'),
    currency: text('currency').notNull(),
    details: text('details', { mode: 'json' }).$type<OfferBookingDetails>().notNull(),
    message: text('message'),
    reservationId: integer('reservation_id').references(() => reservations.id),
    expiresAt: text('expires_at').notNull(),
    answeredAt: text('answered_at'),
    /** When the retention job replaced the recipient's details in `details` (30 days after the offer ended). */
    detailsErasedAt: text('details_erased_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('offers_status_expires_idx').on(t.status, t.expiresAt),
    index('offers_sender_idx').on(t.senderId, t.createdAt),
    index('offers_carrier_idx').on(t.carrierId, t.createdAt),
    index('offers_agency_idx').on(t.agencyId, t.createdAt),
    index('offers_announcement_idx').on(t.announcementId),
    index('offers_details_due_idx')
      .on(t.updatedAt)
      .where(sql`${t.detailsErasedAt} IS NULL AND ${t.status} IN ('ACCEPTED', 'DECLINED', 'EXPIRED', 'WITHDRAWN')`),
  ],
);

export type OfferRow = typeof offers.$inferSelect;
