// Two factors for staff (CONTRACT 27): TOTP as RFC 6238 computes it, enrolment from the console
// (QR, first code, ten recovery codes shown once and stored hashed), the second step of console
// sign-in and of the API's login, a code accepted once, a recovery code accepted once, and in
// production staff without an authenticator sent to enrol before anything else.
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { auditLogs, staffRecoveryCodes, staffTotp } from '../src/db/schema';
import worker from '../src/index';
import { hashPassword } from '../src/lib/password';
import { base32Decode, base32Encode, hotp, matchingStep, timeStep, totpAt, type TotpHash } from '../src/lib/totp';
import { createIdp, PASSWORD, randomIp, serveJwks, signIdToken } from './helpers/auth';
import { Browser } from './helpers/console-browser';
import { db } from './helpers/db';
import { anAdmin, aSuperAdmin, aUser, type UserOptions } from './helpers/factories';
import { BASE, post } from './helpers/http';
import { PRODUCTION_ENV } from './helpers/production';

let hash: Promise<string> | undefined;
const withPassword = async (make: (o: UserOptions) => Promise<{ id: number; email: string; token: string }>) =>
  make({ passwordHash: await (hash ??= hashPassword(PASSWORD)) });

const bytes = (ascii: string) => new TextEncoder().encode(ascii);
const now = () => Math.floor(Date.now() / 1000);

describe('TOTP (RFC 6238 appendix B)', () => {
  // The RFC's seeds: 20, 32 and 64 ASCII bytes for SHA-1, SHA-256 and SHA-512; 8 digits.
  const SEEDS: Record<TotpHash, Uint8Array> = {
    'SHA-1': bytes('12345678901234567890'),
    'SHA-256': bytes('12345678901234567890123456789012'),
    'SHA-512': bytes('1234567890123456789012345678901234567890123456789012345678901234'),
  };
  const VECTORS: [number, string, string, string][] = [
    [59, '94287082', '46119246', '90693936'],
    [1111111109, '07081804', '68084774', '25091201'],
    [1111111111, '14050471', '67062674', '99943326'],
    [1234567890, '89005924', '91819424', '93441116'],
    [2000000000, '69279037', '90698825', '38618901'],
    [20000000000, '65353130', '77737706', '47863826'],
  ];
  it.each(VECTORS)('at T=%i: %s (SHA-1), %s (SHA-256), %s (SHA-512)', async (t, sha1, sha256, sha512) => {
    expect(await totpAt(SEEDS['SHA-1'], t, 8, 'SHA-1')).toBe(sha1);
    expect(await totpAt(SEEDS['SHA-256'], t, 8, 'SHA-256')).toBe(sha256);
    expect(await totpAt(SEEDS['SHA-512'], t, 8, 'SHA-512')).toBe(sha512);
  });

  it('HOTP of RFC 4226 appendix D, and base32 both ways', async () => {
    const expected = ['755224', '287082', '359152', '969429', '338314', '254676', '287922', '162583', '399871', '520489'];
    for (const [counter, code] of expected.entries()) expect(await hotp(SEEDS['SHA-1'], counter)).toBe(code);
    expect(base32Encode(SEEDS['SHA-1'])).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    expect(base32Decode('gezd gnbv gy3t qojq gezd gnbv gy3t qojq')).toEqual(SEEDS['SHA-1']);
    expect(base32Decode('not base32!')).toBeNull();
  });

  it('accepts the step before and after now, not two away, and names the step matched', async () => {
    const key = SEEDS['SHA-1'];
    const t = 1_700_000_000;
    for (const offset of [-1, 0, 1]) expect(await matchingStep(key, await hotp(key, timeStep(t) + offset), t)).toBe(timeStep(t) + offset);
    for (const offset of [-2, 2]) expect(await matchingStep(key, await hotp(key, timeStep(t) + offset), t)).toBeNull();
    expect(await matchingStep(key, '12345', t)).toBeNull();
  });
});

/** Enrols the operator through the console; returns the secret and the recovery codes shown. */
async function enrol(b: Browser) {
  const page = await b.get('/console/two-factor');
  expect(page.status).toBe(200);
  expect(page.text).toContain('<svg');
  const key = page.text.match(/id="totp-key">([A-Z2-7 ]+)</)![1];
  const secret = base32Decode(key)!;
  const done = await b.request('POST', '/console/two-factor', { csrf: b.csrf('/console/two-factor'), code: await totpAt(secret, now()) });
  expect(done.status, done.text).toBe(200);
  const codes = [...done.text.matchAll(/<li>([A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4})<\/li>/g)].map((m) => m[1]);
  return { secret, codes };
}

