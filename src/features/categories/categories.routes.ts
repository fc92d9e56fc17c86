// GET /categories (public) and the admin CRUD of parcel categories.
import { createRoute, z } from '@hono/zod-openapi';
import { createRouter } from '../../env';
import { languageHeaders, readerLocale } from '../../lib/locale';
import { authErrorResponses, errorResponses, jsonBody, jsonContent, withRole } from '../../lib/openapi';
import { pageQuery, PageSchema } from '../../lib/pagination';
import { IdParams } from '../../validation';
import { createCategory, deleteCategory, listCategories, updateCategory } from './categories.service';
import { idempotent } from '../../middleware/idempotency';
import type { AppEnv } from '../../env';
import type { Context } from 'hono';
import { clientIp } from '../audit/audit';

/** The signed-in admin and the request's client IP, for the audit entry of each change. */
const operator = (c: Context<AppEnv>) => ({ id: c.get('auth').id, ip: clientIp(c) });

export const CategorySchema = z
  .object({
    id: z.number().int(),
    code: z.string(),
    name: z.string().openapi({ description: 'In the language of Content-Language (fr or en, by Accept-Language)' }),
    description: z.string().nullable().openapi({ description: 'In the language of Content-Language' }),
    prohibited: z.boolean().openapi({ description: 'Prohibited content: listed so apps can warn; never bookable' }),
    createdAt: z.string().openapi({ format: 'date-time' }),
    updatedAt: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('Category');

const CategoryInputSchema = z
  .object({
    code: z
      .string()
      .trim()
      .regex(/^[A-Z][A-Z0-9_]{1,39}$/, 'category.codeFormat'),
    name: z.string().trim().min(1).max(100).openapi({ description: 'In English' }),
    description: z.string().trim().max(500).nullable().optional().openapi({ description: 'In English' }),
    nameFr: z.string().trim().min(1).max(100).nullable().optional().openapi({ description: 'In French; the English name is shown to French readers when absent' }),
    descriptionFr: z.string().trim().max(500).nullable().optional().openapi({ description: 'In French' }),
    prohibited: z.boolean().optional(),
  })
  .openapi('CategoryInput');

export const categoriesRouter = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'listCategories',
      path: '/categories',
      tags: ['Categories'],
      summary: 'Parcel categories: allowed ones first, then prohibited ones, each in the sort order',
      description: 'A public page of the parcel categories a booking\'s items name, named and described in the caller\'s language (French or English by Accept-Language): the allowed ones first, then the prohibited ones (a booking naming one is refused), each group in the requested order (name as read in that language, code or createdAt). Trips list the categories they accept by id; no account needed.',
      security: [],
      request: { query: pageQuery({ sortable: ['name', 'code', 'createdAt'], defaultSort: 'name,asc' }) },
      responses: { 200: jsonContent(PageSchema(CategorySchema, 'CategoryPage'), 'Page of categories'), ...errorResponses() },
    }),
    async (c) => {
      const locale = readerLocale(c.req.header('Accept-Language'));
      return c.json(await listCategories(c.get('deps'), c.req.valid('query'), locale), 200, languageHeaders(locale));
    },
  )
  .openapi(
    createRoute(idempotent({
      method: 'post',
      operationId: 'createCategory',
      path: '/admin/categories',
      tags: ['Categories'],
      summary: 'Create a category (admins)',
      description: 'Adds a category with its unique code, name, description and whether it is prohibited (false by default), audited as CATEGORY_CREATED. A code already used is 409 ALREADY_EXISTS. A prohibited category can no longer be named by new trips, alerts or bookings.',
      ...withRole('ROLE_ADMIN'),
      request: { body: jsonBody(CategoryInputSchema) },
      responses: { 201: jsonContent(CategorySchema, 'Created'), ...authErrorResponses(409) },
    })),
    async (c) => c.json(await createCategory(c.get('deps'), operator(c), c.req.valid('json')), 201),
  )
  .openapi(
    createRoute({
      method: 'put',
      operationId: 'updateCategory',
      path: '/admin/categories/{id}',
      tags: ['Categories'],
      summary: 'Update a category (admins; fields left out are kept)',
      description: 'Changes the fields sent, audited as CATEGORY_UPDATED with the names of the fields changed. Marking a category prohibited refuses it in new bookings and trips; existing reservations keep their items. A code another category uses is 409 ALREADY_EXISTS; an unknown id 404.',
      ...withRole('ROLE_ADMIN'),
      request: { params: IdParams, body: jsonBody(CategoryInputSchema.partial()) },
      responses: { 200: jsonContent(CategorySchema, 'Updated'), ...authErrorResponses(404, 409) },
    }),
    async (c) => c.json(await updateCategory(c.get('deps'), operator(c), c.req.valid('param').id, c.req.valid('json')), 200),
  )
  .openapi(
    createRoute({
      method: 'delete',
      operationId: 'deleteCategory',
      path: '/admin/categories/{id}',
      tags: ['Categories'],
      summary: 'Delete a category (admins); refused while in use',
      description: 'Deletes the category (audited as CATEGORY_DELETED) in one conditional statement that refuses while any reservation item or any trip\'s accepted categories name it: then 409 INVALID_STATE, and marking it prohibited is the way to retire it. An unknown id is 404.',
      ...withRole('ROLE_ADMIN'),
      request: { params: IdParams },
      responses: { 204: { description: 'Deleted' }, ...authErrorResponses(404, 409) },
    }),
    async (c) => {
      await deleteCategory(c.get('deps'), operator(c), c.req.valid('param').id);
      return c.body(null, 204);
    },
  );
