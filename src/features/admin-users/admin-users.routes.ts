// User administration (CONTRACT section 14): /admin/users for admins, /superadmin/users/{id}/roles
// for super-admins.
import { createRoute, z } from '@hono/zod-openapi';
import type { UserRow } from '../../db/schema';
import { createRouter, type Deps } from '../../env';
import { authErrorResponses, jsonBody, jsonContent, withRole } from '../../lib/openapi';
import { PageSchema, pageQuery, toPage } from '../../lib/pagination';
import { ROLES } from '../../middleware/auth';
import { IdParams } from '../../validation';
import { clientIp } from '../audit/audit';
import { UserSchema, toUsers } from '../users/user-summary';
import { SuspendSchema } from './admin-users.schemas';
import { USER_SEARCH_MAX_LENGTH, USER_SORT_FIELDS, activateUser, changeRolesAsSuperAdmin, getUser, listUsers, suspendUser } from './admin-users.service';

export const AdminUserSchema = UserSchema.extend({
  createdAt: z.string().openapi({ format: 'date-time' }),
  updatedAt: z.string().openapi({ format: 'date-time' }),
  lastLoginAt: z.string().nullable().openapi({ format: 'date-time' }),
  suspendedAt: z.string().nullable().openapi({ format: 'date-time' }),
  suspensionReason: z.string().nullable(),
  deletedAt: z.string().nullable().openapi({ format: 'date-time' }),
}).openapi('AdminUser');

const bool = (name: string, description: string) =>
  z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional()
    .openapi({ param: { name, in: 'query' }, type: 'boolean', description });

const UserListQuery = pageQuery({ sortable: USER_SORT_FIELDS, defaultSort: 'createdAt,desc' }).extend({
  q: z.string().trim().min(1).max(USER_SEARCH_MAX_LENGTH).optional().openapi({
    param: { name: 'q', in: 'query' },
    description: 'Case-insensitive search in email, first name, last name and username',
  }),
  role: z.enum(ROLES).optional().openapi({ param: { name: 'role', in: 'query' }, description: 'Users holding this role' }),
  kycStatus: z.enum(['NOT_VERIFIED', 'PENDING', 'VERIFIED']).optional().openapi({ param: { name: 'kycStatus', in: 'query' } }),
  enabled: bool('enabled', 'false = suspended or deleted accounts'),
  emailVerified: bool('emailVerified', 'Filter on email verification'),
  deleted: bool('deleted', 'true = deleted (anonymised) accounts only; false = live accounts only'),
});

const RolesSchema = z
  .object({
    roles: z.array(z.enum(ROLES)).max(ROLES.length).openapi({ description: 'The complete set of roles; ROLE_CLIENT is always kept' }),
  })
  .openapi('SetRolesRequest');

const TAGS = ['Administration'];

async function toAdminUsers(deps: Deps, rows: UserRow[]) {
  const dtos = await toUsers(deps, rows);
  return rows.map((row, i) => ({
    ...dtos[i],
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    lastLoginAt: row.lastLoginAt,
    suspendedAt: row.suspendedAt,
    suspensionReason: row.suspensionReason,
    deletedAt: row.deletedAt,
  }));
}
const toAdminUser = async (deps: Deps, row: UserRow) => (await toAdminUsers(deps, [row]))[0];


