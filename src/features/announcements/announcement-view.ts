// What a listing selects of a trip and its carrier, and the Announcement it shows (the search,
// the nearby search and the reads share it).
import { getTableColumns, sql } from 'drizzle-orm';
import { aliasedColumns } from '../../db/statements';
import { announcements, userRatings, users, type AnnouncementRow, type UserRow } from '../../db/schema';
import { fromGrams } from '../../lib/money';
import { pricePerKgOut } from './trip-currency';
import { toSummary } from '../reviews/reviews.service';
import { toPublicProfile } from '../users/public-profile';
import { cancellationCountColumns, cancellationRateOf } from '../users/cancellation-rate';
import { remainingCapacityG } from './capacity';

/**
 * The carrier's public profile, rating and cancellation counts, selected with the announcement in
 * one query that left-joins user_ratings and carrier_cancellation_counts on its carrier (one row
 * each by primary key). Aliased:
 * D1 batch results are keyed by column name, so users.id would overwrite announcements.id.
 */
export const carrierColumns = {
  ...aliasedColumns(users, 'carrier_user', ['id', 'firstName', 'lastName', 'username', 'avatarUrl', 'kycStatus', 'phoneVerified', 'createdAt']),
  ratingCount: sql<number | null>`${userRatings.reviewCount}`.as('carrier_rating_count'),
  ratingSum: sql<number | null>`${userRatings.ratingSum}`.as('carrier_rating_sum'),
  // The carrier's cancellationRate (users/cancellation-rate.ts): one row per carrier, kept.
  ...cancellationCountColumns,
};

/** A listing's columns: what the Announcement shows, without the search keys or the carrier's id again (it is carrier_id). */
const { departureCityKey: _dk, arrivalCityKey: _ak, departureLatitude: _a, departureLongitude: _b, arrivalLatitude: _c, arrivalLongitude: _d, departureCell: _e, arrivalCell: _f, publisherSuspended: _g, ...columns } =
  getTableColumns(announcements);
export const listedColumns = columns;
const { id: _carrierId, ...carrierOnly } = carrierColumns;
export const listedCarrierColumns = carrierOnly;
type SearchOnly = 'departureCityKey' | 'arrivalCityKey' | 'departureLatitude' | 'departureLongitude' | 'arrivalLatitude' | 'arrivalLongitude' | 'departureCell' | 'arrivalCell' | 'publisherSuspended';
export type ListedRow = Omit<AnnouncementRow, SearchOnly>;
type CarrierRow = {
  id: number;
  firstName: string;
  lastName: string;
  username: string | null;
  avatarUrl: string | null;
  kycStatus: UserRow['kycStatus'];
  phoneVerified: boolean;
  createdAt: string;
  ratingCount: number | null;
  ratingSum: number | null;
  cancelledCount: number | null;
  countedCount: number | null;
};

export function toAnnouncement(row: ListedRow, carrier: Omit<CarrierRow, 'id'>) {
  return {
    id: row.id,
    carrierId: row.carrierId,
    agencyId: row.agencyId,
    branchId: row.branchId,
    departureCity: row.departureCity,
    departureCountry: row.departureCountry,
    arrivalCity: row.arrivalCity,
    arrivalCountry: row.arrivalCountry,
    departureDate: row.departureDate,
    arrivalDate: row.arrivalDate,
    totalWeight: fromGrams(row.totalWeightG),
    reservedWeight: fromGrams(row.reservedWeightG),
    remainingWeight: fromGrams(remainingCapacityG(row)),
    pricePerKg: pricePerKgOut(row.pricePerKgCents, row.currency),
    currency: row.currency,
    pickupPoint: row.pickupPoint,
    deliveryPoint: row.deliveryPoint,
    description: row.description,
    transportMode: row.transportMode,
    acceptedCategoryIds: row.acceptedCategoryIds,
    status: row.status,
    cancellationPolicy: row.cancellationPolicy,
    travelVerified: row.travelVerified,
    carrier: toPublicProfile(
      { ...carrier, id: row.carrierId },
      toSummary(carrier.ratingCount === null ? undefined : { reviewCount: carrier.ratingCount, ratingSum: carrier.ratingSum ?? 0 }),
      cancellationRateOf(carrier),
    ),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
export type Announcement = ReturnType<typeof toAnnouncement>;
