// KYC: sessions, the signed provider callback (applied once, refused when tampered, stale or
// wrongly signed), the super-admin queue and decisions, roles and tokens following the status.
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { database } from '../src/db/client';
import { kycRecords, notifications, users } from '../src/db/schema';
import { providerEventIgnored, reviewRefusalText, type ReviewDecision } from '../src/features/kyc/kyc.rules';
import { english } from '../src/errors';
import { signCallback } from '../src/providers/kyc';
import { call, errorBody, get, post } from './helpers/http';
import { aUser, tokenFor, aCarrier, aSuperAdmin } from './helpers/factories';

const WEBHOOK = '/v1/api/webhooks/kyc-provider/status-update';
const db = database(env.DB);

/** The body a provider sends: a JSON string holding the event. */
const eventBody = (event: Record<string, unknown>) => JSON.stringify(JSON.stringify(event));

async function sendCallback(raw: string, opts: { secret?: string; at?: number; tamper?: (raw: string) => string } = {}) {
  const headers = await signCallback(opts.secret ?? env.KYC_WEBHOOK_SECRET, raw, opts.at);
  const sent = opts.tamper ? opts.tamper(raw) : raw;
  return call('POST', WEBHOOK, { raw: sent, headers: { ...headers, 'Content-Type': 'application/json' } });
}

async function startedUser() {
  const user = await aUser();
  const res = await post('/v1/api/kyc/sessions', undefined, { token: user.token });
  expect(res.status).toBe(201);
  const [record] = await db.select().from(kycRecords).where(eq(kycRecords.id, res.body.id));
  return { user, session: res.body, record };
}

const userRow = async (id: number) => (await db.select().from(users).where(eq(users.id, id)))[0];

describe('KYC session', () => {
  it('starts a PENDING record with a session token and the provider page URL; the user is PENDING', async () => {
    const { user, session, record } = await startedUser();
    expect(session).toMatchObject({ status: 'PENDING', kycSessionToken: expect.stringMatching(/^sbxtok_/) });
    expect(session.kycSessionUrl).toBe(`${env.PUBLIC_BASE_URL}/sandbox/kyc/${record.sessionId}`);
    expect((await userRow(user.id)).kycStatus).toBe('PENDING');
  });

  it('the owner reads the status with the session token (GET /kyc/status)', async () => {
    const { user, session } = await startedUser();
    const status = await get('/v1/api/kyc/status', { token: user.token });
    expect(status.status).toBe(200);
    expect(status.body.status).toBe('PENDING');
    expect(status.body.record.kycSessionToken).toBe(session.kycSessionToken);
  });

  it('starting again while the session is open resumes it', async () => {
    const { user, session } = await startedUser();
    const again = await post('/v1/api/kyc/sessions', undefined, { token: user.token });
    expect(again.body.id).toBe(session.id);
  });

  it('a super-admin reads the record without the session token', async () => {
    const { user, session } = await startedUser();
    const admin = await aSuperAdmin();
    const detail = await get(`/v1/api/superadmin/kyc/${session.id}`, { token: admin.token });
    expect(detail.status).toBe(200);
    expect(detail.body.kycSessionToken).toBeNull();
    expect(detail.body.userId).toBe(user.id);
  });

  it('requires authentication', async () => {
    const res = await post('/v1/api/kyc/sessions');
    expect(res.status).toBe(401);
    expect(res.body.errorCode).toBe('UNAUTHORIZED');
  });

  it('a record under review cannot be replaced by a new session', async () => {
    const { user, record } = await startedUser();
    await sendCallback(eventBody({ eventId: `evt-${record.id}-review`, sessionId: record.sessionId, status: 'REVIEW' }));
    const res = await post('/v1/api/kyc/sessions', undefined, { token: user.token });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('Your verification is under review: wait for its result');
  });

  it('a verified user cannot start another session', async () => {
    const carrier = await aCarrier();
    const res = await post('/v1/api/kyc/sessions', undefined, { token: carrier.token });
    expect(res.status).toBe(409);
    expect(res.body.errorCode).toBe('INVALID_STATE');
  });
});