export const adminUsersRouter = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'adminListUsers',
      path: '/admin/users',
      tags: TAGS,
      summary: 'List users (page, filters)',
      description: 'A page of accounts with their administrative fields (creation, last login, suspension, deletion), newest first by default. q searches case-insensitively within email, first name, last name and username (at most 100 characters: longer is 400 VALIDATION_ERROR); role, kycStatus, enabled, emailVerified and deleted filter, and combine with AND. Sortable by createdAt, email, lastName, lastLoginAt and id.',
      ...withRole('ROLE_ADMIN'),
      request: { query: UserListQuery },
      responses: { 200: jsonContent(PageSchema(AdminUserSchema, 'AdminUserPage'), 'Page of users'), ...authErrorResponses() },
    }),
    async (c) => {
      const { page, size, sort, ...filters } = c.req.valid('query');
      const deps = c.get('deps');
      const { rows, total } = await listUsers(deps, filters, { page, size, sort });
      return c.json(toPage(await toAdminUsers(deps, rows), total, { page, size }), 200);
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'adminGetUser',
      path: '/admin/users/{id}',
      tags: TAGS,
      summary: 'One user, with administrative fields',
      description: 'One account, deleted (anonymised) ones included, with its administrative fields: createdAt, lastLoginAt, suspendedAt and suspensionReason, deletedAt. An unknown id is 404 RESOURCE_NOT_FOUND.',
      ...withRole('ROLE_ADMIN'),
      request: { params: IdParams },
      responses: { 200: jsonContent(AdminUserSchema, 'The user'), ...authErrorResponses(404) },
    }),
    async (c) => {
      const deps = c.get('deps');
      return c.json(await toAdminUser(deps, await getUser(deps, c.req.valid('param').id)), 200);
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      operationId: 'suspendUser',
      path: '/admin/users/{id}/suspend',
      tags: TAGS,
      summary: "Suspend a user: logins refused, every token revoked (administrators: super-admin only)",
      description: 'Sets the account disabled with the optional reason (audited as USER_SUSPENDED), revokes every token it holds, then cancels what the suspension ends: on its own trips the reservations not yet deposited (fully refunded, senders told), as a sender its unpaid reservations; its trips leave the search. Only a super-admin may suspend an admin or super-admin (else 403 ACCESS_DENIED); suspending oneself is 422 BUSINESS_RULE_VIOLATION; an account already suspended or deleted is 409 INVALID_STATE; an unknown id 404.',
      ...withRole('ROLE_ADMIN'),
      request: { params: IdParams, body: { ...jsonBody(SuspendSchema), required: false } },
      responses: { 200: jsonContent(AdminUserSchema, 'The suspended user'), ...authErrorResponses(404, 409, 422) },
    }),
    async (c) => {
      const deps = c.get('deps');
      const { reason } = c.req.valid('json') ?? {};
      const row = await suspendUser(deps, c.get('auth'), c.req.valid('param').id, reason ?? null, clientIp(c));
      return c.json(await toAdminUser(deps, row), 200);
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      operationId: 'activateUser',
      path: '/admin/users/{id}/activate',
      tags: TAGS,
      summary: 'Lift a suspension',
      description: 'Re-enables a suspended account and clears its suspension reason (audited as USER_ACTIVATED); the user signs in again, and nothing the suspension cancelled comes back. An account that is not suspended, or is deleted, is 409 INVALID_STATE; activating oneself is 422 BUSINESS_RULE_VIOLATION; only a super-admin may act on a staff account (else 403 ACCESS_DENIED).',
      ...withRole('ROLE_ADMIN'),
      request: { params: IdParams },
      responses: { 200: jsonContent(AdminUserSchema, 'The reactivated user'), ...authErrorResponses(404, 409, 422) },
    }),
    async (c) => {
      const deps = c.get('deps');
      const row = await activateUser(deps, c.get('auth'), c.req.valid('param').id, clientIp(c));
      return c.json(await toAdminUser(deps, row), 200);
    },
  )
  .openapi(
    createRoute({
      method: 'put',
      operationId: 'setUserRoles',
      path: '/superadmin/users/{id}/roles',
      tags: TAGS,
      summary: "Set a user's roles (removing a role revokes the user's tokens; a new role applies from the next refresh)",
      description: 'Replaces the account\'s roles with the given set (ROLE_CLIENT is always kept), audited as ROLES_CHANGED with what was added and removed. A removed role revokes every token of the user at once; an added one applies from their next refresh. A super-admin removing their own ROLE_SUPERADMIN is 422 BUSINESS_RULE_VIOLATION; a deleted account, or roles changed meanwhile by someone else, is 409 INVALID_STATE; an unknown id 404.',
      ...withRole('ROLE_SUPERADMIN'),
      request: { params: IdParams, body: jsonBody(RolesSchema) },
      responses: { 200: jsonContent(AdminUserSchema, 'The user with the new roles'), ...authErrorResponses(404, 409, 422) },
    }),
    async (c) => {
      const deps = c.get('deps');
      const row = await changeRolesAsSuperAdmin(deps, c.get('auth'), c.req.valid('param').id, c.req.valid('json').roles, clientIp(c));
      return c.json(await toAdminUser(deps, row), 200);
    },
  );
