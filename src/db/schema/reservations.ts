// Reservations (bookings of capacity on an announcement) and their items.
import { index, integer, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { announcements, CANCELLATION_POLICIES, categories } from './catalog';
import { createdAt, updatedAt } from './columns';
import { users } from './users';

/** Reservation statuses (CONTRACT section 7); the transitions between them: features/reservations/reservation-state.ts. */
export const RESERVATION_STATUSES = [
  'PENDING_PAYMENT',
  'PAID',
  'CONFIRMED',
  'REJECTED',
  'DEPOSITED',
  'IN_TRANSIT',
  'DELIVERED',
  'CANCELLED',
  'EXPIRED',
  'DISPUTED',
  'REFUNDED',
] as const;
export type ReservationStatus = (typeof RESERVATION_STATUSES)[number];

/** Payment statuses a reservation goes through (reservation.paymentStatus). */
export const PAYMENT_STATUS = {
  PENDING: 'PENDING',
  /** The checkout ended unpaid: abandoned (the provider expired it) or the booking ended first. */
  EXPIRED: 'EXPIRED',
  FAILED: 'FAILED',
  AUTHORIZED: 'AUTHORIZED',
  CAPTURED: 'CAPTURED',
  VOID_PENDING: 'VOID_PENDING',
  VOIDED: 'VOIDED',
  PARTIAL_CAPTURE_PENDING: 'PARTIAL_CAPTURE_PENDING',
  /** The kept share captured (captureId), the rest of the hold released: nothing was refunded. */
  PARTIALLY_CAPTURED: 'PARTIALLY_CAPTURED',
  REFUND_PENDING: 'REFUND_PENDING',
  REFUNDED: 'REFUNDED',
  /** Captured, then part of it refunded (refundId). */
  PARTIALLY_REFUNDED: 'PARTIALLY_REFUNDED',
  AUTHORIZATION_EXPIRED: 'AUTHORIZATION_EXPIRED',
} as const;
export type PaymentStatusValue = (typeof PAYMENT_STATUS)[keyof typeof PAYMENT_STATUS];

/**
 * Invoice statuses (reservation.invoiceStatus, CONTRACT section 19, docs/decisions-money.md): null
 * while nothing was captured (an authorisation, voided or lapsed, has no invoice); ISSUED once the
 * capture issued the invoice; PARTIALLY_CREDITED or CREDITED once a refund after capture issued a
 * credit note for part or all of it. Set in the batch that writes the document.
 */
export const INVOICE_STATUSES = ['ISSUED', 'PARTIALLY_CREDITED', 'CREDITED'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

/** The sender's declarations at booking (CONTRACT 21). */
export interface BookingDeclarations {
  noProhibitedItems: boolean;
  acknowledgedRestrictions: string[];
}

export interface RecipientInfo {
  firstName: string;
  lastName: string;
  email?: string | null;
  phone?: string | null;
  address?: string | null;
  city?: string | null;
  postalCode?: string | null;
  instructions?: string | null;
}

export const reservations = sqliteTable(
  'reservations',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    reservationNumber: text('reservation_number').notNull(),
    announcementId: integer('announcement_id')
      .notNull()
      .references(() => announcements.id),
    senderId: integer('sender_id')
      .notNull()
      .references(() => users.id),
    /** Copied from the announcement at booking time so listings need no join to filter. */
    carrierId: integer('carrier_id')
      .notNull()
      .references(() => users.id),
    agencyId: integer('agency_id'),
    status: text('status', { enum: RESERVATION_STATUSES }).notNull().default('PENDING_PAYMENT'),
    reservedWeightG: integer('reserved_weight_g').notNull(),
    contentInfo: text('content_info'),
    depositCode: text('deposit_code').notNull(),
    deliveryCode: text('delivery_code').notNull(),
    recipient: text('recipient', { mode: 'json' }).$type<RecipientInfo>().notNull(),
    /** What the sender declared at booking (CONTRACT 21), shown to the carrier; null for v1 clients. */
    declarations: text('declarations', { mode: 'json' }).$type<BookingDeclarations>(),
    /** Long random secret of the public recipient page. */
    recipientToken: text('recipient_token').notNull(),
    pricePerKgCents: integer('price_per_kg_cents').notNull(),
    /**
     * The trip's terms as booked (CONTRACT section 19), copied from the announcement: an edit of the
     * trip rewrites them only on a reservation not yet deposited (TRIP_CHANGED), never after.
     */
    departureCity: text('departure_city').notNull(),
    departureCountry: text('departure_country').notNull(),
    arrivalCity: text('arrival_city').notNull(),
    arrivalCountry: text('arrival_country').notNull(),
    departureDate: text('departure_date').notNull(),
    arrivalDate: text('arrival_date').notNull(),
    pickupPoint: text('pickup_point'),
    deliveryPoint: text('delivery_point'),
    /** When the trip's dates or points last changed under this booking: the sender may cancel for free until departure. */
    tripChangedAt: text('trip_changed_at'),
    /** The trip's cancellation policy when booked (CONTRACT section 22): kept, never rewritten by a trip edit. */
    cancellationPolicy: text('cancellation_policy', { enum: CANCELLATION_POLICIES }).notNull().default('MODERATE'),
    totalAmountCents: integer('total_amount_cents').notNull(),
    platformCommissionCents: integer('platform_commission_cents').notNull(),
    carrierAmountCents: integer('carrier_amount_cents').notNull(),
    currency: text('currency').notNull(),
    /** The protection option (CONTRACT 21): premium charged beside the price (0: not protected), declared value, coverage. */
    protectionPremiumCents: integer('protection_premium_cents').notNull().default(0),
    protectionDeclaredCents: integer('protection_declared_cents'),
    protectionCoverageCents: integer('protection_coverage_cents'),
    paymentId: text('payment_id'),
    authorizationId: text('authorization_id'),
    captureId: text('capture_id'),
    refundId: text('refund_id'),
    /** When the provider confirmed the refund (refundId set): the reconciliation's day of it (migration 0062). */
    refundedAt: text('refunded_at'),
    /** Which refund attempt the provider side is on: an operator's retry starts the next (new idempotency key, features/money/reconciliation). */
    refundAttempt: integer('refund_attempt').notNull().default(0),
    /** The provider's last refusal of this reservation's refund, void or partial capture (null once it goes through). */
    settlementError: text('settlement_error'),
    paymentStatus: text('payment_status'),
    paymentDate: text('payment_date'),
    paymentApprovalUrl: text('payment_approval_url'),
    /** The invoice number: `F-<year>-<6-digit sequence>` (money_documents; `INV-...` before migration 0022). */
    invoiceId: text('invoice_id'),
    /**
     * The PAYMENT transaction whose receipt is the invoice. `invoiceUrl` is not stored: it is a signed
     * link that expires, made from this id when the reservation is read (lib/urls.ts receiptUrl).
     */
    invoiceTransactionId: integer('invoice_transaction_id'),
    invoiceStatus: text('invoice_status').$type<InvoiceStatus>(),
    /** Unpaid reservations expire at this instant (30 minutes after booking). */
    paymentDeadline: text('payment_deadline').notNull(),
    paidAt: text('paid_at'),
    confirmedAt: text('confirmed_at'),
    depositedAt: text('deposited_at'),
    deliveredAt: text('delivered_at'),
    cancelledAt: text('cancelled_at'),
    cancelledBy: integer('cancelled_by'),
    cancellationReason: text('cancellation_reason'),
    idempotencyKey: text('idempotency_key'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('reservations_number_unique').on(t.reservationNumber),
    uniqueIndex('reservations_recipient_token_unique').on(t.recipientToken),
    /** Database-level guard behind the Idempotency-Key middleware: one reservation per key and sender. */
    uniqueIndex('reservations_sender_idempotency_unique').on(t.senderId, t.idempotencyKey),
    index('reservations_carrier_idx').on(t.carrierId, t.createdAt),
    index('reservations_sender_idx').on(t.senderId, t.createdAt),
    index('reservations_announcement_idx').on(t.announcementId, t.status),
    index('reservations_status_deadline_idx').on(t.status, t.paymentDeadline),
    index('reservations_status_paid_idx').on(t.status, t.paidAt),
    // The watchdog's captures and refunds pending too long (features/watchdog).
    index('reservations_payment_status_idx').on(t.paymentStatus, t.updatedAt),
    // Analytics: reservations created in a period, by status (covering, no table scan).
    index('reservations_created_status_idx').on(t.createdAt, t.status),
    // Agency dashboard: an agency's reservations by status.
    index('reservations_agency_status_idx').on(t.agencyId, t.status),
  ],
);

export const reservationItems = sqliteTable(
  'reservation_items',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    reservationId: integer('reservation_id')
      .notNull()
      .references(() => reservations.id, { onDelete: 'cascade' }),
    categoryId: integer('category_id').references(() => categories.id),
    code: text('code'),
    name: text('name').notNull(),
    reservedQuantity: real('reserved_quantity').notNull().default(1),
    description: text('description'),
    weight: real('weight'),
    lengthCm: real('length_cm'),
    widthCm: real('width_cm'),
    heightCm: real('height_cm'),
    isFragile: integer('is_fragile', { mode: 'boolean' }).notNull().default(false),
    containsLiquids: integer('contains_liquids', { mode: 'boolean' }).notNull().default(false),
    imageUrl: text('image_url'),
    /** What the sender declares the item is worth (CONTRACT 21), in the reservation's currency's minor units; null when not declared. */
    declaredValueMinor: integer('declared_value'),
  },
  (t) => [index('reservation_items_reservation_idx').on(t.reservationId), index('reservation_items_category_idx').on(t.categoryId)],
);

export type ReservationRow = typeof reservations.$inferSelect;
export type ReservationItemRow = typeof reservationItems.$inferSelect;
