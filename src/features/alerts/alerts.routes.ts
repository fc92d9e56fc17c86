// /search-alerts: CRUD of the caller's saved searches (CONTRACT section 13).
import { createRoute, z } from '@hono/zod-openapi';
import { TRANSPORT_MODES } from '../../db/schema';
import { createRouter } from '../../env';
import { authErrorResponses, jsonBody, jsonContent, signedIn } from '../../lib/openapi';
import { PageSchema, pageQuery } from '../../lib/pagination';
import { IdParams, whenValid } from '../../validation';
import { CountryCode } from '../reference/country-code';
import { createAlert, deleteAlert, getAlert, listAlerts, replaceAlert } from './alerts.service';
import { idempotent } from '../../middleware/idempotency';
import { currencyCodeSchema } from '../../lib/amount';
import { MAX_DATE_FLEX_DAYS, MAX_RADIUS_KM, nearbyIssues } from '../announcements/nearby-search';

const AlertInputSchema = z
  .object({
    name: z.string().trim().max(100).nullable().optional(),
    departureCity: z.string().trim().min(1).max(100).nullable().optional(),
    arrivalCity: z.string().trim().min(1).max(100).nullable().optional(),
    departureCountry: CountryCode.nullable().optional(),
    arrivalCountry: CountryCode.nullable().optional(),
    dateFrom: z.iso.date().nullable().optional(),
    dateTo: z.iso.date().nullable().optional(),
    minWeight: z.number().positive().max(1000).nullable().optional(),
    maxPricePerKg: z.number().min(0).max(100_000).nullable().optional(),
    currency: currencyCodeSchema()
      .nullable()
      .optional()
      .openapi({ description: "The currency of maxPricePerKg (its decimals); default the departure country's, else the main one. Only trips priced in it match the limit" }),
    categoryId: z.number().int().positive().nullable().optional(),
    transportMode: z.enum(TRANSPORT_MODES).nullable().optional(),
    radiusKm: z
      .number()
      .int()
      .min(0)
      .max(MAX_RADIUS_KM)
      .optional()
      .openapi({ description: `As the search's (0-${MAX_RADIUS_KM} km, default 0): trips leaving and arriving within this distance of the alert's cities match` }),
    date: z.iso.date().nullable().optional().openapi({ description: "As the search's: the day wanted, give or take dateFlexDays" }),
    dateFlexDays: z.number().int().min(0).max(MAX_DATE_FLEX_DAYS).optional().openapi({ description: `Days either side of date (0-${MAX_DATE_FLEX_DAYS}, default 0); needs date` }),
    active: z.boolean().optional(),
  })
  .superRefine((v, ctx) => {
    // An alert without a place would match every new trip.
    if (!v.departureCity && !v.arrivalCity && !v.departureCountry && !v.arrivalCountry) {
      ctx.addIssue({
        code: 'custom',
        path: ['departureCity'],
        message: 'alert.placeRequired',
      });
    }
  }, whenValid('departureCity', 'arrivalCity', 'departureCountry', 'arrivalCountry'))
  .superRefine((v, ctx) => {
    for (const issue of nearbyIssues(v)) ctx.addIssue({ code: 'custom', ...issue });
  }, whenValid('radiusKm', 'date', 'dateFlexDays', 'departureCity', 'arrivalCity'))
  .superRefine((v, ctx) => {
    if (v.dateFrom && v.dateTo && v.dateTo < v.dateFrom) {
      ctx.addIssue({ code: 'custom', path: ['dateTo'], message: 'alert.dateToMustAfterDateFrom' });
    }
  }, whenValid('dateFrom', 'dateTo'))
  .openapi('SearchAlertInput');

