// Agencies: registration and owner-only management, branches, employees scoped to a branch,
// documents, super-admin suspension, and what announcements rely on (staffScope, publishing rule,
// the search condition hiding suspended agencies' trips).
import { env } from 'cloudflare:workers';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { database } from '../src/db/client';
import { agencyEmployees, agencyInvitations, announcements, auditLogs, deliveries, notifications, reservations, users } from '../src/db/schema';
import {
  assertStaffCanPublish,
  canStaffManageAnnouncement,
  isAgencyVisible,
  publishRefusalText,
  staffScope,
  visibleAgencyCondition,
  type StaffScope,
} from '../src/access/agency-scope';
import { call, del, errorBody, get, post, put } from './helpers/http';
import {
  type TestUser,
  aUser,
  tokenFor,
  anAdmin,
  aSuperAdmin,
  aTrip,
  aFile,
  anAgency,
  aBranch,
  aReservation,
  aCategory,
  bookingInput,
} from './helpers/factories';
import { depsOf } from '../src/env';
import { english } from '../src/errors';

/** The publishing refusal as an English client reads it. */
const publishRefusal = (scope: StaffScope) => {
  const refusal = publishRefusalText(scope);
  return refusal && english(refusal);
};

const db = database(env.DB);
const deps = depsOf(env, db);
const userRow = async (id: number) => (await db.select().from(users).where(eq(users.id, id)))[0];

async function agencyWithBranches() {
  const owner = await aUser();
  const created = await post('/v1/api/agencies', { name: 'Sahel Express', city: 'Dakar', country: 'SN', email: 'ops@sahel.test' }, { token: owner.token });
  expect(created.status).toBe(201);
  const id = created.body.id as number;
  const a = await post(`/v1/api/agencies/${id}/branches`, { name: 'Paris', city: 'Paris', country: 'FR' }, { token: owner.token });
  const b = await post(`/v1/api/agencies/${id}/branches`, { name: 'Lyon', city: 'Lyon', country: 'FR' }, { token: owner.token });
  expect(a.status).toBe(201);
  return { owner, id, branchA: a.body.id as number, branchB: b.body.id as number };
}

/** Invited by the owner, then accepted by the user (CONTRACT section 19). */
async function hire(owner: TestUser, agencyId: number, branchId: number) {
  const employee = await aUser();
  const res = await post(`/v1/api/agencies/${agencyId}/employees`, { email: employee.email, branchId }, { token: owner.token });
  expect(res.status).toBe(201);
  expect((await post(`/v1/api/agency-invitations/${res.body.invitationId}/accept`, undefined, { token: employee.token })).status).toBe(200);
  return employee;
}

const visibleTripIds = async (agencyId: number) =>
  (
    await db
      .select({ id: announcements.id })
      .from(announcements)
      .where(and(eq(announcements.agencyId, agencyId), visibleAgencyCondition(announcements.agencyId)))
  ).map((r) => r.id);

describe('registration and ownership', () => {
  it('the caller becomes ROLE_AGENCY_OWNER of one agency', async () => {
    const { owner, id } = await agencyWithBranches();
    const row = await userRow(owner.id);
    expect(row.agencyId).toBe(id);
    expect(row.roles).toEqual(['ROLE_CLIENT', 'ROLE_AGENCY_OWNER']);

    const me = await get('/v1/api/agencies/me', { token: owner.token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id, name: 'Sahel Express', ownerId: owner.id, status: 'ACTIVE', role: 'ROLE_AGENCY_OWNER', branchId: null });

    const second = await post('/v1/api/agencies', { name: 'Another one' }, { token: owner.token });
    expect(second.status).toBe(409);
    expect(second.body.errorCode).toBe('ALREADY_EXISTS');
    expect(await staffScope(deps, owner.id)).toEqual({
      agencyId: id,
      branchId: null,
      role: 'ROLE_AGENCY_OWNER',
      branchActive: true,
      agencySuspended: false,
    });
  });

  it('validates the body and needs a token', async () => {
    const user = await aUser();
    const bad = await post('/v1/api/agencies', { name: 'x', email: 'nope' }, { token: user.token });
    expect(bad.status).toBe(400);
    expect(bad.body.fieldErrors.map((f: { field: string }) => f.field).sort()).toEqual(['email', 'name']);
    expect((await post('/v1/api/agencies', { name: 'Agency' })).status).toBe(401);
    const none = await get('/v1/api/agencies/me', { token: user.token });
    expect(none.status).toBe(404);
  });

  /** An agency with two branches and an employee hired into branch A. */
  async function staffedAgency() {
    const agency = await agencyWithBranches();
    return { ...agency, employee: await hire(agency.owner, agency.id, agency.branchA) };
  }

  it('a stranger cannot update the agency: 403 ACCESS_DENIED', async () => {
    const { id } = await agencyWithBranches();
    const stranger = await aUser();
    const byStranger = await put(`/v1/api/agencies/${id}`, { name: 'Hijacked' }, { token: stranger.token });
    expect(byStranger.status).toBe(403);
    expect(errorBody(byStranger)).toEqual({
      status: 403,
      errorCode: 'ACCESS_DENIED',
      message: 'You are not allowed to access this resource',
      path: `/v1/api/agencies/${id}`,
      suggestions: [],
    });
  });

  it('an employee cannot update the agency, add branches or hire: 403', async () => {
    const { id, branchA, employee } = await staffedAgency();
    const stranger = await aUser();
    expect((await put(`/v1/api/agencies/${id}`, { name: 'By employee' }, { token: employee.token })).status).toBe(403);
    expect((await post(`/v1/api/agencies/${id}/branches`, { name: 'Rogue' }, { token: employee.token })).status).toBe(403);
    expect((await post(`/v1/api/agencies/${id}/employees`, { email: stranger.email, branchId: branchA }, { token: employee.token })).status).toBe(403);
  });

  it('a stranger cannot read the agency: 403', async () => {
    const { id } = await agencyWithBranches();
    const stranger = await aUser();
    expect((await get(`/v1/api/agencies/${id}`, { token: stranger.token })).status).toBe(403);
  });

  it('an employee reads the agency and its branches', async () => {
    const { id, employee } = await staffedAgency();
    expect((await get(`/v1/api/agencies/${id}`, { token: employee.token })).status).toBe(200);
    const branches = await get(`/v1/api/agencies/${id}/branches`, { token: employee.token });
    expect(branches.body.content.map((b: { name: string }) => b.name)).toEqual(['Paris', 'Lyon']);
    expect(branches.body.page).toEqual({ number: 0, size: 20, totalElements: 2, totalPages: 1 });
    const byName = await get(`/v1/api/agencies/${id}/branches?sort=name,asc&size=1`, { token: employee.token });
    expect(byName.body.content.map((b: { name: string }) => b.name)).toEqual(['Lyon']);
    expect(byName.body.page).toEqual({ number: 0, size: 1, totalElements: 2, totalPages: 2 });
  });

  it('the owner updates the agency, keeping what is not sent', async () => {
    const { owner, id } = await agencyWithBranches();
    const updated = await put(`/v1/api/agencies/${id}`, { description: 'Weekly flights' }, { token: owner.token });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ name: 'Sahel Express', description: 'Weekly flights' });
  });

  it('a super-admin updates any agency', async () => {
    const { id } = await agencyWithBranches();
    const superAdmin = await aSuperAdmin();
    expect((await put(`/v1/api/agencies/${id}`, { phoneNumber: '+221' }, { token: superAdmin.token })).status).toBe(200);
  });

  it('an unknown agency is 404', async () => {
    const { owner } = await agencyWithBranches();
    expect((await get('/v1/api/agencies/999999', { token: owner.token })).status).toBe(404);
  });
});

