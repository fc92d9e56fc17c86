// GET /reference/countries and /reference/countries/{code}/cities: public static lists, cacheable.
import { createRoute, z } from '@hono/zod-openapi';
import { createRouter } from '../../env';
import { notFound } from '../../errors';
import { errorResponses, jsonContent } from '../../lib/openapi';
import { pageOfList, pageQuery, PageSchema } from '../../lib/pagination';
import { listCities, listCountries, type City, type Country } from './reference.service';

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

const countryKeys = { code: (c: Country) => c.code, name: (c: Country) => c.name };
const cityKeys = { population: (c: City) => c.population, name: (c: City) => c.name };

export const referenceRouter = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'listCountries',
      path: '/reference/countries',
      tags: ['Reference data'],
      summary: 'ISO 3166-1 countries, by code',
      description: 'A page of the ISO 3166-1 countries (alpha-2 code, alpha-3 code, English name), by code by default or by name. The list is built into the service, changes only with a release, and may be cached a day (Cache-Control public, max-age=86400). Public, no account needed.',
      security: [],
      request: { query: pageQuery({ sortable: ['code', 'name'], defaultSort: 'code,asc' }) },
      responses: { 200: jsonContent(PageSchema(CountrySchema, 'CountryPage'), 'Page of countries'), ...errorResponses() },
    }),
    (c) => c.json(pageOfList(listCountries(), c.req.valid('query'), countryKeys), 200, { 'Cache-Control': CACHE_CONTROL }),
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'listCountryCities',
      path: '/reference/countries/{code}/cities',
      tags: ['Reference data'],
      summary: 'Main cities of a country, most populous first',
      description: 'A page of the main cities of the country (code case-insensitive), most populous first by default, with population and coordinates; q keeps the names starting with it, case- and accent-insensitively. For pickers when publishing a trip or searching; any city name is still accepted elsewhere. An unknown country is 404 RESOURCE_NOT_FOUND. Built in, cacheable a day; public.',
      security: [],
      request: {
        params: z.object({ code: z.string().openapi({ param: { name: 'code', in: 'path' }, example: 'FR' }) }),
        query: pageQuery({ sortable: ['population', 'name'], defaultSort: 'population,desc' }).extend({
          q: z.string().max(100).optional().openapi({ description: 'Name prefix, case- and accent-insensitive' }),
        }),
      },
      responses: { 200: jsonContent(PageSchema(CitySchema, 'CityPage'), 'Page of the cities of the country'), ...errorResponses(404) },
    }),
    (c) => {
      const { code } = c.req.valid('param');
      const query = c.req.valid('query');
      const cities = listCities(code, query.q);
      if (!cities) throw notFound('Country', code);
      return c.json(pageOfList(cities, query, cityKeys), 200, { 'Cache-Control': CACHE_CONTROL });
    },
  );