const AlertSchema = z
  .object({
    id: z.number().int(),
    userId: z.number().int(),
    name: z.string().nullable(),
    departureCity: z.string().nullable(),
    arrivalCity: z.string().nullable(),
    departureCountry: z.string().nullable(),
    arrivalCountry: z.string().nullable(),
    dateFrom: z.string().nullable(),
    dateTo: z.string().nullable(),
    minWeight: z.number().nullable(),
    maxPricePerKg: z.number().nullable(),
    currency: z.string().nullable().openapi({ description: 'The currency of maxPricePerKg; null without a price limit' }),
    categoryId: z.number().int().nullable(),
    transportMode: z.enum(TRANSPORT_MODES).nullable(),
    radiusKm: z.number().int(),
    date: z.string().nullable(),
    dateFlexDays: z.number().int(),
    active: z.boolean(),
    createdAt: z.string().openapi({ format: 'date-time' }),
    updatedAt: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('SearchAlert');

const tags = ['Search alerts'];

export const alertsRouter = createRouter()
  .openapi(
    createRoute(idempotent({
      method: 'post',
      operationId: 'createSearchAlert',
      path: '/search-alerts',
      tags,
      summary: 'Save a search; new matching trips notify the caller',
      description: 'Saves the criteria as an active alert owned by the caller (at least one place: a city or a country; dateTo not before dateFrom; else 400 VALIDATION_ERROR). From then on every trip another user publishes that meets each criterion set sends the caller one ALERT_MATCH notification. radiusKm, date and dateFlexDays work as in the search (GET /annonces): a trip leaving and arriving within radiusKm of the alert\'s cities (great-circle), departing up to dateFlexDays either side of date, matches. maxPricePerKg is read in the alert\'s currency (default the departure country\'s, else the main one), and only trips priced in that currency meet it.',
      ...signedIn(),
      request: { body: jsonBody(AlertInputSchema) },
      responses: { 201: jsonContent(AlertSchema, 'Created'), ...authErrorResponses() },
    })),
    async (c) => c.json(await createAlert(c.get('deps'), c.get('auth'), c.req.valid('json')), 201),
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'listSearchAlerts',
      path: '/search-alerts',
      tags,
      summary: "The caller's alerts, newest first",
      description: 'A page of the caller\'s own alerts, active and inactive, newest first by default, with their criteria (prices in the alert\'s currency).',
      ...signedIn(),
      request: { query: pageQuery({ sortable: ['createdAt'], defaultSort: 'createdAt,desc' }) },
      responses: { 200: jsonContent(PageSchema(AlertSchema, 'SearchAlertPage'), 'A page of alerts'), ...authErrorResponses() },
    }),
    async (c) => c.json(await listAlerts(c.get('deps'), c.get('auth'), c.req.valid('query')), 200),
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'getSearchAlert',
      path: '/search-alerts/{id}',
      tags,
      summary: 'One alert (owner)',
      description: 'One of the caller\'s alerts with its criteria. Another user\'s alert is 403 ACCESS_DENIED (no admin override), an unknown id 404 RESOURCE_NOT_FOUND.',
      ...signedIn(),
      request: { params: IdParams },
      responses: { 200: jsonContent(AlertSchema, 'The alert'), ...authErrorResponses(404) },
    }),
    async (c) => c.json(await getAlert(c.get('deps'), c.get('auth'), c.req.valid('param').id), 200),
  )
  .openapi(
    createRoute({
      method: 'put',
      operationId: 'replaceSearchAlert',
      path: '/search-alerts/{id}',
      tags,
      summary: 'Replace an alert (owner)',
      description: 'Replaces every criterion of the alert with the body: fields left out become null, and active defaults to true. Validated like the creation (a place needed, dateTo not before dateFrom: 400 VALIDATION_ERROR). Another user\'s alert is 403 ACCESS_DENIED, an unknown id 404.',
      ...signedIn(),
      request: { params: IdParams, body: jsonBody(AlertInputSchema) },
      responses: { 200: jsonContent(AlertSchema, 'Replaced'), ...authErrorResponses(404) },
    }),
    async (c) => c.json(await replaceAlert(c.get('deps'), c.get('auth'), c.req.valid('param').id, c.req.valid('json')), 200),
  )
  .openapi(
    createRoute({
      method: 'delete',
      operationId: 'deleteSearchAlert',
      path: '/search-alerts/{id}',
      tags,
      summary: 'Delete an alert (owner)',
      description: 'Deletes the alert: new trips no longer notify the caller through it (notifications already sent stay). Another user\'s alert is 403 ACCESS_DENIED, an unknown id 404.',
      ...signedIn(),
      request: { params: IdParams },
      responses: { 204: { description: 'Deleted' }, ...authErrorResponses(404) },
    }),
    async (c) => {
      await deleteAlert(c.get('deps'), c.get('auth'), c.req.valid('param').id);
      return c.body(null, 204);
    },
  );