describe('branches', () => {
  it('create, read, update, activate, deactivate and delete', async () => {
    const { owner, id, branchA, branchB } = await agencyWithBranches();
    const branch = await get(`/v1/api/agencies/${id}/branches/${branchA}`, { token: owner.token });
    expect(branch.body).toMatchObject({ id: branchA, agencyId: id, name: 'Paris', active: true });

    const renamed = await put(`/v1/api/agencies/${id}/branches/${branchA}`, { name: 'Paris CDG' }, { token: owner.token });
    expect(renamed.body).toMatchObject({ name: 'Paris CDG', city: 'Paris' });

    const off = await post(`/v1/api/agencies/${id}/branches/${branchA}/deactivate`, undefined, { token: owner.token });
    expect(off.status).toBe(200);
    expect(off.body.active).toBe(false);
    const again = await post(`/v1/api/agencies/${id}/branches/${branchA}/deactivate`, undefined, { token: owner.token });
    expect(again.status).toBe(409);
    expect(again.body.errorCode).toBe('INVALID_STATE');
    const on = await post(`/v1/api/agencies/${id}/branches/${branchA}/activate`, undefined, { token: owner.token });
    expect(on.body.active).toBe(true);

    expect((await del(`/v1/api/agencies/${id}/branches/${branchB}`, { token: owner.token })).status).toBe(204);
    expect((await get(`/v1/api/agencies/${id}/branches/${branchB}`, { token: owner.token })).status).toBe(404);
  });

  it('a branch of another agency is not found through this one', async () => {
    const first = await agencyWithBranches();
    const second = await agencyWithBranches();
    const res = await get(`/v1/api/agencies/${first.id}/branches/${second.branchA}`, { token: first.owner.token });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe(`Branch ${second.branchA} not found`);
  });

  it('a branch with employees or live trips cannot be deleted', async () => {
    const { owner, id, branchA, branchB } = await agencyWithBranches();
    await hire(owner, id, branchA);
    const res = await del(`/v1/api/agencies/${id}/branches/${branchA}`, { token: owner.token });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('This branch still has employees: move or remove them first');
    await aTrip(owner, { agencyId: id, branchId: branchB });
    expect((await del(`/v1/api/agencies/${id}/branches/${branchB}`, { token: owner.token })).status).toBe(409);
  });
});

describe('employees', () => {
  it('added to a branch, moved, and removed with roles, scope and tokens following', async () => {
    const { owner, id, branchA, branchB } = await agencyWithBranches();
    const employee = await aUser();
    const invited = await post(`/v1/api/agencies/${id}/employees`, { email: employee.email, branchId: branchA }, { token: owner.token });
    expect(invited.status).toBe(201);
    const accepted = await post(`/v1/api/agency-invitations/${invited.body.invitationId}/accept`, undefined, { token: employee.token });
    expect(accepted.status).toBe(200);
    let row = await userRow(employee.id);
    expect(row.roles).toEqual(['ROLE_CLIENT', 'ROLE_AGENCY_EMPLOYEE']);
    expect(row.agencyId).toBe(id);
    expect(await staffScope(deps, employee.id)).toEqual({
      agencyId: id,
      branchId: branchA,
      role: 'ROLE_AGENCY_EMPLOYEE',
      branchActive: true,
      agencySuspended: false,
    });
    const me = await get('/v1/api/agencies/me', { token: employee.token });
    expect(me.body).toMatchObject({ id, role: 'ROLE_AGENCY_EMPLOYEE', branchId: branchA });

    const twice = await post(`/v1/api/agencies/${id}/employees`, { email: employee.email, branchId: branchB }, { token: owner.token });
    expect(twice.status).toBe(409);
    expect(twice.body.errorCode).toBe('ALREADY_EXISTS');
    const owners = await post(`/v1/api/agencies/${id}/employees`, { email: owner.email, branchId: branchA }, { token: owner.token });
    expect(owners.status).toBe(409);
    // An address without an account is invited like any other (CONTRACT 25): nothing tells the owner it has none.
    const unknown = await post(`/v1/api/agencies/${id}/employees`, { email: 'nobody@test.local', branchId: branchA }, { token: owner.token });
    expect(unknown.status).toBe(201);

    const list = await get(`/v1/api/agencies/${id}/employees`, { token: owner.token });
    expect(list.body.content.map((e: { userId: number }) => e.userId)).toEqual([employee.id]);
    expect(list.body.page).toEqual({ number: 0, size: 20, totalElements: 1, totalPages: 1 });
    expect((await get(`/v1/api/agencies/${id}/employees?branchId=${branchB}`, { token: owner.token })).body.content).toEqual([]);

    const moved = await put(`/v1/api/agencies/${id}/employees/${employee.id}`, { branchId: branchB }, { token: owner.token });
    expect(moved.status).toBe(200);
    expect(moved.body.branchId).toBe(branchB);
    expect((await staffScope(deps, employee.id))?.branchId).toBe(branchB);

    const oldToken = await tokenFor(employee.id, ['ROLE_CLIENT', 'ROLE_AGENCY_EMPLOYEE']);
    await new Promise((r) => setTimeout(r, 1100)); // token cut-offs have a one-second granularity
    const removed = await del(`/v1/api/agencies/${id}/employees/${employee.id}`, { token: owner.token });
    expect(removed.status).toBe(204);
    row = await userRow(employee.id);
    expect(row.roles).toEqual(['ROLE_CLIENT']);
    expect(row.agencyId).toBeNull();
    expect(await staffScope(deps, employee.id)).toBeNull();
    expect((await get('/v1/api/agencies/me', { token: oldToken })).status).toBe(401);
    const notes = await db.select().from(notifications).where(eq(notifications.userId, employee.id));
    expect(notes.map((n) => n.type)).toEqual(['AGENCY_INVITATION', 'AGENCY_EMPLOYEE_REMOVED']);
    expect((await del(`/v1/api/agencies/${id}/employees/${employee.id}`, { token: owner.token })).status).toBe(404);
  });

  it('an employee of branch A cannot manage branch B announcements; the owner manages all', async () => {
    const { owner, id, branchA, branchB } = await agencyWithBranches();
    const employee = await hire(owner, id, branchA);
    const scope = (await staffScope(deps, employee.id))!;
    const ownerScope = (await staffScope(deps, owner.id))!;
    expect(canStaffManageAnnouncement(scope, { agencyId: id, branchId: branchA })).toBe(true);
    expect(canStaffManageAnnouncement(scope, { agencyId: id, branchId: branchB })).toBe(false);
    expect(canStaffManageAnnouncement(scope, { agencyId: id, branchId: null })).toBe(false);
    expect(canStaffManageAnnouncement(scope, { agencyId: id + 1000, branchId: branchA })).toBe(false);
    expect(canStaffManageAnnouncement(ownerScope, { agencyId: id, branchId: branchB })).toBe(true);
    expect(canStaffManageAnnouncement(null, { agencyId: id, branchId: branchA })).toBe(false);
    await expect(assertStaffCanPublish(deps, scope, branchB)).rejects.toMatchObject({ errorCode: 'ACCESS_DENIED' });
    await expect(assertStaffCanPublish(deps, scope)).resolves.toEqual({ agencyId: id, branchId: branchA });
    await expect(assertStaffCanPublish(deps, ownerScope, branchB)).resolves.toEqual({ agencyId: id, branchId: branchB });
  });

  it('a deactivated branch cannot publish', async () => {
    const { owner, id, branchA } = await agencyWithBranches();
    const employee = await hire(owner, id, branchA);
    await post(`/v1/api/agencies/${id}/branches/${branchA}/deactivate`, undefined, { token: owner.token });
    const scope = (await staffScope(deps, employee.id))!;
    expect(scope.branchActive).toBe(false);
    expect(publishRefusal(scope)).toBe('Your branch is deactivated: it cannot publish announcements');
    await expect(assertStaffCanPublish(deps, scope)).rejects.toMatchObject({ errorCode: 'BUSINESS_RULE_VIOLATION' });
    const ownerScope = (await staffScope(deps, owner.id))!;
    await expect(assertStaffCanPublish(deps, ownerScope, branchA)).rejects.toMatchObject({ errorCode: 'BUSINESS_RULE_VIOLATION' });
  });
});

