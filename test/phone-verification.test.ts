// Phone verification by SMS code (CONTRACT 21): the code goes out through the outbox as an SMS,
// 10 minutes, 5 attempts, a new code replaces the previous one, 3 codes an hour; phoneVerified on
// the profile, the public profile and the carrier of an announcement; a changed number clears it.
import { env } from 'cloudflare:workers';
import { and, desc, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { database } from '../src/db/client';
import { deliveries, outboxMessages, phoneVerificationCodes, users } from '../src/db/schema';
import { codeRetryAfterSeconds, newPhoneCode } from '../src/features/users/phone-verification.rules';
import { errorBody, get, post, put } from './helpers/http';
import { aCarrier, aTrip, aUser, type TestUser } from './helpers/factories';
import { consume } from './helpers/deliveries';

const db = database(env.DB);
const SEND = '/v1/api/user/me/phone/verification';
const VERIFY = '/v1/api/user/me/phone/verify';
const PHONE = '+221771234567';

afterEach(() => vi.useRealTimers());

/** The SMS rows of the user's codes, newest first. */
const codeSmsOf = (userId: number) =>
  db
    .select()
    .from(deliveries)
    .where(and(eq(deliveries.userId, userId), eq(deliveries.template, 'PHONE_VERIFICATION')))
    .orderBy(desc(deliveries.id));

/** The code of the last SMS sent to the user (read from the outbox, as the phone would). */
async function lastCode(userId: number): Promise<string> {
  const [row] = await codeSmsOf(userId);
  return (row.payload as { code: string }).code;
}

const wrongOf = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

async function sendCode(user: TestUser, phone = PHONE) {
  const res = await post(SEND, { phone }, { token: user.token });
  expect(res.status).toBe(202);
  return res;
}

describe('POST /user/me/phone/verification', () => {
  it('sends a 6-digit code by SMS to the number given, in the user\'s language; only a hash is stored', async () => {
    const user = await aUser();
    const res = await sendCode(user);
    expect(res.body).toEqual({ phone: PHONE, expiresAt: expect.any(String) });
    const left = Date.parse(res.body.expiresAt) - Date.now();
    expect(left).toBeGreaterThan(9 * 60 * 1000);
    expect(left).toBeLessThanOrEqual(10 * 60 * 1000);

    const [sms] = await codeSmsOf(user.id);
    expect(sms).toMatchObject({ channel: 'SMS', to: PHONE, locale: 'fr', status: 'QUEUED' });
    const code = (sms.payload as { code: string }).code;
    expect(code).toMatch(/^[0-9]{6}$/);
    const [stored] = await db.select().from(phoneVerificationCodes).where(eq(phoneVerificationCodes.userId, user.id));
    expect(stored.codeHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(`"${code}"`);
    // Asking for a code changes nothing on the account yet.
    const [account] = await db.select().from(users).where(eq(users.id, user.id));
    expect(account).toMatchObject({ phoneNumber: null, phoneVerified: false });

    // The consumer sends it: the sandbox records the French text.
    expect(await consume(sms.id)).toMatchObject({ acked: true });
    const [message] = await db.select().from(outboxMessages).where(eq(outboxMessages.deliveryId, sms.id));
    expect(message).toMatchObject({
      channel: 'SMS',
      to: PHONE,
      text: `Votre code de vérification Parcel Marketplace : ${code}. Valable 10 minutes. Ne le communiquez à personne.`,
    });
  });

  it('refuses a number that cannot be read, naming the form expected (English and French)', async () => {
    // No nationality, no number yet: a number without its country code cannot be read.
    const user = await aUser();
    for (const phone of ['0612345678', '+0612345678', '+123', '77 123 45 67', 'call me']) {
      const res = await post(SEND, { phone }, { token: user.token });
      expect(res.status).toBe(400);
      expect(errorBody(res)).toEqual({
        status: 400,
        errorCode: 'VALIDATION_ERROR',
        message: 'This phone number cannot be read',
        path: SEND,
        suggestions: ['Write the number with its country code, for example +221 77 123 45 67 or +33 6 12 34 56 78'],
        fieldErrors: [{ field: 'phone', message: 'Write the number with its country code, for example +221 77 123 45 67 or +33 6 12 34 56 78', rejectedValue: phone }],
      });
    }
    const fr = await post(SEND, { phone: '0612345678' }, { token: user.token, headers: { 'Accept-Language': 'fr' } });
    expect(fr.body.fieldErrors[0].message).toBe('Écrivez le numéro avec son indicatif pays, par exemple +221 77 123 45 67 ou +33 6 12 34 56 78');
    expect(await codeSmsOf(user.id)).toEqual([]);
    expect((await post(SEND, { phone: PHONE })).status).toBe(401);
  });

  it('at most 3 codes an hour: the 4th is 429 with Retry-After and the body; an hour later a code goes out again', async () => {
    const user = await aUser();
    const start = Date.now();
    vi.useFakeTimers({ now: start, toFake: ['Date'] });
    await sendCode(user);
    vi.setSystemTime(start + 2 * 60 * 1000);
    await sendCode(user);
    vi.setSystemTime(start + 4 * 60 * 1000);
    await sendCode(user);
    vi.setSystemTime(start + 5 * 60 * 1000);
    const refused = await post(SEND, { phone: PHONE }, { token: user.token });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('Retry-After')).toBe(String(55 * 60));
    expect(errorBody(refused)).toEqual({
      status: 429,
      errorCode: 'BUSINESS_RULE_VIOLATION',
      reason: 'TOO_MANY_CODES',
      message: 'At most 3 codes an hour can be sent',
      path: SEND,
      suggestions: ['Use the last code received, or wait 3300 seconds before asking for a new one'],
    });
    const fr = await post(SEND, { phone: PHONE }, { token: user.token, headers: { 'Accept-Language': 'fr' } });
    expect(fr.body.message).toBe('Au plus 3 codes peuvent être envoyés par heure');
    expect(await codeSmsOf(user.id)).toHaveLength(3);
    // An hour on (the rows moved back: the access token would not live that long), a code goes out.
    vi.useRealTimers();
    await db.update(phoneVerificationCodes).set({ createdAt: new Date(Date.now() - 61 * 60 * 1000).toISOString() }).where(eq(phoneVerificationCodes.userId, user.id));
    await sendCode(user);
    expect(await codeSmsOf(user.id)).toHaveLength(4);
  });
});

describe('POST /user/me/phone/verify', () => {
  it('the right code makes the number the account\'s, phoneVerified on the profile', async () => {
    const user = await aUser();
    await sendCode(user);
    const res = await post(VERIFY, { code: await lastCode(user.id) }, { token: user.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: user.id, phoneNumber: PHONE, phoneVerified: true });
    expect((await get('/v1/api/user/me', { token: user.token })).body).toMatchObject({ phoneNumber: PHONE, phoneVerified: true });
    // Used once: the same code again finds nothing pending.
    const again = await post(VERIFY, { code: await lastCode(user.id) }, { token: user.token });
    expect(again.status).toBe(409);
    expect(errorBody(again)).toEqual({
      status: 409,
      errorCode: 'INVALID_STATE',
      reason: 'NO_PENDING_CODE',
      message: 'No phone verification code is pending',
      path: VERIFY,
      suggestions: ['Ask for a new code first'],
    });
  });

  it('a wrong code is 400 INVALID_ARGUMENT with the attempts left; after 5 the right code no longer works (422)', async () => {
    const user = await aUser();
    await sendCode(user);
    const code = await lastCode(user.id);
    for (let left = 4; left >= 0; left--) {
      const wrong = await post(VERIFY, { code: wrongOf(code) }, { token: user.token });
      expect(wrong.status).toBe(400);
      expect(errorBody(wrong)).toEqual({ status: 400, errorCode: 'INVALID_ARGUMENT', message: `Wrong code: ${left} attempt(s) left`, path: VERIFY, fieldErrors: [], suggestions: [] });
    }
    const exhausted = await post(VERIFY, { code }, { token: user.token, headers: { 'Accept-Language': 'fr' } });
    expect(exhausted.status).toBe(422);
    expect(errorBody(exhausted)).toEqual({
      status: 422,
      errorCode: 'BUSINESS_RULE_VIOLATION',
      reason: 'TOO_MANY_ATTEMPTS',
      message: 'Trop de codes erronés : ce code ne fonctionne plus',
      path: VERIFY,
      suggestions: ["Demandez d'abord un nouveau code"],
    });
    const [account] = await db.select().from(users).where(eq(users.id, user.id));
    expect(account.phoneVerified).toBe(false);
    // A new code starts afresh.
    await sendCode(user);
    expect((await post(VERIFY, { code: await lastCode(user.id) }, { token: user.token })).body.phoneVerified).toBe(true);
  });

  it('an expired code (10 minutes) is 400 INVALID_ARGUMENT', async () => {
    const user = await aUser();
    const start = Date.now();
    vi.useFakeTimers({ now: start, toFake: ['Date'] });
    await sendCode(user);
    vi.setSystemTime(start + 10 * 60 * 1000 + 1);
    const res = await post(VERIFY, { code: await lastCode(user.id) }, { token: user.token });
    expect(res.status).toBe(400);
    expect(errorBody(res)).toEqual({
      status: 400,
      errorCode: 'INVALID_ARGUMENT',
      fieldErrors: [],
      message: 'The code has expired',
      path: VERIFY,
      suggestions: ['Ask for a new code first'],
    });
  });

  it('a new code replaces the previous one: the old code is wrong, the number verified is the last one asked', async () => {
    const user = await aUser();
    await sendCode(user, '+33612345678');
    const first = await lastCode(user.id);
    await sendCode(user, PHONE);
    const second = await lastCode(user.id);
    if (first !== second) {
      const old = await post(VERIFY, { code: first }, { token: user.token });
      expect(old.status).toBe(400);
      expect(old.body.message).toBe('Wrong code: 4 attempt(s) left');
    }
    const ok = await post(VERIFY, { code: second }, { token: user.token });
    expect(ok.body).toMatchObject({ phoneNumber: PHONE, phoneVerified: true });
  });

  it('no code asked: 409; a malformed code: 400 VALIDATION_ERROR', async () => {
    const user = await aUser();
    expect((await post(VERIFY, { code: '123456' }, { token: user.token })).body.errorCode).toBe('INVALID_STATE');
    const bad = await post(VERIFY, { code: '12ab' }, { token: user.token });
    expect(bad.status).toBe(400);
    expect(bad.body.fieldErrors).toEqual([{ field: 'code', message: 'the 6-digit code received by SMS', rejectedValue: '12ab' }]);
  });
});

describe('phoneVerified beyond the profile', () => {
  async function verifiedCarrier() {
    const carrier = await aCarrier();
    await sendCode(carrier);
    await post(VERIFY, { code: await lastCode(carrier.id) }, { token: carrier.token });
    return carrier;
  }

  it('shows on the public profile and on the carrier of an announcement', async () => {
    const carrier = await verifiedCarrier();
    const other = await aCarrier();
    const viewer = await aUser();
    expect((await get(`/v1/api/users/${carrier.id}`, { token: viewer.token })).body).toMatchObject({ id: carrier.id, phoneVerified: true });
    expect((await get(`/v1/api/users/${other.id}`, { token: viewer.token })).body).toMatchObject({ id: other.id, phoneVerified: false });
    const trip = await aTrip(carrier);
    expect((await get(`/v1/api/annonces/${trip.id}`)).body.carrier).toMatchObject({ id: carrier.id, phoneVerified: true });
    const otherTrip = await aTrip(other);
    expect((await get(`/v1/api/annonces/${otherTrip.id}`)).body.carrier).toMatchObject({ phoneVerified: false });
  });

  it('changing the phone number clears it; the same number written otherwise keeps it', async () => {
    const carrier = await verifiedCarrier();
    const same = await put('/v1/api/user/me', { phoneNumber: '+221 77 123 45 67' }, { token: carrier.token });
    expect(same.body).toMatchObject({ phoneVerified: true });
    const changed = await put('/v1/api/user/me', { phoneNumber: '+221781234567' }, { token: carrier.token });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ phoneNumber: '+221781234567', phoneVerified: false });
    const trip = await aTrip(carrier);
    expect((await get(`/v1/api/annonces/${trip.id}`)).body.carrier.phoneVerified).toBe(false);
  });
});

describe('the rules', () => {
  it('codes are 6 digits, drawn without bias (the top of the 32-bit range is drawn again)', () => {
    const draws = [4_294_999_999, 4_294_000_000, 123];
    expect(newPhoneCode(() => draws.shift()!)).toBe('000123');
    expect(newPhoneCode(() => 999_999)).toBe('999999');
  });

  it('Retry-After counts from the oldest of the last 3 codes of the hour', () => {
    const now = Date.parse('2026-01-01T12:00:00Z');
    const at = (min: number) => new Date(now - min * 60_000).toISOString();
    expect(codeRetryAfterSeconds([at(5), at(10)], now)).toBe(0);
    expect(codeRetryAfterSeconds([at(50), at(10), at(5)], now)).toBe(10 * 60);
    expect(codeRetryAfterSeconds([at(70), at(50), at(10)], now)).toBe(0);
    expect(codeRetryAfterSeconds([at(55), at(50), at(40), at(10)], now)).toBe(10 * 60);
  });
});
