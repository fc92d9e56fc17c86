// Push devices (CONTRACT section 16): registration, a token moving between accounts, the caller's
// page, deletion by the owner only, and bad input refused with nothing stored.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { devices } from '../src/db/schema';
import { db } from './helpers/db';
import { aUser } from './helpers/factories';
import { del, errorBody, get, post } from './helpers/http';

const token = () => `fcm-${crypto.randomUUID()}`;

describe('/devices', () => {
  it('registers a device: 201 {id, platform, createdAt}, stored for the caller', async () => {
    const user = await aUser();
    const t = token();
    const res = await post('/v1/api/devices', { token: t, platform: 'ANDROID' }, { token: user.token });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['createdAt', 'id', 'platform']);
    expect(res.body.platform).toBe('ANDROID');
    const rows = await db().select().from(devices).where(eq(devices.token, t));
    expect(rows).toEqual([{ id: res.body.id, userId: user.id, token: t, platform: 'ANDROID', createdAt: res.body.createdAt }]);
  });

  it('a token another account holds moves to the caller: one row, one owner', async () => {
    const first = await aUser();
    const second = await aUser();
    const t = token();
    const a = await post('/v1/api/devices', { token: t, platform: 'IOS' }, { token: first.token });
    const b = await post('/v1/api/devices', { token: t, platform: 'IOS' }, { token: second.token });
    expect(b.status).toBe(201);
    expect(b.body.id).toBe(a.body.id);
    expect((await get('/v1/api/devices', { token: first.token })).body.content).toEqual([]);
    expect((await get('/v1/api/devices', { token: second.token })).body.content).toEqual([b.body]);
    expect(await db().select({ userId: devices.userId }).from(devices).where(eq(devices.token, t))).toEqual([{ userId: second.id }]);
  });

  it("lists the caller's devices as a page, newest first", async () => {
    const user = await aUser();
    const web = await post('/v1/api/devices', { token: token(), platform: 'WEB' }, { token: user.token });
    await new Promise((r) => setTimeout(r, 5));
    const android = await post('/v1/api/devices', { token: token(), platform: 'ANDROID' }, { token: user.token });
    const page = await get('/v1/api/devices?size=1', { token: user.token });
    expect(page.status).toBe(200);
    expect(page.body).toEqual({ content: [android.body], page: { number: 0, size: 1, totalElements: 2, totalPages: 2 } });
    expect((await get('/v1/api/devices?page=1&size=1', { token: user.token })).body.content).toEqual([web.body]);
  });

  it("deletes the caller's device (204); another's is 403, an unknown one 404, and stays", async () => {
    const owner = await aUser();
    const stranger = await aUser();
    const created = await post('/v1/api/devices', { token: token(), platform: 'ANDROID' }, { token: owner.token });
    const refused = await del(`/v1/api/devices/${created.body.id}`, { token: stranger.token });
    expect(refused.status).toBe(403);
    expect(errorBody(refused)).toMatchObject({ status: 403, errorCode: 'ACCESS_DENIED', path: `/v1/api/devices/${created.body.id}` });
    expect(await db().select().from(devices).where(eq(devices.id, created.body.id))).toHaveLength(1);

    expect((await del(`/v1/api/devices/${created.body.id}`, { token: owner.token })).status).toBe(204);
    expect(await db().select().from(devices).where(eq(devices.id, created.body.id))).toHaveLength(0);
    const gone = await del(`/v1/api/devices/${created.body.id}`, { token: owner.token });
    expect(gone.status).toBe(404);
    expect(errorBody(gone)).toMatchObject({ errorCode: 'RESOURCE_NOT_FOUND', message: `Device ${created.body.id} not found` });
  });

  it('bad input: every failing field at once, nothing stored; no token, 401', async () => {
    const user = await aUser();
    const res = await post('/v1/api/devices', { token: '  ', platform: 'BLACKBERRY' }, { token: user.token });
    expect(res.status).toBe(400);
    expect(errorBody(res)).toMatchObject({ status: 400, errorCode: 'VALIDATION_ERROR' });
    expect(res.body.fieldErrors.map((f: { field: string }) => f.field).sort()).toEqual(['platform', 'token']);
    expect(await db().select().from(devices).where(eq(devices.userId, user.id))).toEqual([]);
    expect((await post('/v1/api/devices', { token: token(), platform: 'IOS' })).status).toBe(401);
  });

  it('a control character in the token (a NUL, a line break) is 400 VALIDATION_ERROR on token, nothing stored (CONTRACT section 19)', async () => {
    const user = await aUser();
    for (const bad of [`fcm-${crypto.randomUUID()}\u0000x`, `fcm-${crypto.randomUUID()}\nx`, `fcm-\u001b[2J${crypto.randomUUID()}`]) {
      const res = await post('/v1/api/devices', { token: bad, platform: 'ANDROID' }, { token: user.token });
      expect(errorBody(res)).toEqual({
        status: 400,
        errorCode: 'VALIDATION_ERROR',
        message: 'Validation failed for body: token',
        path: '/v1/api/devices',
        suggestions: ['Correct the fields listed and try again'],
        fieldErrors: [{ field: 'token', message: 'Control characters are not allowed in this field', rejectedValue: '[redacted]' }],
      });
    }
    expect(await db().select().from(devices).where(eq(devices.userId, user.id))).toEqual([]);
  });
});
