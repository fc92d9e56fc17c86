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
import { decimalInt, IdParams, nameText, pathId } from '../../validation';
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
const AgencyCreateSchema = z.object({ name: nameText(120, 2), ...AgencyFields }).openapi('AgencyCreate');
const AgencyUpdateSchema = z
  .object({ name: nameText(120, 2).optional(), ...AgencyFields })
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
const BranchCreateSchema = z.object({ name: nameText(120), ...BranchFields }).openapi('BranchCreate');
const BranchUpdateSchema = z
  .object({ name: nameText(120).optional(), ...BranchFields })
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
      description: 'Creates the agency with the caller as its owner and grants them ROLE_AGENCY_OWNER in the same batch (audited as AGENCY_REGISTERED); the agency is ACTIVE at once, and the owner\'s rights are read from the database, so they apply before the next token refresh. A caller who already owns an agency or works for one is 409 ALREADY_EXISTS (one agency per user).',
      middleware: authed,
      request: { body: jsonBody(AgencyCreateSchema) },
      responses: { 201: jsonContent(AgencySchema, 'The agency'), ...authErrorResponses(409) },
    })),
    async (c) => c.json(agencyView(await registerAgency(c.get('deps'), c.get('auth').id, c.req.valid('json'), clientIp(c))), 201),
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'getMyAgency',
      path: '/agencies/me',
      tags: ['Agencies'],
      summary: "The caller's agency (as owner or employee) and their place in it",
      description: 'The agency the caller owns, or works for as an employee, with their role in it (ROLE_AGENCY_OWNER or ROLE_AGENCY_EMPLOYEE), their branchId (null for the owner) and whether that branch is active. Read from the database, not from the token\'s roles. A caller in no agency gets 404 RESOURCE_NOT_FOUND.',
      middleware: authed,
      responses: { 200: jsonContent(MyAgencySchema, 'The agency'), ...authErrorResponses(404) },
    }),
    async (c) => c.json(await myAgency(c.get('deps'), c.get('auth').id), 200),
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'getAgency',
      path: '/agencies/{id}',
      tags: ['Agencies'],
      summary: 'An agency (its owner, its employees, admins)',
      description: 'The agency\'s profile, status and suspension. Its owner, its employees and admins read it; any other caller gets 403 ACCESS_DENIED, an unknown id 404 RESOURCE_NOT_FOUND.',
      middleware: authed,
      request: { params: IdParams },
      responses: { 200: jsonContent(AgencySchema, 'The agency'), ...authErrorResponses(404) },
    }),
    async (c) => c.json(agencyView(await agencyForMember(c.get('deps'), c.get('auth'), c.req.valid('param').id)), 200),
  )
  .openapi(
    createRoute({
      method: 'put',
      operationId: 'updateAgency',
      path: '/agencies/{id}',
      tags: ['Agencies'],
      summary: 'Update the agency (owner)',
      description: 'Changes the profile fields sent (name, legal name, registration number, contact details, address, description); fields left out keep their value. Only the agency\'s owner or a super-admin: anyone else gets 403 ACCESS_DENIED, an unknown agency 404.',
      middleware: authed,
      request: { params: IdParams, body: jsonBody(AgencyUpdateSchema) },
      responses: { 200: jsonContent(AgencySchema, 'The agency'), ...authErrorResponses(404) },
    }),
    async (c) => {
      const row = await updateAgency(c.get('deps'), c.get('auth'), c.req.valid('param').id, c.req.valid('json'));
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
      description: 'Adds an active branch to the agency; employees are invited into a branch, and an employee publishes trips for their own branch only. Only the agency\'s owner or a super-admin (else 403 ACCESS_DENIED); an unknown agency is 404.',
      middleware: authed,
      request: { params: IdParams, body: jsonBody(BranchCreateSchema) },
      responses: { 201: jsonContent(BranchSchema, 'The branch'), ...authErrorResponses(404) },
    })),
    async (c) => {
      const row = await createBranch(c.get('deps'), c.get('auth'), c.req.valid('param').id, c.req.valid('json'));
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
      description: 'A page of the agency\'s branches, active and inactive, oldest first by default (sortable by createdAt and name). Its owner, its employees and admins; anyone else gets 403 ACCESS_DENIED, an unknown agency 404.',
      middleware: authed,
      request: { params: IdParams, query: pageQuery({ sortable: ['createdAt', 'name'], defaultSort: 'createdAt,asc' }) },
      responses: { 200: jsonContent(PageSchema(BranchSchema, 'AgencyBranchPage'), 'Page of branches'), ...authErrorResponses(404) },
    }),
    async (c) => c.json(await listBranches(c.get('deps'), c.get('auth'), c.req.valid('param').id, c.req.valid('query')), 200),
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'getBranch',
      path: '/agencies/{id}/branches/{branchId}',
      tags: ['Agencies'],
      summary: 'One branch',
      description: 'One branch of the agency, with whether it is active. Its owner, its employees and admins (else 403 ACCESS_DENIED); a branch that does not exist or belongs to another agency is 404 RESOURCE_NOT_FOUND.',
      middleware: authed,
      request: { params: BranchParams },
      responses: { 200: jsonContent(BranchSchema, 'The branch'), ...authErrorResponses(404) },
    }),
    async (c) => {
      const { id, branchId } = c.req.valid('param');
      return c.json(branchView(await branchForMember(c.get('deps'), c.get('auth'), id, branchId)), 200);
    },
  )
  .openapi(
    createRoute({
      method: 'put',
      operationId: 'updateBranch',
      path: '/agencies/{id}/branches/{branchId}',
      tags: ['Agencies'],
      summary: 'Update a branch (owner)',
      description: 'Changes the branch\'s name, address, city, country or phone number; fields left out keep their value. Only the agency\'s owner or a super-admin (else 403 ACCESS_DENIED); a branch of another agency is 404.',
      middleware: authed,
      request: { params: BranchParams, body: jsonBody(BranchUpdateSchema) },
      responses: { 200: jsonContent(BranchSchema, 'The branch'), ...authErrorResponses(404) },
    }),
    async (c) => {
      const { id, branchId } = c.req.valid('param');
      return c.json(branchView(await updateBranch(c.get('deps'), c.get('auth'), id, branchId, c.req.valid('json'))), 200);
    },
  )
  .openapi(
    createRoute({
      method: 'delete',
      operationId: 'deleteBranch',
      path: '/agencies/{id}/branches/{branchId}',
      tags: ['Agencies'],
      summary: 'Delete a branch without employees or active announcements (owner)',
      description: 'Deletes the branch (audited as AGENCY_BRANCH_DELETED). A branch that still has employees, or trips ACTIVE or FULL, is 409 INVALID_STATE: move the employees and close the trips first. Only the agency\'s owner or a super-admin (else 403 ACCESS_DENIED); a branch of another agency is 404.',
      middleware: authed,
      request: { params: BranchParams },
      responses: { ...noContent, ...authErrorResponses(404, 409) },
    }),
    async (c) => {
      const { id, branchId } = c.req.valid('param');
      await deleteBranch(c.get('deps'), c.get('auth'), id, branchId, clientIp(c));
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
      description: 'Lets the branch\'s staff publish trips again (audited as AGENCY_BRANCH_ACTIVATED). A branch already active is 409 INVALID_STATE. Only the agency\'s owner or a super-admin (else 403 ACCESS_DENIED); a branch of another agency is 404.',
      middleware: authed,
      request: { params: BranchParams },
      responses: { 200: jsonContent(BranchSchema, 'The branch'), ...authErrorResponses(404, 409) },
    }),
    async (c) => {
      const { id, branchId } = c.req.valid('param');
      return c.json(branchView(await setBranchActive(c.get('deps'), c.get('auth'), id, branchId, true, clientIp(c))), 200);
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      operationId: 'deactivateBranch',
      path: '/agencies/{id}/branches/{branchId}/deactivate',
      tags: ['Agencies'],
      summary: 'Deactivate a branch: its staff can no longer publish (owner)',
      description: 'Marks the branch inactive (audited as AGENCY_BRANCH_DEACTIVATED): its employees\' new trips are refused with 422 BUSINESS_RULE_VIOLATION, and the owner cannot publish for it; its published trips and reservations go on. A branch already inactive is 409 INVALID_STATE. Only the agency\'s owner or a super-admin (else 403 ACCESS_DENIED).',
      middleware: authed,
      request: { params: BranchParams },
      responses: { 200: jsonContent(BranchSchema, 'The branch'), ...authErrorResponses(404, 409) },
    }),
    async (c) => {
      const { id, branchId } = c.req.valid('param');
      return c.json(branchView(await setBranchActive(c.get('deps'), c.get('auth'), id, branchId, false, clientIp(c))), 200);
    },
  )
  // ---- employees
  .openapi(
    createRoute(idempotent({
      method: 'post',
      operationId: 'addEmployee',
      path: '/agencies/{id}/employees',
      tags: ['Agencies'],
      summary: 'Invite an address to work in a branch (owner); its account becomes staff by accepting',
      description:
        'The same answer (201 with the invitation) whether or not the address has an account (CONTRACT 25). An account is ' +
        'notified (AGENCY_INVITATION) and has 7 days to answer through /agency-invitations; an address without one receives ' +
        'an e-mail asking to sign up with it, and the invitation waits 14 days for that account. Only an account whose e-mail ' +
        'is verified answers (403 otherwise); one already in an agency is refused when it accepts. Inviting the address again ' +
        'while its invitation is unanswered renews it (branch, days). The owner\'s own address or one of the agency\'s staff: ' +
        '409 ALREADY_EXISTS. An unknown agency or branch: 404.',
      middleware: authed,
      request: {
        params: IdParams,
        body: jsonBody(z.object({ email: z.email().max(254), branchId: idField }).openapi('AgencyEmployeeCreate')),
      },
      responses: { 201: jsonContent(InvitationAnswerSchema, 'The invitation'), ...authErrorResponses(404, 409) },
    })),
    async (c) => c.json(await inviteEmployee(c.get('deps'), c.get('auth'), c.req.valid('param').id, c.req.valid('json'), clientIp(c)), 201),
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'listEmployees',
      path: '/agencies/{id}/employees',
      tags: ['Agencies'],
      summary: 'Employees of the agency (owner), optionally of one branch',
      description: 'A page of the agency\'s employees (user id, name, email, branch, joinedAt), in joining order by default; branchId keeps one branch\'s. Only the agency\'s owner or a super-admin (else 403 ACCESS_DENIED); an unknown agency is 404.',
      middleware: authed,
      request: {
        params: IdParams,
        query: pageQuery({ sortable: ['joinedAt'], defaultSort: 'joinedAt,asc' }).extend({
          branchId: decimalInt(z.number().int().min(1).max(2_147_483_647)).optional().openapi({ param: { name: 'branchId', in: 'query' }, type: 'integer' }),
        }),
      },
      responses: { 200: jsonContent(PageSchema(EmployeeSchema, 'AgencyEmployeePage'), 'Page of employees'), ...authErrorResponses(404) },
    }),
    async (c) => c.json(await listEmployees(c.get('deps'), c.get('auth'), c.req.valid('param').id, c.req.valid('query')), 200),
  )
  .openapi(
    createRoute({
      method: 'put',
      operationId: 'moveEmployee',
      path: '/agencies/{id}/employees/{userId}',
      tags: ['Agencies'],
      summary: 'Move an employee to another branch (owner)',
      description: 'Puts the employee in another branch of the same agency (audited as AGENCY_EMPLOYEE_MOVED); from then on they act for that branch\'s trips only, the old branch\'s no longer. Only the agency\'s owner or a super-admin (else 403 ACCESS_DENIED); a user who is not an employee of this agency, or a branch of another agency, is 404 RESOURCE_NOT_FOUND.',
      middleware: authed,
      request: { params: EmployeeParams, body: jsonBody(z.object({ branchId: idField }).openapi('AgencyEmployeeUpdate')) },
      responses: { 200: jsonContent(EmployeeSchema, 'The employee'), ...authErrorResponses(404) },
    }),
    async (c) => {
      const { id, userId } = c.req.valid('param');
      return c.json(await moveEmployee(c.get('deps'), c.get('auth'), id, userId, c.req.valid('json').branchId, clientIp(c)), 200);
    },
  )
  .openapi(
    createRoute({
      method: 'delete',
      operationId: 'removeEmployee',
      path: '/agencies/{id}/employees/{userId}',
      tags: ['Agencies'],
      summary: "Remove an employee (owner; removes the role and revokes the employee's tokens)",
      description: 'Removes the employee from the agency in one batch: the membership, ROLE_AGENCY_EMPLOYEE, an AGENCY_EMPLOYEE_REMOVED notification to them and the audit entry; their existing tokens are revoked so the old role stops at once. Only the agency\'s owner or a super-admin (else 403 ACCESS_DENIED); a user who is not an employee of this agency is 404.',
      middleware: authed,
      request: { params: EmployeeParams },
      responses: { ...noContent, ...authErrorResponses(404) },
    }),
    async (c) => {
      const { id, userId } = c.req.valid('param');
      await removeEmployee(c.get('deps'), c.get('auth'), id, userId, clientIp(c));
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
      description: 'A page of the invitations addressed to the caller that are still INVITED and not past their expiresAt, with the agency\'s name and the branch, newest first. Answer one with POST /agency-invitations/{id}/accept or /decline.',
      middleware: authed,
      request: { query: pageQuery({ sortable: ['createdAt'], defaultSort: 'createdAt,desc' }) },
      responses: { 200: jsonContent(PageSchema(InvitationSchema, 'AgencyInvitationPage'), 'Page of invitations'), ...authErrorResponses() },
    }),
    async (c) => c.json(await myInvitations(c.get('deps'), c.get('auth'), c.req.valid('query')), 200),
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
    async (c) => c.json(await acceptInvitation(c.get('deps'), c.get('auth'), c.req.valid('param').id, clientIp(c)), 200),
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
    async (c) => c.json(await declineInvitation(c.get('deps'), c.get('auth'), c.req.valid('param').id, clientIp(c)), 200),
  )
  // ---- super-admin
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'superadminListAgencies',
      path: '/superadmin/agencies',
      tags: ['Agencies', 'Super-admin'],
      summary: 'All agencies, optionally by status',
      description: 'A page of every agency, ACTIVE and SUSPENDED (status keeps one of them), newest first by default; sortable by createdAt and name.',
      middleware: superAdmin,
      request: {
        query: pageQuery({ sortable: ['createdAt', 'name'], defaultSort: 'createdAt,desc' }).extend({
          status: z.enum(AGENCY_STATUSES).optional().openapi({ param: { name: 'status', in: 'query' } }),
        }),
      },
      responses: { 200: jsonContent(PageSchema(AgencySchema, 'AgencyPage'), 'Page of agencies'), ...authErrorResponses() },
    }),
    async (c) => c.json(await listAgencies(c.get('deps'), c.req.valid('query')), 200),
  )
  .openapi(
    createRoute({
      method: 'post',
      operationId: 'suspendAgency',
      path: '/superadmin/agencies/{id}/suspend',
      tags: ['Agencies', 'Super-admin'],
      summary: "Suspend an agency: its announcements are hidden and its staff cannot publish",
      description: 'Sets the agency SUSPENDED with the reason given: its trips leave the public search and read as 404 to the public (booking them too), and neither its owner nor its employees can publish (422 BUSINESS_RULE_VIOLATION). The owner is notified (AGENCY_SUSPENDED) and the action is audited. An agency already suspended is 409 INVALID_STATE; an unknown id 404.',
      middleware: superAdmin,
      request: { params: IdParams, body: jsonBody(z.object({ reason: z.string().trim().min(1).max(500) }).openapi('AgencySuspension')) },
      responses: { 200: jsonContent(AgencySchema, 'The agency'), ...authErrorResponses(404, 409) },
    }),
    async (c) => {
      const row = await setAgencySuspended(c.get('deps'), c.get('auth').id, c.req.valid('param').id, true, clientIp(c), c.req.valid('json').reason);
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
      description: 'Sets a suspended agency ACTIVE again and clears its suspension reason: its trips show again and its staff may publish. The owner is notified (AGENCY_ACTIVATED) and the action is audited. An agency already active is 409 INVALID_STATE; an unknown id 404.',
      middleware: superAdmin,
      request: { params: IdParams },
      responses: { 200: jsonContent(AgencySchema, 'The agency'), ...authErrorResponses(404, 409) },
    }),
    async (c) => c.json(agencyView(await setAgencySuspended(c.get('deps'), c.get('auth').id, c.req.valid('param').id, false, clientIp(c))), 200),
  );
