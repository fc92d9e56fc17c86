// The zod schema of an ISO 3166-1 alpha-2 country code in request bodies and queries.
import { z } from '@hono/zod-openapi';
import { isCountryCode } from './reference.service';

export const CountryCode = z
  .string()
  .trim()
  .toUpperCase()
  .refine(isCountryCode, 'request.countryCode')
  .openapi({ example: 'FR' });
