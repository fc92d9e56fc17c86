// /annonces: publish, search, read, list mine, update, delete (CONTRACT section 6).
import { createRoute, z } from '@hono/zod-openapi';
import { ANNOUNCEMENT_STATUSES, CANCELLATION_POLICIES, TRANSPORT_MODES } from '../../db/schema';
import { PublicProfileSchema } from '../users/public-profile';
import { createRouter } from '../../env';
import { authErrorResponses, bearerSecurity, errorResponses, jsonBody, jsonContent, signedIn, withRole } from '../../lib/openapi';
import { optionalCaller } from '../../middleware/auth';
import { PageSchema, pageQuery } from '../../lib/pagination';
import { decimalInt, IdParams, issueOf, passed, whenValid } from '../../validation';
import { SEARCH_TOTAL_CAP, todayUtc, tripDateErrors } from './announcement-rules';
import { CountryCode } from '../reference/country-code';
import {
  ANNOUNCEMENT_SORTS,
  createAnnouncement,
  deleteAnnouncement,
  getVisibleAnnouncement,
  listMyAnnouncements,
  searchAnnouncements,
  updateAnnouncement,
} from './announcements.service';
import { idempotent } from '../../middleware/idempotency';
import { clientIp } from '../audit/audit';
import { LOOKBACK_DAYS, MIN_SAMPLE, priceSuggestion } from './price-suggestion';
import { currencyCodeSchema } from '../../lib/amount';
import { isNearby, MAX_DATE_FLEX_DAYS, MAX_RADIUS_KM, nearbyIssues, searchNearby } from './nearby-search';

const City = z.string().trim().min(1).max(100);
const IsoDate = z.iso.date().openapi({ example: '2030-01-31' });
/** kg, at most gram precision. */
const Kilograms = z.number().positive().max(1000);
/** A price the payment provider can charge: more than zero, in cents (0.01 at least). */
const Price = z.number().min(0.01, 'announcement.priceAtLeastOneCent').max(100_000);
const TransportMode = z.enum(TRANSPORT_MODES);

const AnnouncementInputObject = z
  .object({
    departureCity: City,
    departureCountry: CountryCode,
    arrivalCity: City,
    arrivalCountry: CountryCode,
    departureDate: IsoDate,
    arrivalDate: IsoDate,
    totalWeight: Kilograms.openapi({ description: 'Capacity in kg' }),
    pricePerKg: Price.openapi({ description: "Price per kg in the trip's currency, with at most its decimals (none for XOF and XAF)" }),
    currency: currencyCodeSchema()
      .optional()
      .openapi({ description: "The trip's currency (enabled ISO 4217 code); default: the departure country's (XOF from Senegal), else EUR" }),
    pickupPoint: z.string().trim().max(255).nullable().optional(),
    deliveryPoint: z.string().trim().max(255).nullable().optional(),
    description: z.string().trim().max(2000).nullable().optional(),
    transportMode: TransportMode,
    cancellationPolicy: z
      .enum(CANCELLATION_POLICIES)
      .optional()
      .openapi({ description: 'What a sender cancelling a confirmed booking gets back (CONTRACT section 22); MODERATE when left out at publishing' }),
    branchId: z
      .number()
      .int()
      .positive()
      .nullable()
      .optional()
      .openapi({ description: 'Agency staff only: the branch publishing the trip (an employee always publishes for their own branch)' }),
    acceptedCategoryIds: z
      .array(z.number().int().positive())
      .max(50)
      .optional()
      .openapi({ description: 'Accepted categories; empty or absent = every allowed category' }),
  })
  .openapi('AnnouncementInput');

/**
 * The date rules, listed with the other field errors: departureDate >= today, arrivalDate >=
 * departureDate, on the dates sent that passed their format. An update's dates are also checked
 * against the stored ones by the service.
 */
function tripDates(v: { departureDate?: string; arrivalDate?: string }, ctx: z.RefinementCtx) {
  const sent = (field: 'departureDate' | 'arrivalDate') => (passed(ctx, field) ? v[field] : undefined);
  for (const e of tripDateErrors(sent('departureDate'), sent('arrivalDate'), todayUtc())) {
    ctx.addIssue({ code: 'custom', path: [e.field], ...issueOf(e.message) });
  }
}

const AnnouncementInputSchema = AnnouncementInputObject.superRefine(tripDates, whenValid());
const AnnouncementUpdateSchema = AnnouncementInputObject.partial().superRefine(tripDates, whenValid());