async function signedInOperator(make = anAdmin) {
  const admin = await withPassword(make);
  const b = new Browser();
  expect((await b.signIn(admin.email)).status).toBe(303);
  return { admin, b };
}

describe('console enrolment and sign-in', () => {
  it('enrols with the QR key and a first code: ten recovery codes shown once, stored as hashes only', async () => {
    const { admin, b } = await signedInOperator();
    const wrong = await b.submit('/console/two-factor', '/console/two-factor', { code: '000000' });
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain('The code is wrong, expired or already used');
    const { codes } = await enrol(b);
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    const [row] = await db().select().from(staffTotp).where(eq(staffTotp.userId, admin.id));
    expect(row.confirmedAt).not.toBeNull();
    const stored = await db().select().from(staffRecoveryCodes).where(eq(staffRecoveryCodes.userId, admin.id));
    expect(stored).toHaveLength(10);
    for (const s of stored) expect(codes.some((c) => s.codeHash.includes(c.replace(/-/g, '')))).toBe(false);
    const again = await b.get('/console/two-factor');
    expect(again.text).toContain('Unused recovery codes: 10');
    expect(again.text).not.toContain('<svg');
    expect((await db().select().from(auditLogs).where(eq(auditLogs.action, 'TOTP_ENROLLED'))).some((a) => a.actorId === admin.id)).toBe(true);
  });

  // Each sign-in attempt, and each code, counts against the address's rate limit (5 a minute).
  it('sign-in then asks for the code: a replayed code is refused, the next one opens the session', async () => {
    const { admin, b } = await signedInOperator();
    const { secret } = await enrol(b);
    const enrolledWith = await totpAt(secret, now());

    const c = new Browser();
    const first = await c.signIn(admin.email);
    expect(first.status).toBe(200);
    expect(first.text).toContain('name="challenge"');
    expect(c.cookies.has('console_session')).toBe(false);
    const challenge = first.text.match(/name="challenge" value="([^"]+)"/)![1];
    const replay = await c.request('POST', '/console/login/code', { csrf: c.csrf('/console/login/code'), challenge, code: enrolledWith });
    expect(replay.status).toBe(401);
    expect(c.cookies.has('console_session')).toBe(false);
    const next = await c.request('POST', '/console/login/code', { csrf: c.csrf('/console/login/code'), challenge, code: await totpAt(secret, now() + 30) });
    expect(next.status).toBe(303);
    expect(next.location).toBe('/console');
    expect((await c.get('/console')).status).toBe(200);
  });

  it('a recovery code signs in once, in any case; a forged challenge starts again from the password', async () => {
    const { admin, b } = await signedInOperator();
    const { codes } = await enrol(b);
    const d = new Browser();
    const step = await d.signIn(admin.email);
    const ch = step.text.match(/name="challenge" value="([^"]+)"/)![1];
    expect((await d.request('POST', '/console/login/code', { csrf: d.csrf('/console/login/code'), challenge: ch, code: codes[3].toLowerCase() })).status).toBe(303);
    const e = new Browser();
    const step2 = await e.signIn(admin.email);
    const ch2 = step2.text.match(/name="challenge" value="([^"]+)"/)![1];
    expect((await e.request('POST', '/console/login/code', { csrf: e.csrf('/console/login/code'), challenge: ch2, code: codes[3] })).status).toBe(401);
    const forged = await e.request('POST', '/console/login/code', { csrf: e.csrf('/console/login/code'), challenge: ch2.replace(/^\d+/, '1'), code: codes[4] });
    expect(forged.status).toBe(401);
    expect(forged.text).toContain('enter your e-mail and password again');
  });
});

