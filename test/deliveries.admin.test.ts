// The operators' deliveries (CONTRACT section 16): the list with masked addresses and its filters,
// the retry of a FAILED or DEAD delivery (QUEUED again, sent by the queue, audited), the refusals,
// and the masking rule itself, table-tested.
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLogs, deliveries, outboxMessages } from '../src/db/schema';
import { maskAddress } from '../src/features/deliveries/address-mask';
import { db as database } from './helpers/db';
import { aDeadDelivery, anAdmin, aSuperAdmin, aUser } from './helpers/factories';
import { errorBody, get, post } from './helpers/http';

const db = database();

const rowOf = async (id: number) => (await db.select().from(deliveries).where(eq(deliveries.id, id)))[0];

describe('masking an address', () => {
  it.each([
    ['EMAIL', 'jeanne@example.com', 'j***@example.com'],
    ['EMAIL', 'j@example.com', 'j***@example.com'],
    ['EMAIL', 'Jean.Dupont+tag@mail.example.fr', 'J***@mail.example.fr'],
    ['EMAIL', 'odd"local@part"@example.com', 'o***@example.com'],
    ['EMAIL', 'not-an-address', 'n***'],
    ['EMAIL', '', '***'],
    ['SMS', '+33612345678', '+33******78'],
    ['SMS', '+33 6 12 34 56 78', '+33******78'],
    ['SMS', '0033612345678', '+33******78'],
    ['SMS', '+221771234567', '+22******67'],
    ['SMS', '+1 (212) 555-1234', '+12******34'],
    ['SMS', '0612345678', '06******78'],
    ['SMS', '12345', '******'],
    ['PUSH', 'fcm-token-abcdefghijklmnopqrstuvwxyz-0123456789', 'fcm-******6789'],
    ['PUSH', 'short', '******'],
  ] as const)('%s %s → %s', (channel, to, masked) => {
    expect(maskAddress(channel, to)).toBe(masked);
  });

  it('never shows more than the first character of an e-mail local part, nor more than four digits of a number', () => {
    for (const email of ['alice@example.com', 'bob.marley@example.org', 'x@y.z']) expect(maskAddress('EMAIL', email).split('@')[0]).toBe(`${email[0]}***`);
    for (const phone of ['+33612345678', '+447911123456', '0612345678']) expect(maskAddress('SMS', phone).replace(/\D/g, '')).toHaveLength(4);
  });
});

