// Search alerts: saved announcement searches whose owner is notified when a new trip matches.
import { index, integer, real, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { TRANSPORT_MODES } from './catalog';
import { createdAt, updatedAt } from './columns';
import { users } from './users';

export const searchAlerts = sqliteTable(
  'search_alerts',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    name: text('name'),
    departureCity: text('departure_city'),
    arrivalCity: text('arrival_city'),
    /** Normalised like announcements.departure_city_key so matching is case- and accent-insensitive. */
    departureCityKey: text('departure_city_key'),
    arrivalCityKey: text('arrival_city_key'),
    departureCountry: text('departure_country'),
    arrivalCountry: text('arrival_country'),
    dateFrom: text('date_from'),
    dateTo: text('date_to'),
    minWeightG: integer('min_weight_g'),
    maxPricePerKgCents: integer('max_price_per_kg_cents'),
    /** The currency of the price limit (migration 0033): only trips priced in it match; null without a limit. */
    currency: text('currency'),
    categoryId: integer('category_id'),
    transportMode: text('transport_mode', { enum: TRANSPORT_MODES }),
    /** The nearby search's parameters (CONTRACT section 30, migration 0075); 0 = the cities' names only. */
    radiusKm: integer('radius_km').notNull().default(0),
    /** The day wanted, give or take dateFlexDays. */
    date: text('date'),
    dateFlexDays: integer('date_flex_days').notNull().default(0),
    /** The alert's cities on the map when they are known places (placed when saved). */
    departureLatitude: real('departure_latitude'),
    departureLongitude: real('departure_longitude'),
    arrivalLatitude: real('arrival_latitude'),
    arrivalLongitude: real('arrival_longitude'),
    active: integer('active', { mode: 'boolean' }).notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('search_alerts_user_idx').on(t.userId, t.createdAt), index('search_alerts_active_idx').on(t.active, t.arrivalCityKey)],
);

export type SearchAlertRow = typeof searchAlerts.$inferSelect;