describe('provider callback', () => {
  it('a valid callback verifies the user, grants ROLE_VERIFIED_USER and notifies', async () => {
    const { user, record } = await startedUser();
    const raw = eventBody({ eventId: `evt-${record.id}-ok`, sessionId: record.sessionId, status: 'APPROVED', documentType: 'PASSPORT' });
    const res = await sendCallback(raw);
    expect(res.status).toBe(200);
    expect(res.body).toBe('APPLIED');
    const [after] = await db.select().from(kycRecords).where(eq(kycRecords.id, record.id));
    expect(after).toMatchObject({ status: 'VERIFIED', documentType: 'PASSPORT', providerStatus: 'APPROVED', kycSessionToken: null });
    expect(after.reviewedAt).not.toBeNull();
    const row = await userRow(user.id);
    expect(row.kycStatus).toBe('VERIFIED');
    expect(row.roles).toEqual(['ROLE_CLIENT', 'ROLE_VERIFIED_USER']);
    const notes = await db.select().from(notifications).where(eq(notifications.userId, user.id));
    expect(notes.map((n) => n.type)).toEqual(['KYC_APPROVED']);
  });

  it('accepts the event object itself, not only a JSON string', async () => {
    const { user, record } = await startedUser();
    const res = await sendCallback(JSON.stringify({ eventId: `evt-${record.id}-obj`, sessionId: record.sessionId, status: 'REJECTED', reason: 'Blurry' }));
    expect(res.body).toBe('APPLIED');
    expect((await userRow(user.id)).kycStatus).toBe('NOT_VERIFIED');
    const [after] = await db.select().from(kycRecords).where(eq(kycRecords.id, record.id));
    expect(after.rejectionReason).toBe('Blurry');
  });

  it('a replayed event is applied once', async () => {
    const { user, record } = await startedUser();
    const raw = eventBody({ eventId: `evt-${record.id}-replay`, sessionId: record.sessionId, status: 'APPROVED' });
    const [first, second] = await Promise.all([sendCallback(raw), sendCallback(raw)]);
    expect([first.body, second.body].sort()).toEqual(['ALREADY_PROCESSED', 'APPLIED']);
    const third = await sendCallback(raw);
    expect(third.body).toBe('ALREADY_PROCESSED');
    const notes = await db.select().from(notifications).where(eq(notifications.userId, user.id));
    expect(notes).toHaveLength(1);
    expect((await userRow(user.id)).roles).toEqual(['ROLE_CLIENT', 'ROLE_VERIFIED_USER']);
  });

  it('refuses a tampered body, a wrong secret, a stale timestamp and a missing signature', async () => {
    const { user, record } = await startedUser();
    const raw = eventBody({ eventId: `evt-${record.id}-bad`, sessionId: record.sessionId, status: 'APPROVED' });
    const tampered = await sendCallback(raw, { tamper: (r) => r.replace('APPROVED', 'APPROVED ') });
    const wrongSecret = await sendCallback(raw, { secret: 'not-the-secret' });
    const stale = await sendCallback(raw, { at: Math.floor(Date.now() / 1000) - 301 });
    // Dated 10 minutes ahead: refused like a stale one (CONTRACT section 19).
    const ahead = await sendCallback(raw, { at: Math.floor(Date.now() / 1000) + 600 });
    const unsigned = await call('POST', WEBHOOK, { raw, headers: { 'Content-Type': 'application/json' } });
    for (const res of [tampered, wrongSecret, stale, ahead, unsigned]) {
      expect(res.status).toBe(401);
      expect(errorBody(res)).toMatchObject({ status: 401, errorCode: 'UNAUTHORIZED', path: WEBHOOK });
    }
    expect(errorBody(stale).message).toBe('Callback timestamp outside the tolerance');
    expect(errorBody(ahead).message).toBe('Callback timestamp outside the tolerance');
    expect((await userRow(user.id)).kycStatus).toBe('PENDING');
    // The same event, correctly signed, still applies: refused attempts did not consume it.
    expect((await sendCallback(raw)).body).toBe('APPLIED');
  });

  it('a late older event and a review after a verdict change nothing', async () => {
    const { user, record } = await startedUser();
    const t = (s: number) => new Date(Date.UTC(2026, 0, 1, 12, 0, s)).toISOString();
    const send = (id: string, status: string, occurredAt: string) =>
      sendCallback(eventBody({ eventId: `evt-${record.id}-${id}`, sessionId: record.sessionId, status, occurredAt }));
    expect((await send('approved', 'APPROVED', t(30))).body).toBe('APPLIED');
    expect((await send('older-reject', 'REJECTED', t(10))).body).toBe('IGNORED');
    expect((await send('review', 'REVIEW', t(40))).body).toBe('IGNORED');
    expect((await userRow(user.id)).kycStatus).toBe('VERIFIED');
    // A newer revocation does apply: the role goes away.
    expect((await send('revoked', 'REVOKED', t(50))).body).toBe('APPLIED');
    const row = await userRow(user.id);
    expect(row.kycStatus).toBe('NOT_VERIFIED');
    expect(row.roles).toEqual(['ROLE_CLIENT']);
  });

  it('a well-signed but malformed payload is 400', async () => {
    const res = await sendCallback(eventBody({ eventId: 'x', sessionId: 'y', status: 'MAYBE' }));
    expect(res.status).toBe(400);
    expect(res.body.errorCode).toBe('VALIDATION_ERROR');
    expect(res.body.fieldErrors[0]).toMatchObject({ field: 'status', rejectedValue: 'MAYBE' });
    const notJson = await sendCallback('{not json');
    expect(notJson.status).toBe(400);
    expect(notJson.body.errorCode).toBe('INVALID_ARGUMENT');
  });

  it('is public in the OpenAPI document', async () => {
    const doc = (await get('/v1/api/openapi.json')).body;
    expect(doc.paths['/v1/api/webhooks/kyc-provider/status-update'].post.security).toEqual([]);
  });
});

