// Prohibited and restricted items per corridor (CONTRACT 21): GET /reference/prohibited-items
// (public, cached like the other reference data, in the caller's language) and the super-admins'
// additions, POST /superadmin/prohibited-items (audited).
import { createRoute, z } from '@hono/zod-openapi';
import { createRouter } from '../../env';
import { authErrorResponses, errorResponses, jsonBody, jsonContent, withRole } from '../../lib/openapi';
import { languageHeaders, readerLocale } from '../../lib/locale';
import { clientIp } from '../audit/audit';
import { addProhibitedItem, listProhibitedItems } from './prohibited-items.service';

const country = z.string().regex(/^[A-Z]{2}$/, 'user.countryCodeFormat');

const ListedItemSchema = z
  .object({
    categoryId: z.number().int().optional().openapi({ description: 'The parcel category this entry refuses or restricts at booking' }),
    code: z.string(),
    name: z.string(),
    reason: z.string(),
  })
  .openapi('ProhibitedItem');

const CorridorItemsSchema = z
  .object({ from: z.string(), to: z.string(), prohibited: z.array(ListedItemSchema), restricted: z.array(ListedItemSchema) })
  .openapi('CorridorProhibitedItems');

const texts = z.object({ en: z.string().trim().min(1).max(300), fr: z.string().trim().min(1).max(300) });
const NewItemSchema = z
  .object({
    code: z.string().regex(/^[A-Z0-9_]{2,60}$/, 'reference.itemCodeFormat'),
    level: z.enum(['PROHIBITED', 'RESTRICTED']),
    categoryCode: z.string().min(1).max(60).nullish(),
    from: country.nullish().openapi({ description: 'Origin country; every origin when absent' }),
    to: country.nullish().openapi({ description: 'Destination country; every destination when absent' }),
    name: texts,
    reason: texts,
  })
  .openapi('NewProhibitedItem');

const AddedItemSchema = z
  .object({
    id: z.number().int(),
    code: z.string(),
    level: z.enum(['PROHIBITED', 'RESTRICTED']),
    categoryCode: z.string().nullable(),
    fromCountry: z.string().nullable(),
    toCountry: z.string().nullable(),
    createdAt: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('AddedProhibitedItem');

export const prohibitedItemsRouter = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'listProhibitedItems',
      path: '/reference/prohibited-items',
      tags: ['Reference data'],
      summary: 'Prohibited and restricted items from one country to another, in the caller\'s language',
      description:
        'Booking an item of a prohibited category is 422 BUSINESS_RULE_VIOLATION naming it; an item of a restricted ' +
        'category needs its code in the booking\'s acknowledgedRestrictions.',
      security: [],
      request: { query: z.object({ from: country.openapi({ example: 'FR' }), to: country.openapi({ example: 'SN' }) }) },
      responses: { 200: jsonContent(CorridorItemsSchema, 'The corridor\'s prohibited and restricted items'), ...errorResponses() },
    }),
    async (c) => {
      const { from, to } = c.req.valid('query');
      const locale = readerLocale(c.req.header('Accept-Language'));
      return c.json(await listProhibitedItems(c.get('deps'), from, to, locale), 200, languageHeaders(locale));
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      operationId: 'addProhibitedItem',
      path: '/superadmin/prohibited-items',
      tags: ['Reference data'],
      summary: 'Add a prohibited or restricted item to the list (audited)',
      description: 'Adds an entry to the prohibited and restricted items list, for one corridor (from and to countries) or every origin or destination when left out, in English and French, tied to the parcel category of categoryCode, else to the category whose code is its own (audited as PROHIBITED_ITEM_ADDED). From then on, booking an item of that category on the corridor is refused (PROHIBITED, 422 BUSINESS_RULE_VIOLATION) or needs its code in acknowledgedRestrictions (RESTRICTED), and GET /reference/prohibited-items lists it. A code already used, built-in or added, is 409 ALREADY_EXISTS.',
      ...withRole('ROLE_SUPERADMIN'),
      request: { body: jsonBody(NewItemSchema) },
      responses: { 201: jsonContent(AddedItemSchema, 'The entry added'), ...authErrorResponses(409) },
    }),
    async (c) => {
      const row = await addProhibitedItem(c.get('deps'), c.get('auth').id, clientIp(c), c.req.valid('json'));
      const { id, code, level, categoryCode, fromCountry, toCountry, createdAt } = row;
      return c.json({ id, code, level, categoryCode, fromCountry, toCountry, createdAt }, 201);
    },
  );