describe('invitations (CONTRACT section 19)', () => {
  const invite = (owner: TestUser, agencyId: number, email: string, branchId: number) =>
    post(`/v1/api/agencies/${agencyId}/employees`, { email, branchId }, { token: owner.token });
  const answer = (id: number, verb: 'accept' | 'decline', who: TestUser) => post(`/v1/api/agency-invitations/${id}/${verb}`, undefined, { token: who.token });
  const invitationsOf = (who: TestUser) => get('/v1/api/agency-invitations', { token: who.token });
  const DAY_MS = 24 * 60 * 60 * 1000;

  it('an invitation makes nobody staff: the invited user is told, sees it, and becomes staff by accepting', async () => {
    const { owner, id, branchA } = await agencyWithBranches();
    const user = await aUser();
    const invited = await invite(owner, id, user.email.toUpperCase(), branchA);
    expect(invited.status).toBe(201);
    const invitationId = invited.body.invitationId as number;
    expect(invited.body).toEqual({ invitationId, email: user.email, branchId: branchA, status: 'INVITED' });
    expect(await staffScope(deps, user.id)).toBeNull();
    expect(await userRow(user.id)).toMatchObject({ roles: ['ROLE_CLIENT'], agencyId: null });

    const [note] = await db.select().from(notifications).where(eq(notifications.userId, user.id));
    expect(note).toMatchObject({ type: 'AGENCY_INVITATION', data: { invitationId, agencyId: id, agencyName: 'Sahel Express', branchId: branchA } });
    expect((await db.select().from(deliveries).where(eq(deliveries.userId, user.id))).map((d) => [d.channel, d.template])).toContainEqual(['EMAIL', 'AGENCY_INVITATION']);

    const page = await invitationsOf(user);
    expect(page.status).toBe(200);
    expect(page.body).toEqual({
      content: [{ id: invitationId, agencyId: id, agencyName: 'Sahel Express', branchId: branchA, createdAt: expect.any(String), expiresAt: expect.any(String) }],
      page: { number: 0, size: 20, totalElements: 1, totalPages: 1 },
    });
    const [open] = page.body.content;
    expect(Date.parse(open.expiresAt) - Date.parse(open.createdAt)).toBe(7 * DAY_MS);
    expect((await invitationsOf(owner)).body.content).toEqual([]);

    const stranger = await aUser();
    for (const verb of ['accept', 'decline'] as const) {
      expect(errorBody(await answer(invitationId, verb, stranger))).toMatchObject({ status: 403, errorCode: 'ACCESS_DENIED' });
    }
    expect((await answer(999999, 'accept', user)).status).toBe(404);

    const accepted = await answer(invitationId, 'accept', user);
    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual({ invitationId, email: user.email, branchId: branchA, status: 'ACCEPTED' });
    expect(await staffScope(deps, user.id)).toMatchObject({ agencyId: id, branchId: branchA, role: 'ROLE_AGENCY_EMPLOYEE' });
    expect(await userRow(user.id)).toMatchObject({ roles: ['ROLE_CLIENT', 'ROLE_AGENCY_EMPLOYEE'], agencyId: id });
    expect(errorBody(await answer(invitationId, 'accept', user))).toMatchObject({ status: 409, errorCode: 'INVALID_STATE', message: 'This invitation was already accepted' });
    expect((await invitationsOf(user)).body.content).toEqual([]);
    // A member cannot be invited again, by this agency or another.
    expect(errorBody(await invite(owner, id, user.email, branchA))).toMatchObject({ status: 409, errorCode: 'ALREADY_EXISTS', message: 'This user already belongs to an agency' });
  });

  it('declining leaves the user outside; inviting again renews an open invitation or opens a new one', async () => {
    const { owner, id, branchA, branchB } = await agencyWithBranches();
    const user = await aUser();
    const first = (await invite(owner, id, user.email, branchA)).body.invitationId as number;
    const renewed = await invite(owner, id, user.email, branchB);
    expect(renewed.status).toBe(201);
    expect(renewed.body).toEqual({ invitationId: first, email: user.email, branchId: branchB, status: 'INVITED' });
    expect(await db.select().from(agencyInvitations).where(eq(agencyInvitations.userId, user.id))).toHaveLength(1);
    expect((await db.select().from(notifications).where(eq(notifications.userId, user.id))).map((n) => n.type)).toEqual(['AGENCY_INVITATION', 'AGENCY_INVITATION']);

    const declined = await answer(first, 'decline', user);
    expect(declined.body).toEqual({ invitationId: first, email: user.email, branchId: branchB, status: 'DECLINED' });
    expect(await staffScope(deps, user.id)).toBeNull();
    expect(errorBody(await answer(first, 'accept', user))).toMatchObject({ status: 409, errorCode: 'INVALID_STATE', message: 'This invitation was already declined' });
    expect((await invitationsOf(user)).body.content).toEqual([]);

    const again = await invite(owner, id, user.email, branchA);
    expect(again.status).toBe(201);
    expect(again.body.invitationId).not.toBe(first);
  });

  it('an invitation older than 7 days is no longer listed and cannot be accepted', async () => {
    const { owner, id, branchA } = await agencyWithBranches();
    const user = await aUser();
    const invitationId = (await invite(owner, id, user.email, branchA)).body.invitationId as number;
    // As if sent 7 days and a second ago.
    await db
      .update(agencyInvitations)
      .set({ createdAt: new Date(Date.now() - 7 * DAY_MS - 1000).toISOString(), expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where(eq(agencyInvitations.id, invitationId));
    expect((await invitationsOf(user)).body.content).toEqual([]);
    expect(errorBody(await answer(invitationId, 'accept', user))).toMatchObject({ status: 409, errorCode: 'INVALID_STATE', message: 'This invitation has expired' });
    expect(await staffScope(deps, user.id)).toBeNull();
    // Inviting again renews it.
    expect((await invite(owner, id, user.email, branchA)).body).toMatchObject({ invitationId, status: 'INVITED' });
    expect((await answer(invitationId, 'accept', user)).status).toBe(200);
  });

  it('invited by two agencies, a user who joined one cannot accept the other: 409 ALREADY_EXISTS', async () => {
    const one = await agencyWithBranches();
    const two = await agencyWithBranches();
    const user = await aUser();
    const a = (await invite(one.owner, one.id, user.email, one.branchA)).body.invitationId as number;
    const b = (await invite(two.owner, two.id, user.email, two.branchA)).body.invitationId as number;
    expect((await invitationsOf(user)).body.page.totalElements).toBe(2);
    expect((await answer(a, 'accept', user)).status).toBe(200);
    expect(errorBody(await answer(b, 'accept', user))).toMatchObject({ status: 409, errorCode: 'ALREADY_EXISTS' });
    expect((await staffScope(deps, user.id))?.agencyId).toBe(one.id);
  });
});

describe('branch scope (CONTRACT section 19)', () => {
  /** An agency with branches A and B, an employee of each (each the carrier of a trip of their branch). */
  async function twoBranches() {
    const owner = await aUser({ roles: ['ROLE_CLIENT', 'ROLE_AGENCY_OWNER'] });
    const agency = await anAgency(owner);
    const [branchA, branchB] = [await aBranch(agency), await aBranch(agency)];
    const alice = await aUser({ roles: ['ROLE_CLIENT', 'ROLE_AGENCY_EMPLOYEE'] });
    const bob = await aUser({ roles: ['ROLE_CLIENT', 'ROLE_AGENCY_EMPLOYEE'] });
    await db.insert(agencyEmployees).values([
      { userId: alice.id, agencyId: agency.id, branchId: branchA.id },
      { userId: bob.id, agencyId: agency.id, branchId: branchB.id },
    ]);
    await db.update(users).set({ agencyId: agency.id }).where(eq(users.id, owner.id));
    const tripA = await aTrip(alice, { agencyId: agency.id, branchId: branchA.id });
    const tripB = await aTrip(bob, { agencyId: agency.id, branchId: branchB.id });
    return { owner, agency, alice, bob, tripA, tripB };
  }
  const on = (trip: { id: number; agencyId: number | null }, status: 'PAID' | 'CONFIRMED' | 'IN_TRANSIT' = 'PAID') =>
    aReservation({ trip, status, agencyId: trip.agencyId, set: status === 'PAID' ? { paidAt: new Date().toISOString() } : {} });
  const statusOf = async (id: number) => (await db.select({ s: reservations.status }).from(reservations).where(eq(reservations.id, id)))[0].s;
  /** A parcel photo of the reservation, stored in R2. */
  async function parcelImage(sender: { id: number }, reservationId: number) {
    const file = await aFile(sender, { purpose: 'PARCEL_IMAGE', reservationId });
    await env.UPLOADS.put(file.storageKey, new Uint8Array(10));
    return file;
  }

  it("an employee reads and acts on their own branch's reservations only; the owner on every branch", async () => {
    const { owner, alice, tripA, tripB } = await twoBranches();
    const [a, b] = [(await on(tripA)).reservation, (await on(tripB)).reservation];
    const [fileA, fileB] = [await parcelImage({ id: a.senderId }, a.id), await parcelImage({ id: b.senderId }, b.id)];
    const reads = (id: number, fileId: number) => [
      `/v1/api/bookings/${id}`,
      `/v1/api/tracking/${id}`,
      `/v1/api/payments/${id}/status`,
      `/v1/api/bookings/${id}/messages`,
      `/v1/api/files/${fileId}`,
    ];
    for (const path of reads(b.id, fileB.id)) {
      const res = await get(path, { token: alice.token });
      expect([path, res.status, res.body.errorCode]).toEqual([path, 403, 'ACCESS_DENIED']);
    }
    for (const [token, paths] of [
      [alice.token, reads(a.id, fileA.id)],
      [owner.token, [...reads(a.id, fileA.id), ...reads(b.id, fileB.id)]],
    ] as const) {
      for (const path of paths) expect([path, (await get(path, { token })).status]).toEqual([path, 200]);
    }

    for (const action of ['accept', 'reject', 'cancel']) {
      const res = await post(`/v1/api/bookings/${b.id}/${action}`, action === 'cancel' ? { reason: 'No room' } : undefined, { token: alice.token });
      expect([action, res.status, res.body.errorCode]).toEqual([action, 403, 'ACCESS_DENIED']);
    }
    const dispute = await post('/v1/api/disputes', { reservationId: b.id, reason: 'DAMAGED', description: 'Not mine to dispute', evidenceFileIds: [] }, { token: alice.token });
    expect(dispute.status).toBe(403);
    expect(await statusOf(b.id)).toBe('PAID');

    expect((await post(`/v1/api/bookings/${a.id}/accept`, undefined, { token: alice.token })).body.status).toBe('CONFIRMED');
    expect((await post(`/v1/api/bookings/${b.id}/reject`, undefined, { token: owner.token })).body.status).toBe('REJECTED');
    const otherB = (await on(tripB)).reservation;
    expect((await post(`/v1/api/bookings/${otherB.id}/accept`, undefined, { token: owner.token })).body.status).toBe('CONFIRMED');
    expect((await post(`/v1/api/bookings/${otherB.id}/cancel`, { reason: 'Storm' }, { token: owner.token })).body.status).toBe('CANCELLED');
  });

  it("deposit and delivery by code: the trip's branch and the owner, never another branch", async () => {
    const { owner, agency, alice, tripA, tripB } = await twoBranches();
    const carol = await aUser({ roles: ['ROLE_CLIENT', 'ROLE_AGENCY_EMPLOYEE'] });
    await db.insert(agencyEmployees).values({ userId: carol.id, agencyId: agency.id, branchId: tripA.branchId! });
    const [a, b] = [(await on(tripA, 'CONFIRMED')).reservation, (await on(tripB, 'CONFIRMED')).reservation];
    const deposit = (r: typeof a, who: TestUser) => post(`/v1/api/bookings/${r.id}/deposit`, { depositCode: r.depositCode }, { token: who.token });
    expect(errorBody(await deposit(b, alice))).toMatchObject({ status: 403, errorCode: 'ACCESS_DENIED' });
    expect(await statusOf(b.id)).toBe('CONFIRMED');
    expect((await deposit(b, owner)).body.status).toBe('DEPOSITED');
    // A colleague of the trip's branch who did not publish it.
    expect((await deposit(a, carol)).body.status).toBe('DEPOSITED');
    const deliver = await post(`/v1/api/bookings/${a.id}/deliver`, { deliveryCode: a.deliveryCode }, { token: alice.token });
    expect(deliver.body.status).toBe('DELIVERED');
  });

  it('an employee who published a trip acts on its bookings only while on its branch: moved or gone, no more', async () => {
    const { owner, agency, alice, tripA, tripB } = await twoBranches();
    const [first, second] = [(await on(tripA)).reservation, (await on(tripA)).reservation];
    expect((await get(`/v1/api/bookings/${first.id}`, { token: alice.token })).status).toBe(200);
    // Moved to branch B: the trip of branch A is no longer hers.
    await db.update(agencyEmployees).set({ branchId: tripB.branchId! }).where(eq(agencyEmployees.userId, alice.id));
    const moved = await post(`/v1/api/bookings/${first.id}/accept`, undefined, { token: alice.token });
    expect([moved.status, moved.body.errorCode]).toEqual([403, 'ACCESS_DENIED']);
    // Gone from the agency: neither read nor act.
    await db.delete(agencyEmployees).where(eq(agencyEmployees.userId, alice.id));
    expect((await get(`/v1/api/bookings/${second.id}`, { token: alice.token })).status).toBe(403);
    expect((await post(`/v1/api/bookings/${second.id}/reject`, undefined, { token: alice.token })).status).toBe(403);
    expect(await statusOf(first.id)).toBe('PAID');
    expect(await statusOf(second.id)).toBe('PAID');
    // The agency still acts for its trip.
    expect((await post(`/v1/api/bookings/${first.id}/accept`, undefined, { token: owner.token })).body.status).toBe('CONFIRMED');
    expect(agency.id).toBe(tripA.agencyId);
  });

  it('the live tracking feed refuses an employee of another branch', async () => {
    const { alice, tripB } = await twoBranches();
    const { reservation } = await on(tripB, 'IN_TRANSIT');
    const res = await get(`/v1/api/tracking/${reservation.id}/live`, { token: alice.token, headers: { Upgrade: 'websocket' } });
    expect(res.status).toBe(403);
  });

  it("no member of an agency books the agency's trips: 422 BUSINESS_RULE_VIOLATION; others book them", async () => {
    const { owner, alice, tripA, tripB } = await twoBranches();
    const category = await aCategory();
    for (const [who, trip] of [
      [alice, tripB],
      [owner, tripA],
    ] as const) {
      const res = await post('/v1/api/bookings', bookingInput(trip.id, category.id, 1), { token: who.token });
      expect(errorBody(res)).toEqual({
        status: 422,
        errorCode: 'BUSINESS_RULE_VIOLATION',
        reason: 'OWN_AGENCY_TRIP',
        message: "You cannot book your own agency's announcement",
        path: '/v1/api/bookings',
        suggestions: [],
      });
    }
    const french = await post('/v1/api/bookings', bookingInput(tripB.id, category.id, 1), { token: alice.token, headers: { 'Accept-Language': 'fr' } });
    expect(french.body.message).toBe('Vous ne pouvez pas réserver une annonce de votre propre agence');
    const outsider = await aUser();
    expect((await post('/v1/api/bookings', bookingInput(tripB.id, category.id, 1), { token: outsider.token })).status).toBe(201);
  });
});

describe('publishing rule (pure)', () => {
  const base: StaffScope = { agencyId: 1, branchId: 2, role: 'ROLE_AGENCY_EMPLOYEE', branchActive: true, agencySuspended: false };
  it.each([
    [base, null],
    [{ ...base, branchActive: false }, 'Your branch is deactivated: it cannot publish announcements'],
    [{ ...base, agencySuspended: true }, 'Your agency is suspended: it cannot publish announcements'],
    [{ ...base, role: 'ROLE_AGENCY_OWNER', branchId: null, agencySuspended: true } as StaffScope, 'Your agency is suspended: it cannot publish announcements'],
  ])('%j -> %s', (scope, expected) => expect(publishRefusal(scope)).toBe(expected));
});

describe('documents', () => {
  const uploadDocument = (agencyId: number, token: string, file: File, documentType: string | null = 'BUSINESS_REGISTRATION', headers?: Record<string, string>) => {
    const form = new FormData();
    form.append('file', file);
    if (documentType !== null) form.append('documentType', documentType);
    return call('POST', `/v1/api/agencies/${agencyId}/documents`, { raw: form, token, headers });
  };
  const kbis = () => new File([new TextEncoder().encode('%PDF-1.4\nregistration')], 'kbis.pdf', { type: 'application/pdf' });

  /** An agency with one uploaded registration document. */
  async function agencyWithDocument() {
    const agency = await agencyWithBranches();
    const up = await uploadDocument(agency.id, agency.owner.token, kbis());
    expect(up.status).toBe(201);
    return { ...agency, document: up.body };
  }

  it('the owner uploads an agency document with its type; it waits for review', async () => {
    const { id, owner, document } = await agencyWithDocument();
    expect(document).toEqual({
      id: expect.any(Number),
      purpose: 'AGENCY_DOCUMENT',
      contentType: 'application/pdf',
      size: 21,
      originalName: 'kbis.pdf',
      reservationId: null,
      agencyId: id,
      url: `/v1/api/files/${document.id}`,
      createdAt: expect.any(String),
      documentType: 'BUSINESS_REGISTRATION',
      status: 'PENDING',
      rejectionReason: null,
      reviewedAt: null,
    });
    expect((await get(document.url, { token: owner.token })).status).toBe(200);
  });

  it('an upload without a known document type is 400 VALIDATION_ERROR and stores nothing', async () => {
    const { owner, id } = await agencyWithBranches();
    const missing = await uploadDocument(id, owner.token, kbis(), null);
    expect(missing.status).toBe(400);
    expect(errorBody(missing)).toEqual({
      status: 400,
      errorCode: 'VALIDATION_ERROR',
      message: 'Validation failed for form: documentType',
      path: `/v1/api/agencies/${id}/documents`,
      suggestions: ['Correct the fields listed and try again'],
      fieldErrors: [{ field: 'documentType', message: expect.any(String), rejectedValue: null }],
    });
    const unknown = await uploadDocument(id, owner.token, kbis(), 'SELFIE');
    expect(unknown.status).toBe(400);
    expect(unknown.body.fieldErrors).toEqual([{ field: 'documentType', message: expect.any(String), rejectedValue: 'SELFIE' }]);
    expect((await get(`/v1/api/agencies/${id}/documents`, { token: owner.token })).body.page.totalElements).toBe(0);
  });

  it('a document may be bigger than the 1 MiB JSON limit', async () => {
    const { owner, id } = await agencyWithBranches();
    const scan = new Uint8Array(3 * 1024 * 1024);
    scan.set([0xff, 0xd8, 0xff, 0xe0]);
    const bigUp = await uploadDocument(id, owner.token, new File([scan], 'scan.jpg', { type: 'image/jpeg' }), 'OWNER_IDENTITY');
    expect(bigUp.status).toBe(201);
    expect(bigUp.body).toMatchObject({ contentType: 'image/jpeg', size: scan.length, documentType: 'OWNER_IDENTITY' });
  });

  it('a stranger cannot upload an agency document: 403', async () => {
    const { id } = await agencyWithBranches();
    const stranger = await aUser();
    expect((await uploadDocument(id, stranger.token, new File([new TextEncoder().encode('%PDF-1.4\n')], 'x.pdf'))).status).toBe(403);
  });

  it('the owner and admins list the agency documents as a page, newest first, with type and review status', async () => {
    const { owner, id, document } = await agencyWithDocument();
    const second = await uploadDocument(id, owner.token, kbis(), 'INSURANCE');
    const admin = await anAdmin();
    for (const token of [admin.token, owner.token]) {
      const list = await get(`/v1/api/agencies/${id}/documents`, { token });
      expect(list.status).toBe(200);
      expect(list.body.page).toEqual({ number: 0, size: 20, totalElements: 2, totalPages: 1 });
      expect(list.body.content.map((f: { id: number; documentType: string; status: string }) => [f.id, f.documentType, f.status])).toEqual([
        [second.body.id, 'INSURANCE', 'PENDING'],
        [document.id, 'BUSINESS_REGISTRATION', 'PENDING'],
      ]);
    }
    const oldestFirst = await get(`/v1/api/agencies/${id}/documents?sort=createdAt,asc&size=1`, { token: owner.token });
    expect(oldestFirst.body.content.map((f: { id: number }) => f.id)).toEqual([document.id]);
    expect(oldestFirst.body.page).toEqual({ number: 0, size: 1, totalElements: 2, totalPages: 2 });
  });

  it('migration 0013 gives documents uploaded before it the type OTHER and the status PENDING', async () => {
    const { owner, id } = await agencyWithBranches();
    const legacy = await aFile(owner, { purpose: 'AGENCY_DOCUMENT', agencyId: id, contentType: 'application/pdf', createdAt: '2020-01-01T00:00:00.000Z' });
    expect((await get(`/v1/api/agencies/${id}/documents`, { token: owner.token })).body.content).toEqual([]);
    const migration = env.TEST_MIGRATIONS.find((m) => m.name.startsWith('0013_'))!;
    const dataStep = migration.queries.find((q) => q.includes('INSERT INTO'))!;
    await env.DB.prepare(dataStep).run();
    const list = await get(`/v1/api/agencies/${id}/documents`, { token: owner.token });
    expect(list.body.content).toEqual([
      expect.objectContaining({ id: legacy.id, documentType: 'OTHER', status: 'PENDING', rejectionReason: null, reviewedAt: null, createdAt: '2020-01-01T00:00:00.000Z' }),
    ]);
  });

  it('a stranger can neither list the agency documents nor read one: 403', async () => {
    const { id, document } = await agencyWithDocument();
    const stranger = await aUser();
    expect((await get(`/v1/api/agencies/${id}/documents`, { token: stranger.token })).status).toBe(403);
    expect((await get(`/v1/api/files/${document.id}`, { token: stranger.token })).status).toBe(403);
  });
});

describe('agency document review', () => {
  const uploadDocument = (agencyId: number, token: string) => {
    const form = new FormData();
    form.append('file', new File([new TextEncoder().encode('%PDF-1.4\nlicence')], 'licence.pdf', { type: 'application/pdf' }));
    form.append('documentType', 'TRANSPORT_LICENSE');
    return call('POST', `/v1/api/agencies/${agencyId}/documents`, { raw: form, token });
  };
  const auditEntries = (action: string, documentId: number) =>
    db.select().from(auditLogs).where(and(eq(auditLogs.action, action), eq(auditLogs.targetId, String(documentId))));

  async function pendingDocument() {
    const agency = await agencyWithBranches();
    const up = await uploadDocument(agency.id, agency.owner.token);
    expect(up.status).toBe(201);
    return { ...agency, documentId: up.body.id as number };
  }

  it('the super-admin queue lists pending documents of every agency', async () => {
    const first = await pendingDocument();
    const second = await pendingDocument();
    const root = await aSuperAdmin();
    const queue = await get('/v1/api/superadmin/agency-documents?status=PENDING&size=100', { token: root.token });
    expect(queue.status).toBe(200);
    const ids = queue.body.content.map((d: { id: number }) => d.id);
    expect(ids).toEqual(expect.arrayContaining([first.documentId, second.documentId]));
    expect(ids.indexOf(second.documentId)).toBeLessThan(ids.indexOf(first.documentId));
    expect(queue.body.content.every((d: { status: string }) => d.status === 'PENDING')).toBe(true);
    expect(queue.body.content.find((d: { id: number }) => d.id === first.documentId)).toMatchObject({
      agencyId: first.id,
      documentType: 'TRANSPORT_LICENSE',
      status: 'PENDING',
    });
    const one = await get(`/v1/api/superadmin/agency-documents/${first.documentId}`, { token: root.token });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: first.documentId, agencyId: first.id, status: 'PENDING', reviewedAt: null });
    expect((await get('/v1/api/superadmin/agency-documents?status=MAYBE', { token: root.token })).status).toBe(400);
  });

  it('a super-admin approves a document: VERIFIED, the owner notified, audited with the client IP', async () => {
    const { owner, id, documentId } = await pendingDocument();
    const root = await aSuperAdmin();
    const ip = { 'CF-Connecting-IP': '198.51.100.31' };
    const res = await post(`/v1/api/superadmin/agency-documents/${documentId}/approve`, undefined, { token: root.token, headers: ip });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: documentId, agencyId: id, documentType: 'TRANSPORT_LICENSE', status: 'VERIFIED', rejectionReason: null, reviewedAt: expect.any(String) });

    const listed = await get(`/v1/api/agencies/${id}/documents`, { token: owner.token });
    expect(listed.body.content[0]).toMatchObject({ id: documentId, status: 'VERIFIED' });
    const notes = await db.select().from(notifications).where(eq(notifications.userId, owner.id));
    expect(notes.map((n) => [n.type, n.data])).toEqual([
      ['AGENCY_DOCUMENT_APPROVED', { agencyId: id, documentId, documentType: 'TRANSPORT_LICENSE', status: 'VERIFIED' }],
    ]);
    expect(await auditEntries('AGENCY_DOCUMENT_APPROVED', documentId)).toEqual([
      expect.objectContaining({
        actorId: root.id,
        targetType: 'AGENCY_DOCUMENT',
        ip: '198.51.100.31',
        details: { agencyId: id, documentType: 'TRANSPORT_LICENSE', from: 'PENDING', to: 'VERIFIED' },
      }),
    ]);
    const pending = await get('/v1/api/superadmin/agency-documents?status=PENDING&size=100', { token: root.token });
    expect(pending.body.content.map((d: { id: number }) => d.id)).not.toContain(documentId);
  });

  it('a super-admin rejects a document with a reason: NOT_VERIFIED, the owner told why, audited with the client IP', async () => {
    const { owner, id, documentId } = await pendingDocument();
    const root = await aSuperAdmin();
    const ip = { 'CF-Connecting-IP': '2001:db8::31' };
    const res = await post(`/v1/api/superadmin/agency-documents/${documentId}/reject`, { reason: 'Expired licence' }, { token: root.token, headers: ip });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: documentId, status: 'NOT_VERIFIED', rejectionReason: 'Expired licence', reviewedAt: expect.any(String) });
    const [note] = await db.select().from(notifications).where(eq(notifications.userId, owner.id));
    expect(note).toMatchObject({ type: 'AGENCY_DOCUMENT_REJECTED', message: expect.stringContaining('Reason: Expired licence') });
    expect(await auditEntries('AGENCY_DOCUMENT_REJECTED', documentId)).toEqual([
      expect.objectContaining({ actorId: root.id, ip: '2001:db8::31', details: { agencyId: id, documentType: 'TRANSPORT_LICENSE', from: 'PENDING', to: 'NOT_VERIFIED', reason: 'Expired licence' } }),
    ]);
    // Like a user's KYC record, a verdict may be overturned: approving now clears the reason.
    const approved = await post(`/v1/api/superadmin/agency-documents/${documentId}/approve`, undefined, { token: root.token });
    expect(approved.body).toMatchObject({ status: 'VERIFIED', rejectionReason: null });
  });

  it('the same decision twice is 409 INVALID_STATE and changes, notifies and audits nothing more', async () => {
    const { owner, documentId } = await pendingDocument();
    const root = await aSuperAdmin();
    expect((await post(`/v1/api/superadmin/agency-documents/${documentId}/approve`, undefined, { token: root.token })).status).toBe(200);
    const again = await post(`/v1/api/superadmin/agency-documents/${documentId}/approve`, undefined, { token: root.token });
    expect(again.status).toBe(409);
    expect(errorBody(again)).toEqual({
      status: 409,
      errorCode: 'INVALID_STATE',
      reason: 'KYC_ALREADY_VERIFIED',
      message: 'This document is already verified',
      path: `/v1/api/superadmin/agency-documents/${documentId}/approve`,
      suggestions: [],
    });
    expect((await post(`/v1/api/superadmin/agency-documents/${documentId}/reject`, { reason: 'No' }, { token: root.token })).status).toBe(200);
    const rejectedTwice = await post(`/v1/api/superadmin/agency-documents/${documentId}/reject`, { reason: 'Still no' }, { token: root.token });
    expect(rejectedTwice.status).toBe(409);
    expect(rejectedTwice.body.message).toBe('This document is already rejected');
    const notes = await db.select().from(notifications).where(eq(notifications.userId, owner.id));
    expect(notes.map((n) => n.type)).toEqual(['AGENCY_DOCUMENT_APPROVED', 'AGENCY_DOCUMENT_REJECTED']);
    expect(await auditEntries('AGENCY_DOCUMENT_APPROVED', documentId)).toHaveLength(1);
    expect(await auditEntries('AGENCY_DOCUMENT_REJECTED', documentId)).toHaveLength(1);
  });

  it('a rejection without a reason is 400 VALIDATION_ERROR', async () => {
    const { documentId } = await pendingDocument();
    const root = await aSuperAdmin();
    for (const body of [{}, { reason: '   ' }]) {
      const res = await post(`/v1/api/superadmin/agency-documents/${documentId}/reject`, body, { token: root.token });
      expect(res.status).toBe(400);
      expect(errorBody(res)).toEqual({
        status: 400,
        errorCode: 'VALIDATION_ERROR',
        message: 'Validation failed for body: reason',
        path: `/v1/api/superadmin/agency-documents/${documentId}/reject`,
        suggestions: ['Correct the fields listed and try again'],
        fieldErrors: [{ field: 'reason', message: expect.any(String), rejectedValue: body.reason ?? null }],
      });
    }
    expect((await get(`/v1/api/superadmin/agency-documents/${documentId}`, { token: root.token })).body.status).toBe('PENDING');
  });

  it('owners, admins and other users cannot review or see the queue: 403 ACCESS_DENIED', async () => {
    const { owner, documentId } = await pendingDocument();
    const admin = await anAdmin();
    for (const token of [owner.token, admin.token]) {
      const res = await post(`/v1/api/superadmin/agency-documents/${documentId}/approve`, undefined, { token });
      expect(res.status).toBe(403);
      expect(errorBody(res)).toEqual({
        status: 403,
        errorCode: 'ACCESS_DENIED',
        message: 'Requires one of: ROLE_SUPERADMIN',
        path: `/v1/api/superadmin/agency-documents/${documentId}/approve`,
        suggestions: [],
      });
      expect((await post(`/v1/api/superadmin/agency-documents/${documentId}/reject`, { reason: 'x' }, { token })).status).toBe(403);
      expect((await get('/v1/api/superadmin/agency-documents', { token })).status).toBe(403);
    }
    const root = await aSuperAdmin();
    expect((await get(`/v1/api/superadmin/agency-documents/${documentId}`, { token: root.token })).body.status).toBe('PENDING');
  });

  it('an unknown document is 404 RESOURCE_NOT_FOUND', async () => {
    const root = await aSuperAdmin();
    const res = await post('/v1/api/superadmin/agency-documents/999999/approve', undefined, { token: root.token });
    expect(errorBody(res)).toEqual({
      status: 404,
      errorCode: 'RESOURCE_NOT_FOUND',
      message: 'Agency document 999999 not found',
      path: '/v1/api/superadmin/agency-documents/999999/approve',
      suggestions: [],
    });
  });
});