describe('which provider events apply (pure)', () => {
  const open = { status: 'PENDING' as const, reviewedBy: null, providerEventAt: null };
  const decided = { status: 'VERIFIED' as const, reviewedBy: null, providerEventAt: '2026-01-01T12:00:30.000Z' };
  it.each([
    [open, { status: 'APPROVED' as const }, null],
    [open, { status: 'REVIEW' as const }, null],
    [{ ...open, reviewedBy: 7 }, { status: 'APPROVED' as const }, 'DECIDED_BY_ADMIN'],
    [decided, { status: 'REJECTED' as const, occurredAt: '2026-01-01T12:00:10Z' }, 'STALE'],
    [decided, { status: 'REJECTED' as const, occurredAt: '2026-01-01T12:00:30Z' }, 'STALE'],
    [decided, { status: 'REVOKED' as const, occurredAt: '2026-01-01T12:01:00Z' }, null],
    [decided, { status: 'REVIEW' as const }, 'ALREADY_DECIDED'],
    [decided, { status: 'REJECTED' as const }, null],
  ])('%j + %j -> %s', (record, event, expected) => expect(providerEventIgnored(record, event)).toBe(expected));
});

describe('super-admin review rule (pure, shared with agency documents)', () => {
  it.each([
    ['PENDING', 'APPROVE', null],
    ['NOT_VERIFIED', 'APPROVE', null],
    ['VERIFIED', 'APPROVE', 'This record is already verified'],
    ['PENDING', 'REJECT', null],
    ['VERIFIED', 'REJECT', null],
    ['NOT_VERIFIED', 'REJECT', 'This record is already rejected'],
  ] as const)('%s + %s -> %s', (status, decision: ReviewDecision, expected) => {
    const refusal = reviewRefusalText('This record', status, decision);
    expect(refusal && english(refusal)).toBe(expected);
  });
});