describe('GET /superadmin/deliveries', () => {
  it('lists newest first with the address masked and without the payload (it may carry a single-use token)', async () => {
    const admin = await aSuperAdmin();
    const older = await aDeadDelivery({ createdAt: '2026-01-01T10:00:00.000Z' });
    const newer = await aDeadDelivery({ createdAt: '2026-01-02T10:00:00.000Z', status: 'FAILED', attempts: 1, lastError: 'Invalid To address' });
    const res = await get(`/v1/api/superadmin/deliveries?userId=${newer.userId}`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      content: [
        {
          id: newer.id,
          userId: newer.userId,
          channel: 'EMAIL',
          to: 'j***@example.com',
          template: 'EMAIL_VERIFICATION',
          locale: 'fr',
          status: 'FAILED',
          attempts: 1,
          lastError: 'Invalid To address',
          providerMessageId: null,
          createdAt: '2026-01-02T10:00:00.000Z',
          sentAt: null,
        },
      ],
      page: { number: 0, size: 20, totalElements: 1, totalPages: 1 },
    });
    expect(JSON.stringify(res.body)).not.toContain('secret-token-value');

    const both = await get(`/v1/api/superadmin/deliveries?template=EMAIL_VERIFICATION&size=100`, { token: admin.token });
    const ids = both.body.content.map((d: { id: number }) => d.id);
    expect(ids.indexOf(newer.id)).toBeLessThan(ids.indexOf(older.id));
  });

  it('filters by status, channel, template and user', async () => {
    const admin = await aSuperAdmin();
    const template = `KIND_${crypto.randomUUID().slice(0, 8).toUpperCase()}`;
    const dead = await aDeadDelivery({ template });
    const sms = await aDeadDelivery({ template, channel: 'SMS', to: '+33612345678', status: 'FAILED' });
    const sent = await aDeadDelivery({ template, status: 'SENT', attempts: 1, lastError: null, providerMessageId: 'sandbox-1', sentAt: new Date().toISOString() });
    const ids = async (query: string) => {
      const res = await get(`/v1/api/superadmin/deliveries?template=${template}${query}`, { token: admin.token });
      expect(res.status).toBe(200);
      return res.body.content.map((d: { id: number }) => d.id).sort((a: number, b: number) => a - b);
    };
    expect(await ids('')).toEqual([dead.id, sms.id, sent.id]);
    expect(await ids('&status=DEAD')).toEqual([dead.id]);
    expect(await ids('&status=SENT')).toEqual([sent.id]);
    expect(await ids('&channel=SMS')).toEqual([sms.id]);
    expect(await ids(`&userId=${sms.userId}`)).toEqual([sms.id]);
    const [one] = (await get(`/v1/api/superadmin/deliveries?template=${template}&channel=SMS`, { token: admin.token })).body.content;
    expect(one.to).toBe('+33******78');
  });

  it('bad filters get the specification error body; an administrator or a client is refused', async () => {
    const admin = await aSuperAdmin();
    const bad = await get('/v1/api/superadmin/deliveries?status=LOST', { token: admin.token });
    expect(bad.status).toBe(400);
    expect(errorBody(bad)).toMatchObject({ status: 400, errorCode: 'VALIDATION_ERROR', fieldErrors: [expect.objectContaining({ field: 'status', rejectedValue: 'LOST' })] });
    expect((await get('/v1/api/superadmin/deliveries?userId=abc', { token: admin.token })).status).toBe(400);
    expect((await get('/v1/api/superadmin/deliveries?sort=to,asc', { token: admin.token })).status).toBe(400);
    expect((await get('/v1/api/superadmin/deliveries', { token: (await anAdmin()).token })).status).toBe(403);
    expect((await get('/v1/api/superadmin/deliveries', { token: (await aUser()).token })).status).toBe(403);
    expect((await get('/v1/api/superadmin/deliveries')).status).toBe(401);
  });
});

