// Agency endpoints (CONTRACT section 12): registration, profile, branches, employees and the
// super-admin suspension. Documents: agency-documents.routes.ts. Wallet, pay-connect and
// withdrawals of agencies live in the money module.
import { createRoute, z } from '@hono/zod-openapi';
import { AGENCY_INVITATION_STATUSES, AGENCY_STATUSES } from '../../db/schema';
import { createRouter } from '../../env';
import { authErrorResponses, jsonBody, jsonContent } from '../../lib/openapi';
import { pageQuery, PageSchema } from '../../lib/pagination';
import { requireAuth, requireRole } from '../../middleware/auth';
import { clientIp } from '../audit/audit';
import { decimalInt, IdParams, pathId } from '../../validation';
import { acceptInvitation, declineInvitation, inviteEmployee, myInvitations } from './agency-invitations.service';
import { agencyForMember } from '../../access/agency-scope';
import {
  agencyView,
  branchForMember,
  branchView,
  createBranch,
  deleteBranch,
  listAgencies,
  listBranches,
  listEmployees,
  moveEmployee,
  myAgency,
  registerAgency,
  removeEmployee,
  setAgencySuspended,
  setBranchActive,
  updateAgency,
  updateBranch,
} from './agencies.service';
import { idempotent } from '../../middleware/idempotency';

const text = (max: number) => z.string().trim().max(max).nullable().optional();
const dateTime = z.string().openapi({ format: 'date-time' });

const AgencyFields = {
  legalName: text(200),
  registrationNumber: text(100),
  email: z.email().max(254).nullable().optional(),
  phoneNumber: text(40),
  address: text(300),
  city: text(100),
  country: text(100),
  description: text(2000),
};
const AgencyCreateSchema = z.object({ name: z.string().trim().min(2).max(120), ...AgencyFields }).openapi('AgencyCreate');
const AgencyUpdateSchema = z
  .object({ name: z.string().trim().min(2).max(120).optional(), ...AgencyFields })
  .openapi('AgencyUpdate', { description: 'Fields left out are unchanged' });

const AgencySchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    legalName: z.string().nullable(),
    registrationNumber: z.string().nullable(),
    email: z.string().nullable(),
    phoneNumber: z.string().nullable(),
    address: z.string().nullable(),
    city: z.string().nullable(),
    country: z.string().nullable(),
    description: z.string().nullable(),
    ownerId: z.number().int(),
    status: z.enum(AGENCY_STATUSES),
    suspensionReason: z.string().nullable(),
    suspendedAt: dateTime.nullable(),
    createdAt: dateTime,
    updatedAt: dateTime,
  })
  .openapi('Agency');

const MyAgencySchema = AgencySchema.extend({
  role: z.enum(['ROLE_AGENCY_OWNER', 'ROLE_AGENCY_EMPLOYEE']),
  branchId: z.number().int().nullable().openapi({ description: "The employee's branch; null for the owner" }),
  branchActive: z.boolean(),
}).openapi('MyAgency');

const BranchFields = { address: text(300), city: text(100), country: text(100), phoneNumber: text(40) };
const BranchCreateSchema = z.object({ name: z.string().trim().min(1).max(120), ...BranchFields }).openapi('BranchCreate');
const BranchUpdateSchema = z
  .object({ name: z.string().trim().min(1).max(120).optional(), ...BranchFields })
  .openapi('BranchUpdate', { description: 'Fields left out are unchanged' });
const BranchSchema = z
  .object({
    id: z.number().int(),
    agencyId: z.number().int(),
    name: z.string(),
    address: z.string().nullable(),
    city: z.string().nullable(),
    country: z.string().nullable(),
    phoneNumber: z.string().nullable(),
    active: z.boolean(),
    createdAt: dateTime,
    updatedAt: dateTime,
  })
  .openapi('AgencyBranch');

const EmployeeSchema = z
  .object({
    userId: z.number().int(),
    agencyId: z.number().int(),
    branchId: z.number().int(),
    email: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    joinedAt: dateTime,
  })
  .openapi('AgencyEmployee');

const InvitationAnswerSchema = z
  .object({
    invitationId: z.number().int(),
    email: z.string(),
    branchId: z.number().int(),
    status: z.enum(AGENCY_INVITATION_STATUSES),
  })
  .openapi('AgencyInvitationStatus');

const InvitationSchema = z
  .object({
    id: z.number().int(),
    agencyId: z.number().int(),
    agencyName: z.string(),
    branchId: z.number().int(),
    createdAt: dateTime,
    expiresAt: dateTime,
  })
  .openapi('AgencyInvitation');