describe('super-admin suspension', () => {
  it('suspension hides the agency trips and stops its staff publishing; activation restores both', async () => {
    const { owner, id, branchA } = await agencyWithBranches();
    const employee = await hire(owner, id, branchA);
    const trip = await aTrip(employee, { agencyId: id, branchId: branchA });
    const superAdmin = await aSuperAdmin();
    expect(await visibleTripIds(id)).toEqual([trip.id]);

    const suspended = await post(`/v1/api/superadmin/agencies/${id}/suspend`, { reason: 'Unpaid fees' }, { token: superAdmin.token });
    expect(suspended.status).toBe(200);
    expect(suspended.body).toMatchObject({ id, status: 'SUSPENDED', suspensionReason: 'Unpaid fees', suspendedAt: expect.any(String) });
    expect(await visibleTripIds(id)).toEqual([]);
    expect(await isAgencyVisible(deps, id)).toBe(false);
    const scope = (await staffScope(deps, employee.id))!;
    expect(scope.agencySuspended).toBe(true);
    await expect(assertStaffCanPublish(deps, scope)).rejects.toMatchObject({ errorCode: 'BUSINESS_RULE_VIOLATION' });

    const twice = await post(`/v1/api/superadmin/agencies/${id}/suspend`, { reason: 'Again' }, { token: superAdmin.token });
    expect(twice.status).toBe(409);
    const listed = await get('/v1/api/superadmin/agencies?status=SUSPENDED&size=100', { token: superAdmin.token });
    expect(listed.body.content.map((a: { id: number }) => a.id)).toContain(id);
    expect(listed.body.content.every((a: { status: string }) => a.status === 'SUSPENDED')).toBe(true);

    const activated = await post(`/v1/api/superadmin/agencies/${id}/activate`, undefined, { token: superAdmin.token });
    expect(activated.status).toBe(200);
    expect(activated.body).toMatchObject({ status: 'ACTIVE', suspensionReason: null, suspendedAt: null });
    expect(await visibleTripIds(id)).toEqual([trip.id]);
    expect(await isAgencyVisible(deps, null)).toBe(true);
    const notes = await db.select().from(notifications).where(eq(notifications.userId, owner.id));
    expect(notes.map((n) => n.type)).toEqual(['AGENCY_SUSPENDED', 'AGENCY_ACTIVATED']);
  });

  it('an agency owner or an admin cannot suspend, nor list agencies: 403', async () => {
    const { owner, id } = await agencyWithBranches();
    const admin = await anAdmin();
    expect((await post(`/v1/api/superadmin/agencies/${id}/suspend`, { reason: 'x' }, { token: owner.token })).status).toBe(403);
    expect((await post(`/v1/api/superadmin/agencies/${id}/suspend`, { reason: 'x' }, { token: admin.token })).status).toBe(403);
    expect((await get('/v1/api/superadmin/agencies', { token: admin.token })).status).toBe(403);
  });

  it('a suspension needs a reason: 400', async () => {
    const { id } = await agencyWithBranches();
    const superAdmin = await aSuperAdmin();
    const noReason = await post(`/v1/api/superadmin/agencies/${id}/suspend`, {}, { token: superAdmin.token });
    expect(noReason.status).toBe(400);
    expect(noReason.body.fieldErrors[0].field).toBe('reason');
  });

  it('activating an unknown agency is 404 RESOURCE_NOT_FOUND', async () => {
    const superAdmin = await aSuperAdmin();
    const missing = await post('/v1/api/superadmin/agencies/999999/activate', undefined, { token: superAdmin.token });
    expect(errorBody(missing)).toMatchObject({ status: 404, errorCode: 'RESOURCE_NOT_FOUND', message: 'Agency 999999 not found' });
  });

  it('a super-admin lists the agencies, sorted', async () => {
    await agencyWithBranches();
    const superAdmin = await aSuperAdmin();
    const page = await get('/v1/api/superadmin/agencies?sort=name,asc', { token: superAdmin.token });
    expect(page.status).toBe(200);
    expect(page.body.page.totalElements).toBeGreaterThan(0);
  });
});

