// GET /reference/countries and /reference/countries/{code}/cities: public static lists, cacheable.
import { createRoute, z } from '@hono/zod-openapi';
import { createRouter } from '../../env';
import { notFound } from '../../errors';
import { errorResponses, jsonContent } from '../../lib/openapi';
import { listCities, listCountries } from './reference.service';

/** Static data: clients and CDNs may keep it for a day. */
const CACHE_CONTROL = 'public, max-age=86400';

const CountrySchema = z
  .object({ code: z.string().openapi({ example: 'FR' }), alpha3: z.string().openapi({ example: 'FRA' }), name: z.string() })
  .openapi('Country');
const CitySchema = z
  .object({
    name: z.string(),
    countryCode: z.string(),
    population: z.number().int(),
    latitude: z.number(),
    longitude: z.number(),
  })
  .openapi('City');

export const referenceRouter = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'listCountries',
      path: '/reference/countries',
      tags: ['Reference data'],
      summary: 'ISO 3166-1 countries',
      security: [],
      responses: { 200: jsonContent(z.array(CountrySchema), 'Every country, by code'), ...errorResponses() },
    }),
    (c) => c.json(listCountries(), 200, { 'Cache-Control': CACHE_CONTROL }),
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'listCities',
      path: '/reference/countries/{code}/cities',
      tags: ['Reference data'],
      summary: 'Main cities of a country, most populous first',
      security: [],
      request: {
        params: z.object({ code: z.string().openapi({ param: { name: 'code', in: 'path' }, example: 'FR' }) }),
        query: z.object({
          q: z.string().max(100).optional().openapi({ description: 'Name prefix, case- and accent-insensitive' }),
        }),
      },
      responses: { 200: jsonContent(z.array(CitySchema), 'Cities of the country'), ...errorResponses(404) },
    }),
    (c) => {
      const { code } = c.req.valid('param');
      const cities = listCities(code, c.req.valid('query').q);
      if (!cities) throw notFound('Country', code);
      return c.json(cities, 200, { 'Cache-Control': CACHE_CONTROL });
    },
  );