const idField = z.number().int().min(1).max(2_147_483_647);
const BranchParams = z.object({ id: pathId('id'), branchId: pathId('branchId') });
const EmployeeParams = z.object({ id: pathId('id'), userId: pathId('userId') });

const authed = [requireAuth];
const superAdmin = [requireAuth, requireRole('ROLE_SUPERADMIN')];
const noContent = { 204: { description: 'Done' } };

export const agenciesRouter = createRouter()
  .openapi(
    createRoute(idempotent({
      method: 'post',
      operationId: 'createAgency',
      path: '/agencies',
      tags: ['Agencies'],
      summary: 'Register an agency (the caller becomes its owner, ROLE_AGENCY_OWNER)',
      middleware: authed,
      request: { body: jsonBody(AgencyCreateSchema) },
      responses: { 201: jsonContent(AgencySchema, 'The agency'), ...authErrorResponses(409) },
    })),
    async (c) => c.json(agencyView(await registerAgency(c.var.deps, c.get('auth').id, c.req.valid('json'), clientIp(c))), 201),
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'getMyAgency',
      path: '/agencies/me',
      tags: ['Agencies'],
      summary: "The caller's agency (as owner or employee) and their place in it",
      middleware: authed,
      responses: { 200: jsonContent(MyAgencySchema, 'The agency'), ...authErrorResponses(404) },
    }),
    async (c) => c.json(await myAgency(c.var.deps, c.get('auth').id), 200),
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'getAgency',
      path: '/agencies/{id}',
      tags: ['Agencies'],
      summary: 'An agency (its owner, its employees, admins)',
      middleware: authed,
      request: { params: IdParams },
      responses: { 200: jsonContent(AgencySchema, 'The agency'), ...authErrorResponses(404) },
    }),
    async (c) => c.json(agencyView(await agencyForMember(c.var.deps, c.get('auth'), c.req.valid('param').id)), 200),
  )
  .openapi(
    createRoute({
      method: 'put',
      operationId: 'updateAgency',
      path: '/agencies/{id}',
      tags: ['Agencies'],
      summary: 'Update the agency (owner)',
      middleware: authed,
      request: { params: IdParams, body: jsonBody(AgencyUpdateSchema) },
      responses: { 200: jsonContent(AgencySchema, 'The agency'), ...authErrorResponses(404) },
    }),
    async (c) => {
      const row = await updateAgency(c.var.deps, c.get('auth'), c.req.valid('param').id, c.req.valid('json'));
      return c.json(agencyView(row), 200);
    },
  )
  // ---- branches
  .openapi(
    createRoute(idempotent({
      method: 'post',
      operationId: 'createBranch',
      path: '/agencies/{id}/branches',
      tags: ['Agencies'],
      summary: 'Create a branch (owner)',
      middleware: authed,
      request: { params: IdParams, body: jsonBody(BranchCreateSchema) },
      responses: { 201: jsonContent(BranchSchema, 'The branch'), ...authErrorResponses(404) },
    })),
    async (c) => {
      const row = await createBranch(c.var.deps, c.get('auth'), c.req.valid('param').id, c.req.valid('json'));
      return c.json(branchView(row), 201);
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'listBranches',
      path: '/agencies/{id}/branches',
      tags: ['Agencies'],
      summary: "The agency's branches, oldest first (owner, employees, admins)",
      middleware: authed,
      request: { params: IdParams, query: pageQuery({ sortable: ['createdAt', 'name'], defaultSort: 'createdAt,asc' }) },
      responses: { 200: jsonContent(PageSchema(BranchSchema, 'AgencyBranchPage'), 'Page of branches'), ...authErrorResponses(404) },
    }),
    async (c) => c.json(await listBranches(c.var.deps, c.get('auth'), c.req.valid('param').id, c.req.valid('query')), 200),
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'getBranch',
      path: '/agencies/{id}/branches/{branchId}',
      tags: ['Agencies'],
      summary: 'One branch',
      middleware: authed,
      request: { params: BranchParams },
      responses: { 200: jsonContent(BranchSchema, 'The branch'), ...authErrorResponses(404) },
    }),
    async (c) => {
      const { id, branchId } = c.req.valid('param');
      return c.json(branchView(await branchForMember(c.var.deps, c.get('auth'), id, branchId)), 200);
    },
  )
  .openapi(
    createRoute({
      method: 'put',
      operationId: 'updateBranch',
      path: '/agencies/{id}/branches/{branchId}',
      tags: ['Agencies'],
      summary: 'Update a branch (owner)',
      middleware: authed,
      request: { params: BranchParams, body: jsonBody(BranchUpdateSchema) },
      responses: { 200: jsonContent(BranchSchema, 'The branch'), ...authErrorResponses(404) },
    }),
    async (c) => {
      const { id, branchId } = c.req.valid('param');
      return c.json(branchView(await updateBranch(c.var.deps, c.get('auth'), id, branchId, c.req.valid('json'))), 200);
    },
  )
  .openapi(
    createRoute({
      method: 'delete',
      operationId: 'deleteBranch',
      path: '/agencies/{id}/branches/{branchId}',
      tags: ['Agencies'],
      summary: 'Delete a branch without employees or active announcements (owner)',
      middleware: authed,
      request: { params: BranchParams },
      responses: { ...noContent, ...authErrorResponses(404, 409) },
    }),
    async (c) => {
      const { id, branchId } = c.req.valid('param');
      await deleteBranch(c.var.deps, c.get('auth'), id, branchId, clientIp(c));
      return c.body(null, 204);
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      operationId: 'activateBranch',
      path: '/agencies/{id}/branches/{branchId}/activate',
      tags: ['Agencies'],
      summary: 'Activate a branch (owner)',
      middleware: authed,
      request: { params: BranchParams },
      responses: { 200: jsonContent(BranchSchema, 'The branch'), ...authErrorResponses(404, 409) },
    }),
    async (c) => {
      const { id, branchId } = c.req.valid('param');
      return c.json(branchView(await setBranchActive(c.var.deps, c.get('auth'), id, branchId, true, clientIp(c))), 200);
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      operationId: 'deactivateBranch',
      path: '/agencies/{id}/branches/{branchId}/deactivate',
      tags: ['Agencies'],
      summary: 'Deactivate a branch: its staff can no longer publish (owner)',
      middleware: authed,
      request: { params: BranchParams },
      responses: { 200: jsonContent(BranchSchema, 'The branch'), ...authErrorResponses(404, 409) },
    }),
    async (c) => {
      const { id, branchId } = c.req.valid('param');
      return c.json(branchView(await setBranchActive(c.var.deps, c.get('auth'), id, branchId, false, clientIp(c))), 200);
    },
  )
  // ---- employees
  .openapi(
    createRoute(idempotent({
      method: 'post',
      operationId: 'addEmployee',
      path: '/agencies/{id}/employees',
      tags: ['Agencies'],
      summary: 'Invite a registered user to work in a branch (owner); they become staff by accepting within 7 days',
      description:
        'The invited user is notified (AGENCY_INVITATION) and answers through /agency-invitations. Inviting again while ' +
        'an invitation is unanswered renews it (branch, 7 more days). A user already in an agency: 409 ALREADY_EXISTS.',
      middleware: authed,
      request: {
        params: IdParams,
        body: jsonBody(z.object({ email: z.email().max(254), branchId: idField }).openapi('AgencyEmployeeCreate')),
      },
      responses: { 201: jsonContent(InvitationAnswerSchema, 'The invitation'), ...authErrorResponses(404, 409) },
    })),
    async (c) => c.json(await inviteEmployee(c.var.deps, c.get('auth'), c.req.valid('param').id, c.req.valid('json'), clientIp(c)), 201),
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'listEmployees',
      path: '/agencies/{id}/employees',
      tags: ['Agencies'],
      summary: 'Employees of the agency (owner), optionally of one branch',
      middleware: authed,
      request: {
        params: IdParams,
        query: pageQuery({ sortable: ['joinedAt'], defaultSort: 'joinedAt,asc' }).extend({
          branchId: decimalInt(z.number().int().min(1).max(2_147_483_647)).optional().openapi({ param: { name: 'branchId', in: 'query' }, type: 'integer' }),
        }),
      },
      responses: { 200: jsonContent(PageSchema(EmployeeSchema, 'AgencyEmployeePage'), 'Page of employees'), ...authErrorResponses(404) },
    }),
    async (c) => c.json(await listEmployees(c.var.deps, c.get('auth'), c.req.valid('param').id, c.req.valid('query')), 200),
  )
  .openapi(
    createRoute({
      method: 'put',
      operationId: 'moveEmployee',
      path: '/agencies/{id}/employees/{userId}',
      tags: ['Agencies'],
      summary: 'Move an employee to another branch (owner)',
      middleware: authed,
      request: { params: EmployeeParams, body: jsonBody(z.object({ branchId: idField }).openapi('AgencyEmployeeUpdate')) },
      responses: { 200: jsonContent(EmployeeSchema, 'The employee'), ...authErrorResponses(404) },
    }),
    async (c) => {
      const { id, userId } = c.req.valid('param');
      return c.json(await moveEmployee(c.var.deps, c.get('auth'), id, userId, c.req.valid('json').branchId, clientIp(c)), 200);
    },
  )
  .openapi(
    createRoute({
      method: 'delete',
      operationId: 'removeEmployee',
      path: '/agencies/{id}/employees/{userId}',
      tags: ['Agencies'],
      summary: "Remove an employee (owner; removes the role and revokes the employee's tokens)",
      middleware: authed,
      request: { params: EmployeeParams },
      responses: { ...noContent, ...authErrorResponses(404) },
    }),
    async (c) => {
      const { id, userId } = c.req.valid('param');
      await removeEmployee(c.var.deps, c.get('auth'), id, userId, clientIp(c));
      return c.body(null, 204);
    },
  )
  // ---- invitations, answered by the invited user
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'listMyAgencyInvitations',
      path: '/agency-invitations',
      tags: ['Agencies'],
      summary: "The caller's pending agency invitations (not answered, not expired), newest first",
      middleware: authed,
      request: { query: pageQuery({ sortable: ['createdAt'], defaultSort: 'createdAt,desc' }) },
      responses: { 200: jsonContent(PageSchema(InvitationSchema, 'AgencyInvitationPage'), 'Page of invitations'), ...authErrorResponses() },
    }),
    async (c) => c.json(await myInvitations(c.var.deps, c.get('auth'), c.req.valid('query')), 200),
  )
  .openapi(
    createRoute({
      method: 'post',
      operationId: 'acceptAgencyInvitation',
      path: '/agency-invitations/{id}/accept',
      tags: ['Agencies'],
      summary: 'Accept an invitation (the invited user): they become an employee of its branch (ROLE_AGENCY_EMPLOYEE)',
      description: 'Answered or expired: 409 INVALID_STATE. Already in an agency: 409 ALREADY_EXISTS. Someone else\'s invitation: 403.',
      middleware: authed,
      request: { params: IdParams },
      responses: { 200: jsonContent(InvitationAnswerSchema, 'The accepted invitation'), ...authErrorResponses(404, 409) },
    }),
    async (c) => c.json(await acceptInvitation(c.var.deps, c.get('auth'), c.req.valid('param').id, clientIp(c)), 200),
  )
  .openapi(
    createRoute({
      method: 'post',
      operationId: 'declineAgencyInvitation',
      path: '/agency-invitations/{id}/decline',
      tags: ['Agencies'],
      summary: 'Decline an invitation (the invited user)',
      description: 'Answered or expired: 409 INVALID_STATE. Someone else\'s invitation: 403.',
      middleware: authed,
      request: { params: IdParams },
      responses: { 200: jsonContent(InvitationAnswerSchema, 'The declined invitation'), ...authErrorResponses(404, 409) },
    }),
    async (c) => c.json(await declineInvitation(c.var.deps, c.get('auth'), c.req.valid('param').id, clientIp(c)), 200),
  )
  // ---- super-admin
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'superadminListAgencies',
      path: '/superadmin/agencies',
      tags: ['Agencies', 'Super-admin'],
      summary: 'All agencies, optionally by status',
      middleware: superAdmin,
      request: {
        query: pageQuery({ sortable: ['createdAt', 'name'], defaultSort: 'createdAt,desc' }).extend({
          status: z.enum(AGENCY_STATUSES).optional().openapi({ param: { name: 'status', in: 'query' } }),
        }),
      },
      responses: { 200: jsonContent(PageSchema(AgencySchema, 'AgencyPage'), 'Page of agencies'), ...authErrorResponses() },
    }),
    async (c) => c.json(await listAgencies(c.var.deps, c.req.valid('query')), 200),
  )
  .openapi(
    createRoute({
      method: 'post',
      operationId: 'suspendAgency',
      path: '/superadmin/agencies/{id}/suspend',
      tags: ['Agencies', 'Super-admin'],
      summary: "Suspend an agency: its announcements are hidden and its staff cannot publish",
      middleware: superAdmin,
      request: { params: IdParams, body: jsonBody(z.object({ reason: z.string().trim().min(1).max(500) }).openapi('AgencySuspension')) },
      responses: { 200: jsonContent(AgencySchema, 'The agency'), ...authErrorResponses(404, 409) },
    }),
    async (c) => {
      const row = await setAgencySuspended(c.var.deps, c.get('auth').id, c.req.valid('param').id, true, clientIp(c), c.req.valid('json').reason);
      return c.json(agencyView(row), 200);
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      operationId: 'activateAgency',
      path: '/superadmin/agencies/{id}/activate',
      tags: ['Agencies', 'Super-admin'],
      summary: 'Reactivate a suspended agency',
      middleware: superAdmin,
      request: { params: IdParams },
      responses: { 200: jsonContent(AgencySchema, 'The agency'), ...authErrorResponses(404, 409) },
    }),
    async (c) => c.json(agencyView(await setAgencySuspended(c.var.deps, c.get('auth').id, c.req.valid('param').id, false, clientIp(c))), 200),
  );