describe('POST /superadmin/deliveries/{id}/retry', () => {
  it('puts a DEAD delivery back to QUEUED with its attempts reset; the queue then sends it once; audited', async () => {
    const admin = await aSuperAdmin();
    const row = await aDeadDelivery();
    const res = await post(`/v1/api/superadmin/deliveries/${row.id}/retry`, undefined, { token: admin.token, headers: { 'CF-Connecting-IP': '198.51.100.20' } });
    expect(res.status).toBe(200);
    // The row as new: QUEUED, no attempt, no error of the attempts before.
    expect(res.body).toEqual({
      id: row.id,
      userId: row.userId,
      channel: 'EMAIL',
      to: 'j***@example.com',
      template: 'EMAIL_VERIFICATION',
      locale: 'fr',
      status: 'QUEUED',
      attempts: 0,
      lastError: null,
      providerMessageId: null,
      createdAt: row.createdAt,
      sentAt: null,
    });

    // Enqueued after the commit: the test runtime's queue hands it to the consumer, which sends it.
    let after = await rowOf(row.id);
    for (let i = 0; i < 100 && after.status !== 'SENT'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      after = await rowOf(row.id);
    }
    expect(after).toMatchObject({ status: 'SENT', attempts: 1, lastError: null });
    expect(await db.select().from(outboxMessages).where(eq(outboxMessages.deliveryId, row.id))).toHaveLength(1);

    const entries = await db.select().from(auditLogs).where(and(eq(auditLogs.action, 'DELIVERY_RETRIED'), eq(auditLogs.targetId, String(row.id))));
    expect(entries).toEqual([
      expect.objectContaining({
        actorId: admin.id,
        targetType: 'DELIVERY',
        ip: '198.51.100.20',
        details: { previousStatus: 'DEAD', attempts: 5, lastError: 'E_DELIVERY_FAILED: upstream mail server unavailable', channel: 'EMAIL', template: 'EMAIL_VERIFICATION' },
      }),
    ]);
  });

  it('a FAILED delivery can be retried too; a QUEUED one (a retry already under way) is 409 and changes nothing', async () => {
    const admin = await aSuperAdmin();
    const row = await aDeadDelivery({ status: 'FAILED', attempts: 1, template: 'NO_SUCH_TEMPLATE' });
    const retried = await post(`/v1/api/superadmin/deliveries/${row.id}/retry`, undefined, { token: admin.token });
    expect([retried.status, retried.body.status, retried.body.attempts, retried.body.lastError]).toEqual([200, 'QUEUED', 0, null]);
    let after = await rowOf(row.id);
    for (let i = 0; i < 100 && after.status === 'QUEUED'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      after = await rowOf(row.id);
    }
    // Retried, it failed again for the same reason: the template still does not exist.
    expect(after).toMatchObject({ status: 'FAILED', attempts: 1, lastError: 'No template named NO_SUCH_TEMPLATE' });
    const audits = async () => (await db.select().from(auditLogs).where(and(eq(auditLogs.action, 'DELIVERY_RETRIED'), eq(auditLogs.targetId, String(row.id))))).length;
    expect(await audits()).toBe(1);

    const queued = await aDeadDelivery({ status: 'QUEUED', attempts: 0 });
    const again = await post(`/v1/api/superadmin/deliveries/${queued.id}/retry`, undefined, { token: admin.token });
    expect(again.status).toBe(409);
    expect(errorBody(again)).toMatchObject({
      status: 409,
      errorCode: 'INVALID_STATE',
      message: 'The delivery is QUEUED; only a FAILED or DEAD delivery can be retried',
      path: `/v1/api/superadmin/deliveries/${queued.id}/retry`,
    });
    const fr = await post(`/v1/api/superadmin/deliveries/${queued.id}/retry`, undefined, { token: admin.token, headers: { 'Accept-Language': 'fr' } });
    expect(fr.body).toMatchObject({ errorCode: 'INVALID_STATE', message: "L'envoi est QUEUED ; seul un envoi FAILED ou DEAD peut être relancé" });
    expect(await rowOf(queued.id)).toEqual(queued);
  });

  it('a SENT delivery is 409 INVALID_STATE and is not sent again; an unknown id is 404; only super-admins', async () => {
    const admin = await aSuperAdmin();
    const sent = await aDeadDelivery({ status: 'SENT', attempts: 1, lastError: null, providerMessageId: 'sandbox-9', sentAt: '2026-01-01T00:00:00.000Z' });
    const res = await post(`/v1/api/superadmin/deliveries/${sent.id}/retry`, undefined, { token: admin.token });
    expect(res.status).toBe(409);
    expect(res.body.errorCode).toBe('INVALID_STATE');
    expect(await rowOf(sent.id)).toEqual(sent);

    const missing = await post('/v1/api/superadmin/deliveries/999999999/retry', undefined, { token: admin.token });
    expect(missing.status).toBe(404);
    expect(errorBody(missing)).toMatchObject({ status: 404, errorCode: 'RESOURCE_NOT_FOUND' });
    expect((await post('/v1/api/superadmin/deliveries/abc/retry', undefined, { token: admin.token })).status).toBe(400);

    const dead = await aDeadDelivery();
    expect((await post(`/v1/api/superadmin/deliveries/${dead.id}/retry`, undefined, { token: (await anAdmin()).token })).status).toBe(403);
    expect(await rowOf(dead.id)).toEqual(dead);
  });
});
