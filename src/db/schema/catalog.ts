// Parcel categories and announcements (trips with spare capacity).
import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { createdAt, updatedAt } from './columns';
import { users } from './users';

export const categories = sqliteTable(
  'categories',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    code: text('code').notNull(),
    name: text('name').notNull(),
    description: text('description'),
    /** The French name and description (GET /categories in the reader's language); English when null. */
    nameFr: text('name_fr'),
    descriptionFr: text('description_fr'),
    /** Prohibited content (weapons, drugs...): listed so apps can warn, refused in bookings. */
    prohibited: integer('prohibited', { mode: 'boolean' }).notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('categories_code_unique').on(t.code)],
);

export const TRANSPORT_MODES = ['PLANE', 'TRAIN', 'CAR', 'BUS', 'BOAT', 'OTHER'] as const;
export const ANNOUNCEMENT_STATUSES = ['ACTIVE', 'FULL', 'CLOSED', 'CANCELLED'] as const;
/** How much a sender gets back when cancelling a confirmed booking (CONTRACT section 22). */
export const CANCELLATION_POLICIES = ['FLEXIBLE', 'MODERATE', 'STRICT'] as const;
export type CancellationPolicy = (typeof CANCELLATION_POLICIES)[number];

export const announcements = sqliteTable(
  'announcements',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    carrierId: integer('carrier_id')
      .notNull()
      .references(() => users.id),
    agencyId: integer('agency_id'),
    branchId: integer('branch_id'),
    departureCity: text('departure_city').notNull(),
    departureCountry: text('departure_country').notNull(),
    arrivalCity: text('arrival_city').notNull(),
    arrivalCountry: text('arrival_country').notNull(),
    /** Lower-cased, accent-free city names: what search compares against (indexed). */
    departureCityKey: text('departure_city_key').notNull(),
    arrivalCityKey: text('arrival_city_key').notNull(),
    departureDate: text('departure_date').notNull(),
    arrivalDate: text('arrival_date').notNull(),
    /** Weights in grams, prices in cents: capacity and money arithmetic stays exact. */
    totalWeightG: integer('total_weight_g').notNull(),
    reservedWeightG: integer('reserved_weight_g').notNull().default(0),
    pricePerKgCents: integer('price_per_kg_cents').notNull(),
    currency: text('currency').notNull(),
    pickupPoint: text('pickup_point'),
    deliveryPoint: text('delivery_point'),
    description: text('description'),
    transportMode: text('transport_mode', { enum: TRANSPORT_MODES }).notNull(),
    acceptedCategoryIds: text('accepted_category_ids', { mode: 'json' }).$type<number[]>().notNull().default(sql`'[]'`),
    status: text('status', { enum: ANNOUNCEMENT_STATUSES }).notNull().default('ACTIVE'),
    cancellationPolicy: text('cancellation_policy', { enum: CANCELLATION_POLICIES }).notNull().default('MODERATE'),
    /** An operator approved the carrier's proof of travel (CONTRACT 21). */
    travelVerified: integer('travel_verified', { mode: 'boolean' }).notNull().default(false),
    /**
     * Where the trip leaves and arrives when its city is a known place (places, migration 0075),
     * null otherwise; and each point's 2-degree cell (lib/geo.ts cellOf): the nearby search's keys.
     */
    departureLatitude: real('departure_latitude'),
    departureLongitude: real('departure_longitude'),
    arrivalLatitude: real('arrival_latitude'),
    arrivalLongitude: real('arrival_longitude'),
    departureCell: integer('departure_cell'),
    arrivalCell: integer('arrival_cell'),
    /**
     * The publisher is suspended (a private carrier's disabled account, or the agency of an agency's
     * trip): kept by triggers in the statement that suspends or reactivates (migration 0077), so the
     * search filters on the trip alone instead of looking up every match's carrier.
     */
    publisherSuspended: integer('publisher_suspended', { mode: 'boolean' }).notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('announcements_status_departure_idx').on(t.status, t.departureDate),
    // City searches: equality on the city key(s) and status, range on the departure date, so a
    // search by city never walks every active trip (EXPLAIN-tested in test/announcements.test.ts).
    index('announcements_route_idx').on(t.departureCityKey, t.arrivalCityKey, t.status, t.departureDate),
    index('announcements_departure_idx').on(t.departureCityKey, t.status, t.departureDate),
    index('announcements_arrival_idx').on(t.arrivalCityKey, t.status, t.departureDate),
    index('announcements_carrier_idx').on(t.carrierId, t.createdAt),
    index('announcements_agency_idx').on(t.agencyId),
    // Analytics: announcements created in a period.
    index('announcements_created_idx').on(t.createdAt),
    // The price suggestion: a route's trips of the last 180 days (migration 0026).
    index('announcements_country_route_idx').on(t.departureCountry, t.arrivalCountry, t.departureDate),
    // The nearby search (CONTRACT section 30, migration 0075): each pair of cells of the two discs,
    // then the dates; the coordinates let the exact box be checked from the index alone.
    index('announcements_cells_idx').on(
      t.departureCell, t.arrivalCell, t.status, t.departureDate, t.departureLatitude, t.departureLongitude, t.arrivalLatitude, t.arrivalLongitude,
    ),
    index('announcements_departure_cell_idx').on(t.departureCell, t.status, t.departureDate, t.departureLatitude, t.departureLongitude),
    index('announcements_arrival_cell_idx').on(t.arrivalCell, t.status, t.departureDate, t.arrivalLatitude, t.arrivalLongitude),
  ],
);

/**
 * Listed trips (ACTIVE, publisher not suspended) per route and departure day, kept by triggers on
 * announcements (migration 0078): a route search's total sums one row per day instead of reading
 * one index entry per trip (CONTRACT section 30, flat cost). WITHOUT ROWID in SQL.
 */
export const routeDayTrips = sqliteTable(
  'route_day_trips',
  {
    departureCityKey: text('departure_city_key').notNull(),
    arrivalCityKey: text('arrival_city_key').notNull(),
    departureDate: text('departure_date').notNull(),
    trips: integer('trips').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.departureCityKey, t.arrivalCityKey, t.departureDate] })],
);

/**
 * Listed trips per route, all days together: the sum of its route_day_trips, kept by triggers on
 * that table (migration 0080, which also deletes a day whose total falls to 0). A route search
 * from today reads this row less the route's days before today. WITHOUT ROWID in SQL.
 */
export const routeTrips = sqliteTable(
  'route_trips',
  {
    departureCityKey: text('departure_city_key').notNull(),
    arrivalCityKey: text('arrival_city_key').notNull(),
    trips: integer('trips').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.departureCityKey, t.arrivalCityKey] })],
);

/**
 * The corridor's places with their coordinates (CONTRACT section 30), from GeoNames through
 * scripts/build-reference-data.mjs (migration 0076). `nameKey` is cityKey(name).
 */
export const places = sqliteTable(
  'places',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    countryCode: text('country_code').notNull(),
    name: text('name').notNull(),
    nameKey: text('name_key').notNull(),
    latitude: real('latitude').notNull(),
    longitude: real('longitude').notNull(),
    population: integer('population').notNull(),
  },
  (t) => [index('places_key_idx').on(t.nameKey, t.countryCode, t.population)],
);

export type AnnouncementRow = typeof announcements.$inferSelect;
export type CategoryRow = typeof categories.$inferSelect;