describe('super-admin review', () => {
  it('approving an unknown id gives the exact 404 body', async () => {
    const admin = await aSuperAdmin();
    const res = await post('/v1/api/superadmin/kyc/999999/approve', undefined, { token: admin.token });
    expect(res.status).toBe(404);
    expect(errorBody(res)).toEqual({
      status: 404,
      errorCode: 'RESOURCE_NOT_FOUND',
      message: 'KYC record 999999 not found',
      path: '/v1/api/superadmin/kyc/999999/approve',
      suggestions: [],
    });
  });

  it('approve returns the KYC record of the specification', async () => {
    const { user, record } = await startedUser();
    const admin = await aSuperAdmin();
    const res = await post(`/v1/api/superadmin/kyc/${record.id}/approve`, undefined, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: record.id,
      status: 'VERIFIED',
      documentType: null,
      userId: user.id,
      rejectionReason: null,
      submittedAt: record.submittedAt,
      reviewedAt: expect.any(String),
      externalUserId: `user-${user.id}`,
      kycSessionUrl: record.kycSessionUrl,
      kycSessionToken: null,
      tokenExpiry: record.tokenExpiry,
    });
    expect((await userRow(user.id)).roles).toContain('ROLE_VERIFIED_USER');
    // A later provider verdict does not override the human decision.
    const raw = eventBody({ eventId: `evt-${record.id}-late`, sessionId: record.sessionId, status: 'REJECTED' });
    expect((await sendCallback(raw)).body).toBe('IGNORED');
    expect((await userRow(user.id)).kycStatus).toBe('VERIFIED');
  });

  it('rejecting a verified record revokes the role and the user\'s tokens', async () => {
    const { user, record } = await startedUser();
    const admin = await aSuperAdmin();
    await post(`/v1/api/superadmin/kyc/${record.id}/approve`, undefined, { token: admin.token });
    const oldToken = await tokenFor(user.id, ['ROLE_CLIENT', 'ROLE_VERIFIED_USER']);
    // Token cut-offs have a one-second granularity: the revocation must come in a later second.
    await new Promise((r) => setTimeout(r, 1100));
    const res = await post(`/v1/api/superadmin/kyc/${record.id}/reject`, { reason: 'Forged document' }, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'NOT_VERIFIED', rejectionReason: 'Forged document', kycSessionToken: null });
    const row = await userRow(user.id);
    expect(row.roles).toEqual(['ROLE_CLIENT']);
    expect(row.kycStatus).toBe('NOT_VERIFIED');
    expect((await get('/v1/api/kyc/status', { token: oldToken })).status).toBe(401);
    const notes = await db.select().from(notifications).where(eq(notifications.userId, user.id));
    expect(notes.map((n) => n.type)).toEqual(['KYC_APPROVED', 'KYC_REVOKED']);
  });

  it('a rejection needs a reason: 400 VALIDATION_ERROR', async () => {
    const { record } = await startedUser();
    const admin = await aSuperAdmin();
    const noReason = await post(`/v1/api/superadmin/kyc/${record.id}/reject`, {}, { token: admin.token });
    expect(noReason.status).toBe(400);
    expect(noReason.body.errorCode).toBe('VALIDATION_ERROR');
  });

  it('the queue filters by status and hides session tokens', async () => {
    const { record } = await startedUser();
    const admin = await aSuperAdmin();
    const pending = await get('/v1/api/superadmin/kyc?status=PENDING&size=100', { token: admin.token });
    expect(pending.status).toBe(200);
    expect(pending.body.content.every((r: { status: string }) => r.status === 'PENDING')).toBe(true);
    expect(pending.body.content.map((r: { id: number }) => r.id)).toContain(record.id);
    expect(pending.body.content.every((r: { kycSessionToken: unknown }) => r.kycSessionToken === null)).toBe(true);
  });

  it('the queue is for super-admins only: 403', async () => {
    const user = await aUser();
    expect((await get('/v1/api/superadmin/kyc', { token: user.token })).status).toBe(403);
  });

  it('an unknown status filter is 400', async () => {
    const admin = await aSuperAdmin();
    expect((await get('/v1/api/superadmin/kyc?status=MAYBE', { token: admin.token })).status).toBe(400);
  });
});

describe('sandbox provider page', () => {
  it('shows Approve and Reject; Approve sends a signed callback that verifies the user', async () => {
    const { user, record } = await startedUser();
    const path = new URL(record.kycSessionUrl).pathname;
    const pageRes = await get(path);
    expect(pageRes.status).toBe(200);
    expect(pageRes.body).toContain('>Approve</button>');
    expect(pageRes.body).toContain('>Reject</button>');
    const done = await call('POST', `${path}/approve`);
    expect(done.status).toBe(200);
    expect(done.body).toContain('APPLIED');
    expect((await userRow(user.id)).kycStatus).toBe('VERIFIED');
    expect((await get('/sandbox/kyc/sbx_00000000000000000000000000000000')).status).toBe(404);
  });
});
