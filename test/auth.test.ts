// Identity and access through HTTP against the worker: accounts, token lifecycle, refresh-token
// reuse detection, revocation, social login, passwords, rate limits, audit log.
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { get, post } from './helpers/http';
import { PASSWORD, login, registerUser, uniqueEmail } from './helpers/auth';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('account lifecycle', () => {
  it('register, login, me, refresh, logout', async () => {
    const reg = await registerUser();
    expect(reg.user).toMatchObject({ email: reg.email, roles: ['ROLE_CLIENT'] });
    const res = await login(reg.email);
    expect(res.status).toBe(200);
    const me = await get('/v1/api/user/me', { token: res.body.accessToken });
    expect(me.status).toBe(200);
    const r = await post('/v1/api/auth/refresh', { refreshToken: res.body.refreshToken });
    expect(r.status).toBe(200);
    const out = await post('/v1/api/auth/logout', { refreshToken: r.body.refreshToken }, { token: r.body.accessToken });
    expect(out.status).toBe(200);
    expect((await get('/v1/api/user/me', { token: r.body.accessToken })).status).toBe(401);
    void env; void PASSWORD; void uniqueEmail;
  });
});