describe('invitations by address (CONTRACT 25)', () => {
  const invite = (owner: TestUser, id: number, email: string, branchId: number) => post(`/v1/api/agencies/${id}/employees`, { email, branchId }, { token: owner.token });

  it('answers the same whether or not the address has an account; an address without one is asked to sign up and the invitation waits 14 days', async () => {
    const { owner, id, branchA } = await agencyWithBranches();
    const member = await aUser();
    const address = `Fatou.Sow-${crypto.randomUUID().slice(0, 8)}@Example.sn`;
    const known = await invite(owner, id, member.email, branchA);
    const unknown = await invite(owner, id, address, branchA);
    expect([known.status, unknown.status]).toEqual([201, 201]);
    expect(Object.keys(unknown.body).sort()).toEqual(Object.keys(known.body).sort());
    expect(unknown.body).toMatchObject({ email: address.toLowerCase(), branchId: branchA, status: 'INVITED' });

    const [row] = await db.select().from(agencyInvitations).where(eq(agencyInvitations.id, unknown.body.invitationId));
    expect(row.userId).toBeNull();
    const days = (Date.parse(row.expiresAt) - Date.parse(row.createdAt)) / 86_400_000;
    expect(days).toBeCloseTo(14, 5);
    const mails = await db.select().from(deliveries).where(and(eq(deliveries.to, address.toLowerCase()), eq(deliveries.template, 'AGENCY_INVITATION_SIGN_UP')));
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ channel: 'EMAIL', userId: null });
    expect(mails[0].payload).toMatchObject({ agencyName: 'Sahel Express', email: address.toLowerCase() });

    // Inviting again renews the same invitation: one pending per agency and address.
    const again = await invite(owner, id, address.toUpperCase(), branchA);
    expect([again.status, again.body.invitationId]).toEqual([201, unknown.body.invitationId]);
  });

  it('the account later signed up with that address, once verified, finds and accepts it; unverified, it neither sees nor answers it', async () => {
    const { owner, id, branchA } = await agencyWithBranches();
    const address = `moussa-${crypto.randomUUID().slice(0, 8)}@example.sn`;
    const { body: invitation } = await invite(owner, id, address, branchA);
    const newcomer = await aUser({ email: address });
    await db.update(users).set({ emailVerified: false }).where(eq(users.id, newcomer.id));
    expect((await get('/v1/api/agency-invitations', { token: newcomer.token })).body.content).toEqual([]);
    const refused = await post(`/v1/api/agency-invitations/${invitation.invitationId}/accept`, undefined, { token: newcomer.token });
    expect(refused.status).toBe(403);
    expect(refused.body.errorCode).toBe('ACCESS_DENIED');

    await db.update(users).set({ emailVerified: true }).where(eq(users.id, newcomer.id));
    const listed = await get('/v1/api/agency-invitations', { token: newcomer.token });
    expect(listed.body.content.map((i: { id: number }) => i.id)).toEqual([invitation.invitationId]);
    const accepted = await post(`/v1/api/agency-invitations/${invitation.invitationId}/accept`, undefined, { token: newcomer.token });
    expect(accepted.status).toBe(200);
    const [employee] = await db.select().from(agencyEmployees).where(eq(agencyEmployees.userId, newcomer.id));
    expect(employee).toMatchObject({ agencyId: id, branchId: branchA });
    // A stranger never answers it.
    const stranger = await aUser();
    expect((await post(`/v1/api/agency-invitations/${invitation.invitationId}/decline`, undefined, { token: stranger.token })).status).toBe(403);
  });

  it('an account whose e-mail was never verified cannot accept an invitation addressed to it (403, the reason said)', async () => {
    const { owner, id, branchA } = await agencyWithBranches();
    const user = await aUser();
    await db.update(users).set({ emailVerified: false }).where(eq(users.id, user.id));
    const { body: invitation } = await invite(owner, id, user.email, branchA);
    const res = await post(`/v1/api/agency-invitations/${invitation.invitationId}/accept`, undefined, { token: user.token });
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/^Confirm your e-mail address before answering an agency invitation/);
    expect(await db.select().from(agencyEmployees).where(eq(agencyEmployees.userId, user.id))).toEqual([]);
  });
});