export const AnnouncementSchema = z
  .object({
    id: z.number().int(),
    carrierId: z.number().int(),
    agencyId: z.number().int().nullable(),
    branchId: z.number().int().nullable(),
    departureCity: z.string(),
    departureCountry: z.string(),
    arrivalCity: z.string(),
    arrivalCountry: z.string(),
    departureDate: z.string().openapi({ format: 'date' }),
    arrivalDate: z.string().openapi({ format: 'date' }),
    totalWeight: z.number(),
    reservedWeight: z.number(),
    remainingWeight: z.number(),
    pricePerKg: z.number(),
    currency: z.string(),
    pickupPoint: z.string().nullable(),
    deliveryPoint: z.string().nullable(),
    description: z.string().nullable(),
    transportMode: TransportMode,
    acceptedCategoryIds: z.array(z.number().int()),
    status: z.enum(ANNOUNCEMENT_STATUSES),
    cancellationPolicy: z.enum(CANCELLATION_POLICIES),
    travelVerified: z.boolean().openapi({ description: "An operator approved the carrier's proof of travel (ticket or boarding pass)" }),
    carrier: PublicProfileSchema,
    createdAt: z.string().openapi({ format: 'date-time' }),
    updatedAt: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('Announcement');

const AnnouncementPageSchema = PageSchema(AnnouncementSchema, 'AnnouncementPage');
const SearchResultSchema = AnnouncementSchema.extend({
  departureDistanceKm: z.number().nullable().optional().openapi({ description: 'With radiusKm: great-circle km from departureCity to where the trip leaves (one decimal); null without departureCity' }),
  arrivalDistanceKm: z.number().nullable().optional().openapi({ description: 'With radiusKm: great-circle km from arrivalCity to where the trip arrives (one decimal); null without arrivalCity' }),
}).openapi('AnnouncementSearchResult');
const SearchPageSchema = PageSchema(SearchResultSchema, 'AnnouncementSearchPage', {
  totalCapped: z
    .boolean()
    .optional()
    .openapi({
      description: `Present (true) only when more than ${SEARCH_TOTAL_CAP} trips matched: the search counts ${SEARCH_TOTAL_CAP} at most (totalElements is then ${SEARCH_TOTAL_CAP}; with radiusKm or date, the matches among the first ${SEARCH_TOTAL_CAP} trips weighed)`,
    }),
});
const pageParams = pageQuery({ sortable: ANNOUNCEMENT_SORTS, defaultSort: 'departureDate,asc' });

const SearchQuery = pageParams.extend({
  departureCity: z.string().trim().min(1).max(100).optional().openapi({ description: 'Case- and accent-insensitive' }),
  arrivalCity: z.string().trim().min(1).max(100).optional().openapi({ description: 'Case- and accent-insensitive' }),
  departureCountry: CountryCode.optional(),
  arrivalCountry: CountryCode.optional(),
  dateFrom: IsoDate.optional().openapi({ description: 'Earliest departure date' }),
  dateTo: IsoDate.optional().openapi({ description: 'Latest departure date' }),
  minWeight: z.coerce.number().positive().optional().openapi({ type: 'number', description: 'Minimum remaining capacity in kg' }),
  currency: currencyCodeSchema().optional().openapi({ description: 'Only trips priced in this currency' }),
  maxPricePerKg: z.coerce
    .number()
    .min(0)
    .optional()
    .openapi({ type: 'number', description: "Compared within one currency: `currency`, else the departure country's, else the platform's; trips in other currencies are left out" }),
  minPricePerKg: z.coerce.number().min(0).optional().openapi({ type: 'number', description: 'Compared like maxPricePerKg' }),
  categoryId: decimalInt(z.number().int().positive().max(2_147_483_647)).optional().openapi({ type: 'integer' }),
  transportMode: TransportMode.optional(),
  travelVerified: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional()
    .openapi({ type: 'boolean', description: 'true: only trips whose proof of travel an operator approved; false: only the others' }),
  radiusKm: decimalInt(z.number().int().min(0).max(MAX_RADIUS_KM))
    .default(0)
    .openapi({
      type: 'integer',
      minimum: 0,
      maximum: MAX_RADIUS_KM,
      default: 0,
      description: `Nearby places (0-${MAX_RADIUS_KM} km, default 0): trips leaving within this great-circle distance of departureCity and arriving within it of arrivalCity (a city that is not one of the corridor's places is matched by its name). Needs departureCity or arrivalCity. Results then carry departureDistanceKm and arrivalDistanceKm and are ordered best first`,
    }),
  date: IsoDate.optional().openapi({ description: 'The day wanted: trips departing on it, or up to dateFlexDays before or after; results are then ordered best first' }),
  dateFlexDays: decimalInt(z.number().int().min(0).max(MAX_DATE_FLEX_DAYS))
    .default(0)
    .openapi({ type: 'integer', minimum: 0, maximum: MAX_DATE_FLEX_DAYS, default: 0, description: `Days either side of date (0-${MAX_DATE_FLEX_DAYS}, default 0); needs date` }),
}).superRefine((v, ctx) => {
  for (const issue of nearbyIssues(v)) ctx.addIssue({ code: 'custom', ...issue });
}, whenValid('radiusKm', 'dateFlexDays', 'date', 'departureCity', 'arrivalCity'));

const PriceSuggestionQuery = z.object({
  departureCountry: CountryCode,
  arrivalCountry: CountryCode,
  departureCity: City.optional().openapi({ description: 'Case- and accent-insensitive; used when the cities have at least 5 trips' }),
  arrivalCity: City.optional().openapi({ description: 'Case- and accent-insensitive; used when the cities have at least 5 trips' }),
  currency: z
    .string()
    .trim()
    .regex(/^[A-Z]{3}$/, 'announcement.currencyCode')
    .openapi({ example: 'EUR', description: 'Only trips priced in this currency count' }),
});

const PriceSuggestionSchema = z
  .object({
    currency: z.string(),
    median: z.number().nullable().openapi({ description: 'Median price per kg; null below 5 trips' }),
    p25: z.number().nullable().openapi({ description: 'First quartile; null below 5 trips' }),
    p75: z.number().nullable().openapi({ description: 'Third quartile; null below 5 trips' }),
    sampleSize: z.number().int().openapi({ description: 'Trips the figures are computed from' }),
  })
  .openapi('PriceSuggestion');

export const announcementsRouter = createRouter()
  .openapi(
    createRoute(idempotent({
      method: 'post',
      operationId: 'createAnnouncement',
      path: '/annonces',
      tags: ['Announcements'],
      summary: 'Publish a trip (verified users and agency staff)',
      description: 'Publishes an ACTIVE trip with the caller as carrier: capacity in kg, price per kg in the trip\'s currency (default the departure country\'s, else EUR; at most its decimals), cancellation policy (default MODERATE), accepted categories. Agency staff publish for their agency: an employee for their own branch (another branchId is 403), the owner for any active branch or none; a suspended agency or an inactive branch is 422 BUSINESS_RULE_VIOLATION. Anyone else needs ROLE_VERIFIED_USER, and a branchId from them is 403 ACCESS_DENIED. Dates in the past, an arrival before the departure, or an unknown or prohibited category: 400 VALIDATION_ERROR. Other users\' search alerts matching the trip notify their owners (ALERT_MATCH).',
      ...withRole('ROLE_VERIFIED_USER', 'ROLE_AGENCY_OWNER', 'ROLE_AGENCY_EMPLOYEE'),
      request: { body: jsonBody(AnnouncementInputSchema) },
      responses: { 201: jsonContent(AnnouncementSchema, 'Published'), ...authErrorResponses() },
    })),
    async (c) => c.json(await createAnnouncement(c.get('deps'), c.get('auth'), c.req.valid('json')), 201),
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'searchAnnouncements',
      path: '/annonces',
      tags: ['Announcements'],
      summary: 'Search ACTIVE trips departing today or later',
      description: 'A page of ACTIVE trips departing today (UTC) or later, from carriers and agencies that are not suspended, soonest first by default (sortable by departureDate, pricePerKg and createdAt). Cities match case- and accent-insensitively; the remaining capacity must reach minWeight; a categoryId keeps the trips accepting it (or every category). A price filter or a price sort compares within one currency (currency, else the departure country\'s, else the platform\'s) and leaves trips in other currencies out. With radiusKm (nearby places, great-circle km from the asked cities\' coordinates) or date (give or take dateFlexDays), results are ordered best first, whatever sort says, by a score in km, lower first: the departure and arrival distances, plus 50 per day from date, plus 1 per per cent above the cheapest match in the same currency (at most 100), plus 25 per star the carrier\'s average rating is below 5 (unrated: 4 stars); then by departure date. The total counts ' + SEARCH_TOTAL_CAP + ' matches at most (page.totalCapped).',
      security: [],
      request: { query: SearchQuery },
      responses: { 200: jsonContent(SearchPageSchema, 'A page of trips'), ...errorResponses() },
    }),
    async (c) => {
      const { page, size, sort, radiusKm, date, dateFlexDays, ...filters } = c.req.valid('query');
      const nearby = { radiusKm, date, dateFlexDays };
      const p = { page, size, sort };
      return c.json(isNearby(nearby) ? await searchNearby(c.get('deps'), filters, nearby, p) : await searchAnnouncements(c.get('deps'), filters, p), 200);
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'listMyAnnouncements',
      path: '/annonces/mine',
      tags: ['Announcements'],
      summary: "The caller's trips, every status",
      description: 'A page of the trips the caller published as carrier, whatever their status (ACTIVE, FULL, CLOSED, CANCELLED), or only those of status; soonest departure first by default. Trips published by other staff of the caller\'s agency are not included.',
      ...signedIn(),
      request: { query: pageParams.extend({ status: z.enum(ANNOUNCEMENT_STATUSES).optional() }) },
      responses: { 200: jsonContent(AnnouncementPageSchema, 'A page of trips'), ...authErrorResponses() },
    }),
    async (c) => {
      const { status, ...p } = c.req.valid('query');
      return c.json(await listMyAnnouncements(c.get('deps'), c.get('auth'), p, status), 200);
    },
  )
  // Declared before /annonces/{id}, which would otherwise take "price-suggestion" for an id.
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'suggestPrice',
      path: '/annonces/price-suggestion',
      tags: ['Announcements'],
      summary: 'What carriers asked per kg on a route lately, before publishing',
      description: `Prices per kg of the trips on the route departing in the last ${LOOKBACK_DAYS} days or later (cancelled trips excluded), in the given currency: by the cities when they have at least ${MIN_SAMPLE} trips, else by the countries. Quartiles are linear between the closest ranks, rounded to the currency's minor unit. Below ${MIN_SAMPLE} trips the figures are null and sampleSize says how many there were.`,
      security: [],
      request: { query: PriceSuggestionQuery },
      responses: { 200: jsonContent(PriceSuggestionSchema, 'The suggestion'), ...errorResponses() },
    }),
    async (c) => c.json(await priceSuggestion(c.get('deps'), c.req.valid('query')), 200),
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'getAnnouncement',
      path: '/annonces/{id}',
      tags: ['Announcements'],
      summary: 'One trip',
      description:
        "Public. A suspended carrier's trip is 404 to the public; with a bearer token, its carrier, admins and senders who booked it still read it.",
      security: [{}, ...bearerSecurity],
      request: { params: IdParams },
      responses: { 200: jsonContent(AnnouncementSchema, 'The trip'), ...errorResponses(404) },
    }),
    async (c) => c.json(await getVisibleAnnouncement(c.get('deps'), c.req.valid('param').id, () => optionalCaller(c.env, c.req.header('Authorization'))), 200),
  )
  .openapi(
    createRoute({
      method: 'put',
      operationId: 'updateAnnouncement',
      path: '/annonces/{id}',
      tags: ['Announcements'],
      summary: 'Update a trip (owner; fields left out are kept)',
      description: 'Changes the fields sent; the trip must be ACTIVE or FULL (else 409 INVALID_STATE), and its status follows the remaining capacity. The route and the price are frozen while a reservation is paid and not finished, and the currency once any reservation exists (409 INVALID_STATE); lowering the capacity below the kilos reserved is 422 BUSINESS_RULE_VIOLATION. New dates and points are written into the reservations not yet deposited and each sender is notified (TRIP_CHANGED); a paid sender may then cancel for a full refund until departure. The trip\'s carrier, or staff of its agency allowed to manage it; anyone else gets 403 ACCESS_DENIED (no admin override).',
      ...signedIn(),
      request: { params: IdParams, body: jsonBody(AnnouncementUpdateSchema) },
      responses: { 200: jsonContent(AnnouncementSchema, 'Updated'), ...authErrorResponses(404, 409, 422) },
    }),
    async (c) =>
      c.json(await updateAnnouncement(c.get('deps'), c.get('auth'), c.req.valid('param').id, c.req.valid('json'), clientIp(c)), 200),
  )
  .openapi(
    createRoute({
      method: 'delete',
      operationId: 'cancelAnnouncement',
      path: '/annonces/{id}',
      tags: ['Announcements'],
      summary: 'Cancel a trip (owner or admin); unpaid reservations are cancelled with it',
      description: 'Sets the trip CANCELLED (the record stays) and, in the same batch, cancels its PENDING_PAYMENT reservations, each sender notified (RESERVATION_CANCELLED) and its open checkout closed. Refused with 409 INVALID_STATE while a reservation is paid and not finished (PAID to IN_TRANSIT, or DISPUTED), and when the trip is no longer ACTIVE or FULL. The trip\'s carrier, staff of its agency allowed to manage it, and admins; anyone else gets 403 ACCESS_DENIED.',
      ...signedIn(),
      request: { params: IdParams },
      responses: { 204: { description: 'Cancelled' }, ...authErrorResponses(404, 409) },
    }),
    async (c) => {
      await deleteAnnouncement(c.get('deps'), c.get('auth'), c.req.valid('param').id, clientIp(c));
      return c.body(null, 204);
    },
  );