describe('API login with a second factor', () => {
  const login = (email: string, extra: Record<string, string> = {}) =>
    post('/v1/api/auth/login', { email, password: PASSWORD, ...extra }, { headers: { 'CF-Connecting-IP': randomIp() } });

  it('with Google too: the ID token answered "code required" may be sent again with the code, then it is spent', async () => {
    const { admin, b } = await signedInOperator(aSuperAdmin);
    const { secret } = await enrol(b);
    const google = await createIdp('two-factor-google-key');
    serveJwks({ 'https://www.googleapis.com/oauth2/v3/certs': [google.jwk] });
    const idToken = await signIdToken(google, { issuer: 'https://accounts.google.com', audience: 'test-google-client', subject: crypto.randomUUID(), email: admin.email });
    const social = (extra: Record<string, string> = {}) =>
      post('/v1/api/auth/oauth2/google', { idToken, ...extra }, { headers: { 'CF-Connecting-IP': randomIp() } });
    try {
      const missing = await social();
      expect(missing.status).toBe(401);
      expect(missing.body.message).toContain('a code from the authenticator app is required');
      const ok = await social({ totpCode: await totpAt(secret, now() + 30) });
      expect(ok.status, JSON.stringify(ok.body)).toBe(200);
      expect(ok.body.user.id).toBe(admin.id);
      const replay = await social({ totpCode: await totpAt(secret, now() + 60) });
      expect(replay.status).toBe(401);
      expect(replay.body.message).toBe('This Google credential was already used to sign in');
    } finally {
      vi.restoreAllMocks();
    }
  });

  it('an enrolled super-admin needs totpCode: missing 401, wrong 401, right 200, the same code again 401; others log in as before', async () => {
    const { admin, b } = await signedInOperator(aSuperAdmin);
    const { secret, codes } = await enrol(b);
    const missing = await login(admin.email);
    expect(missing.status).toBe(401);
    expect(missing.body).toMatchObject({ errorCode: 'AUTHENTICATION_ERROR', message: expect.stringContaining('a code from the authenticator app is required') });
    expect(missing.body).toMatchObject({ reason: 'TOTP_REQUIRED', suggestions: ['Enter the 6-digit code of your authenticator app, or an unused recovery code'] });
    const wrong = (await login(admin.email, { totpCode: '999999' })).body;
    expect(wrong).toMatchObject({ reason: 'TOTP_INVALID', message: 'The code is wrong, expired or already used' });
    const code = await totpAt(secret, now() + 30);
    const ok = await login(admin.email, { totpCode: code });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.accessToken).toEqual(expect.any(String));
    expect((await login(admin.email, { totpCode: code })).status).toBe(401);
    const failures = await db().select().from(auditLogs).where(eq(auditLogs.actorId, admin.id));
    expect(failures.filter((a) => a.action === 'LOGIN_FAILURE' && (a.details as { reason?: string })?.reason === 'wrong second factor')).toHaveLength(2);

    const client = await withPassword(aUser);
    const plain = await login(client.email);
    expect(plain.status).toBe(200);
    const staff = await withPassword(anAdmin);
    expect((await login(staff.email)).status).toBe(200);
  });

  it('a recovery code logs in once', async () => {
    const { admin, b } = await signedInOperator(aSuperAdmin);
    const { codes } = await enrol(b);
    expect((await login(admin.email, { totpCode: codes[0] })).status).toBe(200);
    expect((await login(admin.email, { totpCode: codes[0] })).status).toBe(401);
    expect((await login(admin.email, { totpCode: codes[1].replace(/-/g, ' ') })).status).toBe(200);
  });
});

describe('in production', () => {
  async function send(request: Request) {
    const ctx = createExecutionContext();
    const res = await worker.fetch(request as Parameters<typeof worker.fetch>[0], PRODUCTION_ENV, ctx);
    await waitOnExecutionContext(ctx);
    return res;
  }

  it('staff without an authenticator are sent to enrol before any console page, and refused by the API login until then', async () => {
    const admin = await withPassword(anAdmin);
    const b = new Browser(send);
    expect((await b.signIn(admin.email)).status).toBe(303);
    for (const path of ['/console', '/console/users', '/console/disputes']) {
      const res = await b.get(path);
      expect(res.status).toBe(303);
      expect(res.location).toBe('/console/two-factor');
    }
    const api = await send(
      new Request(`${BASE}/v1/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'CF-Connecting-IP': randomIp() }, body: JSON.stringify({ email: admin.email, password: PASSWORD }) }),
    );
    expect(api.status).toBe(403);
    expect(((await api.json()) as { message: string }).message).toContain('enrol an authenticator first');

    const page = await b.get('/console/two-factor');
    expect(page.text).toContain('Staff accounts must enrol an authenticator');
    const secret = base32Decode(page.text.match(/id="totp-key">([A-Z2-7 ]+)</)![1])!;
    expect((await b.request('POST', '/console/two-factor', { csrf: b.csrf('/console/two-factor'), code: await totpAt(secret, now()) })).status).toBe(200);
    expect((await b.get('/console')).status).toBe(200);
  });
});
