// The operator console (CONTRACT section 18) as a browser uses it: cookies, forms, redirects.
// Sign-in for operators only, the session cookie's attributes, CSRF, one application per form,
// and the actions going through the API's services (roles, ledger, suspension, revocation).
import { env, exports } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createApp } from '../src/app';
import { AGENCY_DOCUMENT_TYPES, agencyDocuments, auditLogs, consoleSessions, deliveries, disputeMessages, disputes, files, kycRecords, ledgerEntries, reservations, users } from '../src/db/schema';
import { DEMO_DEAD_DELIVERY_REASON, DEMO_DISPUTE_RESERVATION, DEMO_KYC_EMAIL } from '../src/features/dev/seed/console';
import { hashPassword } from '../src/lib/password';
import { depsOf } from '../src/env';
import { eraseAccountAsOperator } from '../src/features/users/users.service';
import { PASSWORD, randomIp } from './helpers/auth';
import { Browser } from './helpers/console-browser';
import { db } from './helpers/db';
import { aCarrier, aDeadDelivery as deadDelivery, aFile, anAdmin, anAgency, aReservation, aSuperAdmin, aUser, FIFTY_EUR, type UserOptions } from './helpers/factories';
import { BASE, get, post } from './helpers/http';
import { fakeStripeForThisFile } from './helpers/money';

const stripe = fakeStripeForThisFile();
let hash: Promise<string> | undefined;
const withPassword = async (make: (o: UserOptions) => Promise<{ id: number; email: string; token: string }>, o: UserOptions = {}) =>
  make({ ...o, passwordHash: await (hash ??= hashPassword(PASSWORD)) });

async function aPendingKycRecord(userId: number) {
  const sessionId = crypto.randomUUID();
  const [record] = await db()
    .insert(kycRecords)
    .values({ userId, status: 'PENDING', externalUserId: `ext-${userId}`, sessionId, kycSessionUrl: `https://kyc.test/${sessionId}`, submittedAt: new Date().toISOString() })
    .returning();
  return record;
}

/** A paid 50.00 EUR reservation in transit, disputed by its sender; an admin to resolve it. */
async function anOpenDispute() {
  const admin = await withPassword(anAdmin);
  const sender = await aUser();
  const carrier = await aCarrier();
  const { reservation } = await aReservation({ sender, carrier, status: 'IN_TRANSIT', payment: stripe, ...FIFTY_EUR });
  const opened = await post('/v1/api/disputes', { reservationId: reservation.id, reason: 'DAMAGED', description: 'The parcel arrived broken.' }, { token: sender.token });
  expect(opened.status, JSON.stringify(opened.body)).toBe(201);
  return { admin, carrier, id: opened.body.id as number };
}

const signedIn = async (who: { email: string }) => {
  const b = new Browser();
  const res = await b.signIn(who.email);
  expect(res.status).toBe(303);
  expect(res.location).toBe('/console');
  return b;
};

describe('console sign-in', () => {
  it('without a session every page redirects (303) to the sign-in page', async () => {
    for (const path of ['/console', '/console/kyc', '/console/users/1', '/console/audit']) {
      const res = await new Browser().get(path);
      expect(res.status).toBe(303);
      expect(res.location).toBe('/console/login');
    }
  });

  it('a client is refused with the reason on the page, and gets no session', async () => {
    const client = await withPassword(aUser);
    const b = new Browser();
    const res = await b.signIn(client.email);
    expect(res.status).toBe(403);
    expect(res.text).toContain('This account has no operator role');
    expect(b.cookies.has('console_session')).toBe(false);
    expect((await b.get('/console')).status).toBe(303);
  });

  it('a super-admin signs in: HttpOnly, SameSite=Strict session cookie, Secure outside development, the overview opens', async () => {
    const admin = await withPassword(aSuperAdmin);
    const b = new Browser();
    await b.get('/console/login');
    const res = await b.request('POST', '/console/login', { csrf: b.csrf(), email: admin.email, password: PASSWORD });
    expect(res.status).toBe(303);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('console_session='))!;
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Strict/);
    expect(cookie).toMatch(/; Secure/); // ENVIRONMENT=test is not local development
    expect(cookie).toMatch(/; Path=\/console/);
    expect(cookie).toMatch(/; Max-Age=28800/);
    const overview = await b.get('/console');
    expect(overview.status).toBe(200);
    expect(overview.text).toContain('Reservations and volume per day');
    expect(overview.text).toContain('<svg');
    expect(overview.headers.get('Content-Security-Policy')).toMatch(/script-src 'nonce-/);
    expect(overview.headers.get('Cache-Control')).toContain('no-store');
  });

  it('a wrong password is refused next to nothing but a message, the typed e-mail kept; an empty e-mail is flagged next to its field', async () => {
    const admin = await withPassword(anAdmin);
    const b = new Browser();
    const wrong = await b.submit('/console/login', '/console/login', { email: admin.email, password: 'nope-nope-1' });
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain('Invalid email or password');
    expect(wrong.text).toContain(`value="${admin.email}"`);
    b.language = 'fr-FR';
    const french = await b.submit('/console/login', '/console/login', { email: admin.email, password: 'nope-nope-1' });
    expect(french.status).toBe(401);
    expect(french.text).toContain('E-mail ou mot de passe invalide');
    b.language = 'en';
    const empty = await b.submit('/console/login', '/console/login', { email: '', password: 'x' });
    expect(empty.status).toBe(400);
    expect(empty.text).toMatch(/id="f-email"[^>]*aria-invalid="true"/);
    expect(empty.text).toContain('<span class="error-text" id="f-email-error">Required</span>');
  });

  it('the overview refuses a malformed date next to its field, keeping it, and shows the default period', async () => {
    const b = await signedIn(await withPassword(anAdmin));
    const res = await b.get('/console?from=2026-13-45&to=2026-01-31');
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/id="q-from"[^>]*aria-invalid="true"/);
    expect(res.text).toContain('value="2026-13-45"');
    expect(res.text).toContain('<span class="error-text" id="q-from-error">Use the format YYYY-MM-DD</span>');
    const backwards = await b.get('/console?from=2026-02-01&to=2026-01-01');
    expect(backwards.status).toBe(400);
    expect(backwards.text).toContain('id="q-to-error">The period runs forward');
  });

  it('the page is in French when the browser prefers French', async () => {
    const res = await exports.default.fetch(new Request(`${BASE}/console/login`, { headers: { 'Accept-Language': 'fr-FR,fr;q=0.9,en;q=0.8' } }));
    const text = await res.text();
    expect(text).toContain('<html lang="fr">');
    expect(text).toContain('Mot de passe');
  });

  it("a browser that asks for neither French nor English gets the operator's own language", async () => {
    const admin = await withPassword(anAdmin);
    await db().update(users).set({ locale: 'fr' }).where(eq(users.id, admin.id));
    const b = await signedIn(admin);
    b.language = 'de-DE,de;q=0.9';
    expect((await b.get('/console')).text).toContain('<html lang="fr">');
    b.language = 'en-GB';
    expect((await b.get('/console')).text).toContain('<html lang="en">');
  });

  it('a session idle for more than 8 hours has ended', async () => {
    const admin = await withPassword(anAdmin);
    const b = await signedIn(admin);
    const nineHoursAgo = new Date(Date.now() - 9 * 3600_000).toISOString();
    await db().update(consoleSessions).set({ lastSeenAt: nineHoursAgo }).where(eq(consoleSessions.userId, admin.id));
    const res = await b.get('/console');
    expect(res.status).toBe(303);
    expect(res.location).toBe('/console/login');
    const [session] = await db().select().from(consoleSessions).where(eq(consoleSessions.userId, admin.id));
    expect(session.revokedReason).toBe('IDLE');
  });

  it('a session ends 12 hours after sign-in however active it is', async () => {
    const admin = await withPassword(anAdmin);
    const b = await signedIn(admin);
    const twelveHoursAgo = new Date(Date.now() - 12 * 3600_000 - 1000).toISOString();
    await db().update(consoleSessions).set({ createdAt: twelveHoursAgo, lastSeenAt: new Date().toISOString() }).where(eq(consoleSessions.userId, admin.id));
    const res = await b.get('/console');
    expect(res.status).toBe(303);
    expect(res.location).toBe('/console/login');
    const [session] = await db().select().from(consoleSessions).where(eq(consoleSessions.userId, admin.id));
    expect(session.revokedReason).toBe('EXPIRED');
  });

  it('the sign-in token is one the server issued: a value planted in the cookie and the form is refused', async () => {
    const admin = await withPassword(anAdmin);
    for (const planted of ['attacker-chosen-value', `x.${Math.floor(Date.now() / 1000) + 3600}.${'0'.repeat(64)}`]) {
      const b = new Browser();
      b.cookies.set('console_login', planted);
      const res = await b.request('POST', '/console/login', { csrf: planted, email: admin.email, password: PASSWORD });
      expect(res.status).toBe(403);
      expect(res.text).toContain('The form has expired');
      expect(b.cookies.has('console_session')).toBe(false);
    }
  });

  it('the lockout answers 429 with Retry-After', async () => {
    const admin = await withPassword(anAdmin);
    const b = new Browser();
    let res: Awaited<ReturnType<Browser['request']>> | undefined;
    for (let i = 0; i < 6; i++) res = await b.submit('/console/login', '/console/login', { email: admin.email, password: 'nope-nope-1' });
    expect(res!.status).toBe(429);
    expect(res!.headers.get('Retry-After')).toBe('60');
  });

  it('logout ends the session', async () => {
    const b = await signedIn(await withPassword(anAdmin));
    const res = await b.submit('/console', '/console/logout');
    expect(res.status).toBe(303);
    expect((await b.get('/console')).status).toBe(303);
  });
});

describe('console forms', () => {
  it('a form without its CSRF token, or with another session\'s, is refused with a 403 page and changes nothing', async () => {
    const admin = await withPassword(aSuperAdmin);
    const target = await aUser();
    const b = await signedIn(admin);
    const other = await signedIn(await withPassword(aSuperAdmin));
    await other.get(`/console/users/${target.id}`);
    const foreign = other.csrf(`/console/users/${target.id}/suspend`);
    for (const csrf of [undefined, 'forged.token', foreign]) {
      const res = await b.request('POST', `/console/users/${target.id}/suspend`, csrf === undefined ? { reason: 'x' } : { csrf, reason: 'x' });
      expect(res.status).toBe(403);
      expect(res.text).toContain('The form has expired');
    }
    expect((await get(`/v1/api/admin/users/${target.id}`, { token: admin.token })).body.enabled).toBe(true);
  });

  it('a POST from another site (Origin, Sec-Fetch-Site) is refused with the 403 page, sign-in included', async () => {
    const admin = await withPassword(aSuperAdmin);
    const target = await aUser();
    const b = await signedIn(admin);
    const action = `/console/users/${target.id}/suspend`;
    const crossSite: Record<string, string>[] = [{ Origin: 'https://evil.example' }, { Origin: 'null' }, { 'Sec-Fetch-Site': 'cross-site' }, { 'Sec-Fetch-Site': 'same-site' }];
    for (const headers of crossSite) {
      await b.get(`/console/users/${target.id}`);
      const res = await b.request('POST', action, { csrf: b.csrf(action), reason: 'x' }, headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.text).toContain('The form has expired');
    }
    expect((await get(`/v1/api/admin/users/${target.id}`, { token: admin.token })).body.enabled).toBe(true);
    const login = new Browser();
    await login.get('/console/login');
    const refused = await login.request('POST', '/console/login', { csrf: login.csrf(), email: admin.email, password: PASSWORD }, { Origin: 'https://evil.example' });
    expect(refused.status).toBe(403);
    // A browser's own form: Sec-Fetch-Site same-origin decides, even with the Origin null that Chromium
    // sends under the pages' no-referrer policy.
    await b.get(`/console/users/${target.id}`);
    const ok = await b.request('POST', action, { csrf: b.csrf(action), reason: 'fraud' }, { Origin: 'null', 'Sec-Fetch-Site': 'same-origin' });
    expect(ok.status).toBe(303);
    expect((await get(`/v1/api/admin/users/${target.id}`, { token: admin.token })).body.enabled).toBe(false);
  });

  it('a form token is valid for its own action only', async () => {
    const admin = await withPassword(aSuperAdmin);
    const [one, two] = [await aUser(), await aUser()];
    const b = await signedIn(admin);
    await b.get(`/console/users/${one.id}`);
    const forOne = b.csrf(`/console/users/${one.id}/suspend`);
    for (const action of [`/console/users/${two.id}/suspend`, `/console/users/${one.id}/roles`, '/console/logout']) {
      const res = await b.request('POST', action, { csrf: forOne, reason: 'x', roles: 'ROLE_CLIENT' });
      expect(res.status, action).toBe(403);
    }
    expect((await get(`/v1/api/admin/users/${two.id}`, { token: admin.token })).body.enabled).toBe(true);
    expect((await b.get('/console')).status).toBe(200); // still signed in
  });

  it('the same form submitted twice is applied once', async () => {
    const admin = await withPassword(anAdmin);
    const target = await aUser();
    const b = await signedIn(admin);
    await b.get(`/console/users/${target.id}`);
    const csrf = b.csrf(`/console/users/${target.id}/suspend`);
    const [first, second] = await Promise.all([
      b.request('POST', `/console/users/${target.id}/suspend`, { csrf, reason: 'fraud' }),
      b.request('POST', `/console/users/${target.id}/suspend`, { csrf, reason: 'fraud' }),
    ]);
    expect([first.status, second.status]).toEqual([303, 303]);
    const audits = await db().select().from(auditLogs).where(eq(auditLogs.targetId, String(target.id)));
    expect(audits.filter((a) => a.action === 'USER_SUSPENDED')).toHaveLength(1);
    const page = await b.get(`/console/users/${target.id}`);
    expect(page.text).toMatch(/already submitted|suspended\./);
  });

  it('bad input shows the rule\'s message next to the field and keeps what was typed', async () => {
    const admin = await withPassword(aSuperAdmin);
    const user = await aUser({ kycStatus: 'PENDING' });
    const record = await aPendingKycRecord(user.id);
    const b = await signedIn(admin);
    const res = await b.submit(`/console/kyc/${record.id}`, `/console/kyc/${record.id}/reject`, { reason: '   ' });
    expect(res.status).toBe(400);
    expect(res.text).toContain('<span class="error-text" id="f-reason-error">Required</span>');

    const long = 'x'.repeat(501);
    const tooLong = await b.submit(`/console/kyc/${record.id}`, `/console/kyc/${record.id}/reject`, { reason: long });
    expect(tooLong.status).toBe(400);
    expect(tooLong.text).toContain(`>${long}</textarea>`);
    expect(tooLong.text).toMatch(/id="f-reason-error">[^<]*500/);
    expect((await db().select().from(kycRecords).where(eq(kycRecords.id, record.id)))[0].status).toBe('PENDING');
  });
});

describe('console actions', () => {
  it('KYC: the queue lists the pending record with its document inline; approving grants ROLE_VERIFIED_USER', async () => {
    const admin = await withPassword(aSuperAdmin);
    const user = await aUser({ kycStatus: 'PENDING' });
    const record = await aPendingKycRecord(user.id);
    const key = `kyc/${crypto.randomUUID()}`;
    await env.UPLOADS.put(key, new Uint8Array([0x89, 0x50, 0x4e, 0x47]));
    const [file] = await db().insert(files).values({ ownerId: user.id, purpose: 'KYC_DOCUMENT', storageKey: key, contentType: 'image/png', sizeBytes: 4, originalName: 'id.png' }).returning();
    const b = await signedIn(admin);

    const queue = await b.get('/console/kyc');
    expect(queue.text).toContain(`href="/console/kyc/${record.id}"`);
    const detail = await b.get(`/console/kyc/${record.id}`);
    expect(detail.text).toContain(`<img src="/console/files/${file.id}"`);
    const doc = await b.get(`/console/files/${file.id}`);
    expect(doc.status).toBe(200);
    expect(doc.headers.get('Content-Type')).toBe('image/png');
    expect((await new Browser().get(`/console/files/${file.id}`)).status).toBe(303);

    const res = await b.request('POST', `/console/kyc/${record.id}/approve`, { csrf: b.csrf(`/console/kyc/${record.id}/approve`) });
    expect(res.status).toBe(303);
    expect(res.location).toBe(`/console/kyc/${record.id}`);
    const after = await b.get(`/console/kyc/${record.id}`);
    expect(after.text).toContain(`KYC record ${record.id} approved.`);
    const me = await get(`/v1/api/admin/users/${user.id}`, { token: admin.token });
    expect(me.body.roles).toContain('ROLE_VERIFIED_USER');
    expect(me.body.kycStatus).toBe('VERIFIED');
    const [entry] = await db().select().from(auditLogs).where(eq(auditLogs.action, 'KYC_APPROVED_BY_ADMIN'));
    expect(entry).toMatchObject({ actorId: admin.id, ip: b.ip });
  });

  it('an admin (not super-admin) cannot use the KYC queue, as in the API, and the menu does not offer it', async () => {
    const b = await signedIn(await withPassword(anAdmin));
    expect((await b.get('/console/kyc')).status).toBe(403);
    const overview = await b.get('/console');
    expect(overview.text).toContain('href="/console/disputes"');
    expect(overview.text).not.toContain('href="/console/kyc"');
  });

  it("a dispute shows the parties' conversation beside the dispute's own messages", async () => {
    const admin = await withPassword(anAdmin);
    const sender = await aUser();
    const carrier = await aCarrier();
    const { reservation } = await aReservation({ sender, carrier, status: 'IN_TRANSIT', payment: stripe, ...FIFTY_EUR });
    const chat = await post(`/v1/api/bookings/${reservation.id}/messages`, { body: 'The vase is wrapped twice, handle with care' }, { token: sender.token });
    expect(chat.status, JSON.stringify(chat.body)).toBe(201);
    const opened = await post('/v1/api/disputes', { reservationId: reservation.id, reason: 'DAMAGED', description: 'The parcel arrived broken.' }, { token: sender.token });
    expect(opened.status).toBe(201);
    const page = await (await signedIn(admin)).get(`/console/disputes/${opened.body.id}`);
    const conversation = page.text.slice(page.text.indexOf('id="conversation"'));
    expect(conversation).toContain('The vase is wrapped twice, handle with care');
    expect(conversation).toContain(chat.body.authorName);
  });

  it('dispute: RELEASE_TO_CARRIER from the console moves the carrier amount to the wallet (read through the API)', async () => {
    const { admin, carrier, id } = await anOpenDispute();
    const b = await signedIn(admin);

    // A partial refund without an amount is refused next to the amount field, the note kept.
    const bad = await b.submit(`/console/disputes/${id}`, `/console/disputes/${id}/resolve`, { resolution: 'PARTIAL_REFUND', amount: '', note: 'Half' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('id="f-amount-error"');
    expect(bad.text).toContain('>Half</textarea>');

    const res = await b.submit(`/console/disputes/${id}`, `/console/disputes/${id}/resolve`, { resolution: 'RELEASE_TO_CARRIER', amount: '', note: 'Evidence checked' });
    expect(res.status).toBe(303);
    const wallet = await get('/v1/api/user/me/wallet', { token: carrier.token });
    expect(wallet.body.balance).toBe(42.5);
    const dispute = await get(`/v1/api/disputes/${id}`, { token: admin.token });
    expect(dispute.body).toMatchObject({ status: 'RESOLVED', resolution: 'RELEASE_TO_CARRIER', reservationStatus: 'DELIVERED' });
  });

  it('dispute: PARTIAL_REFUND with a decimal comma refunds that amount to the sender', async () => {
    const { admin, id } = await anOpenDispute();
    const b = await signedIn(admin);
    const res = await b.submit(`/console/disputes/${id}`, `/console/disputes/${id}/resolve`, { resolution: 'PARTIAL_REFUND', amount: '12,50', note: 'Half the vase' });
    expect(res.status).toBe(303);
    const dispute = await get(`/v1/api/disputes/${id}`, { token: admin.token });
    expect(dispute.body).toMatchObject({ status: 'RESOLVED', resolution: 'PARTIAL_REFUND', refundAmount: 12.5 });
  });

  it('dispute: a protected parcel offers PROTECTION_PAYOUT with its coverage; paid to the sender wallet (read through the API)', async () => {
    const admin = await withPassword(anAdmin);
    const sender = await aUser();
    const { reservation } = await aReservation({
      sender,
      status: 'IN_TRANSIT',
      payment: stripe,
      ...FIFTY_EUR,
      set: { protectionPremiumCents: 300, protectionDeclaredCents: 10_000, protectionCoverageCents: 10_000 },
    });
    const opened = await post('/v1/api/disputes', { reservationId: reservation.id, reason: 'LOST', description: 'Never arrived.' }, { token: sender.token });
    const id = opened.body.id as number;
    const b = await signedIn(admin);
    const page = await b.get(`/console/disputes/${id}`);
    expect(page.text).toContain('value="PROTECTION_PAYOUT"');
    expect(page.text).toContain('Protected parcel, coverage €100.00: a protection payout pays up to that amount from the protection reserve.');
    const res = await b.submit(`/console/disputes/${id}`, `/console/disputes/${id}/resolve`, { resolution: 'PROTECTION_PAYOUT', amount: '75,50', note: 'Lost parcel' });
    expect(res.status).toBe(303);
    const wallet = await get('/v1/api/user/me/wallet', { token: sender.token });
    expect(wallet.body.balance).toBe(75.5);
    expect((await b.get(`/console/disputes/${id}`)).text).toContain('<dt>Protection payout</dt><dd id="protection-payout">€75.50</dd>');
    const unprotected = await anOpenDispute();
    expect((await (await signedIn(unprotected.admin)).get(`/console/disputes/${unprotected.id}`)).text).not.toContain('PROTECTION_PAYOUT');
  });

  it('a user suspended from the console cannot log in', async () => {
    const admin = await withPassword(anAdmin);
    const user = await withPassword(aUser);
    const b = await signedIn(admin);
    const res = await b.submit(`/console/users/${user.id}`, `/console/users/${user.id}/suspend`, { reason: 'chargebacks' });
    expect(res.status).toBe(303);
    const login = await post('/v1/api/auth/login', { email: user.email, password: PASSWORD }, { headers: { 'CF-Connecting-IP': randomIp() } });
    expect(login.status).toBe(403);
    const entries = await db().select().from(auditLogs).where(eq(auditLogs.targetId, String(user.id)));
    expect(entries.find((e) => e.action === 'USER_SUSPENDED')).toMatchObject({ actorId: admin.id, ip: b.ip, details: { reason: 'chargebacks' } });
  });

  it("a carrier suspended from the console loses their bookings not yet deposited, refunded in full, as through the API", async () => {
    const admin = await withPassword(anAdmin);
    const carrier = await withPassword(aCarrier);
    const { reservation } = await aReservation({ carrier, status: 'PAID', payment: stripe, ...FIFTY_EUR });
    const b = await signedIn(admin);
    const res = await b.submit(`/console/users/${carrier.id}`, `/console/users/${carrier.id}/suspend`, { reason: 'chargebacks' });
    expect(res.status).toBe(303);
    const [row] = await db().select().from(reservations).where(eq(reservations.id, reservation.id));
    expect(row).toMatchObject({ status: 'CANCELLED', paymentStatus: 'VOIDED', cancellationReason: 'CARRIER_SUSPENDED', cancelledBy: admin.id });
  });

  it('a suspended operator\'s console session ends at once', async () => {
    const superAdmin = await withPassword(aSuperAdmin);
    const admin = await withPassword(anAdmin);
    const b = await signedIn(admin);
    expect((await b.get('/console')).status).toBe(200);
    const res = await post(`/v1/api/admin/users/${admin.id}/suspend`, { reason: 'left' }, { token: superAdmin.token });
    expect(res.status).toBe(200);
    expect((await b.get('/console')).status).toBe(303);
    const [session] = await db().select().from(consoleSessions).where(eq(consoleSessions.userId, admin.id));
    expect(session.revokedReason).toBe('SUSPENDED');
  });

  it('an operator whose role is removed loses the console at once', async () => {
    const superAdmin = await withPassword(aSuperAdmin);
    const admin = await withPassword(anAdmin);
    const b = await signedIn(admin);
    const put = await exports.default.fetch(
      new Request(`${BASE}/v1/api/superadmin/users/${admin.id}/roles`, {
        method: 'PUT',
        headers: { Authorization: `Bearer ${superAdmin.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ roles: ['ROLE_CLIENT'] }),
      }),
    );
    expect(put.status).toBe(200);
    expect((await b.get('/console')).status).toBe(303);
  });

  it('agencies: suspending needs a reason (shown next to the field), then suspends; a pending document is approved', async () => {
    const superAdmin = await withPassword(aSuperAdmin);
    const owner = await aUser();
    const agency = await anAgency(owner);
    const file = await aFile(owner, { purpose: 'AGENCY_DOCUMENT', agencyId: agency.id });
    await db().insert(agencyDocuments).values({ fileId: file.id, documentType: AGENCY_DOCUMENT_TYPES[0] });
    const b = await signedIn(superAdmin);

    const empty = await b.submit('/console/agencies', `/console/agencies/${agency.id}/suspend`, { reason: '' });
    expect(empty.status).toBe(400);
    expect(empty.text).toContain(`<span class="error-text" id="agency-${agency.id}-reason-error">Required</span>`);
    const res = await b.submit('/console/agencies', `/console/agencies/${agency.id}/suspend`, { reason: 'Forged licence' });
    expect(res.status).toBe(303);
    const listed = await get(`/v1/api/agencies/${agency.id}`, { token: superAdmin.token });
    expect(listed.body.status).toBe('SUSPENDED');

    const approved = await b.submit('/console/agencies', `/console/agencies/documents/${file.id}/approve`);
    expect(approved.status).toBe(303);
    const [doc] = await db().select().from(agencyDocuments).where(eq(agencyDocuments.fileId, file.id));
    expect(doc).toMatchObject({ status: 'VERIFIED', reviewedBy: superAdmin.id });
  });

  it('every list page answers 200 for a super-admin, and an unknown reservation number says so next to the field', async () => {
    const b = await signedIn(await withPassword(aSuperAdmin));
    for (const path of ['/console/disputes', '/console/withdrawals', '/console/users?q=demo', '/console/agencies', '/console/reservations', '/console/deliveries', '/console/audit']) {
      expect((await b.get(path)).status, path).toBe(200);
    }
    const missing = await b.get('/console/reservations?number=NOPE-1');
    expect(missing.status).toBe(404);
    expect(missing.text).toContain('id="q-number-error">No reservation with this number.');
  });
});

describe('console: deliveries and roles', () => {
  /** A DEAD e-mail to Zoe, whose verification link must never show. */
  const aDeadDelivery = (overrides: Parameters<typeof deadDelivery>[0] = {}) =>
    deadDelivery({ to: `zoe.${crypto.randomUUID().slice(0, 8)}@example.com`, locale: 'en', payload: { firstName: 'Zoe', path: '/verify-email?token=console-secret-token' }, lastError: 'E_DELIVERY_FAILED: mailbox unavailable', ...overrides });
  const deliveryOf = async (id: number) => (await db().select().from(deliveries).where(eq(deliveries.id, id)))[0];

  it('the deliveries page lists failed and dead messages with the provider reason and the masked address; filters; a SENT one only with its status', async () => {
    const template = `KIND_${crypto.randomUUID().slice(0, 6).toUpperCase()}`;
    const dead = await aDeadDelivery({ template });
    const failed = await aDeadDelivery({ template, channel: 'SMS', to: '+33612345678', status: 'FAILED', attempts: 1, lastError: 'Twilio 21211: invalid To number' });
    const sent = await aDeadDelivery({ template, status: 'SENT', attempts: 1, lastError: null, sentAt: new Date().toISOString() });
    const b = await signedIn(await withPassword(aSuperAdmin));
    const res = await b.get(`/console/deliveries?template=${template}`);
    expect(res.status).toBe(200);
    expect(res.text).toContain('aria-current="page">Deliveries</a>');
    expect(res.text).toContain('E_DELIVERY_FAILED: mailbox unavailable');
    expect(res.text).toContain('Twilio 21211: invalid To number');
    expect(res.text).toContain('<span class="addr">z***@example.com</span>');
    expect(res.text).toContain('<span class="addr">+33******78</span>');
    expect(res.text).not.toContain(dead.to);
    expect(res.text).not.toContain('console-secret-token');
    expect(res.text).toContain(`action="/console/deliveries/${dead.id}/retry"`);
    expect(res.text).toContain(`action="/console/deliveries/${failed.id}/retry"`);
    expect(res.text).not.toContain(`<td>${sent.id}</td>`);
    expect(res.text).toContain(`<td>${dead.id}</td>`);
    const sms = await b.get(`/console/deliveries?template=${template}&channel=SMS`);
    expect(sms.text).toContain(`/console/deliveries/${failed.id}/retry`);
    expect(sms.text).not.toContain(`/console/deliveries/${dead.id}/retry`);
    const all = await b.get(`/console/deliveries?template=${template}&status=ALL`);
    expect(all.text).toContain('<span class="badge ok" data-code="SENT">Sent</span>');
    expect(all.text).not.toContain(`action="/console/deliveries/${sent.id}/retry"`);
  });

  it('a list pages from the query (size 1: one row), a bad value falls back to the defaults; an action answers in the page\'s language', async () => {
    const template = `KIND_${crypto.randomUUID().slice(0, 6).toUpperCase()}`;
    const ids = [(await aDeadDelivery({ template })).id, (await aDeadDelivery({ template })).id];
    const b = await signedIn(await withPassword(aSuperAdmin));
    const shown = (text: string) => ids.filter((id) => text.includes(`<td>${id}</td>`));
    expect(shown((await b.get(`/console/deliveries?template=${template}&size=1`)).text)).toHaveLength(1);
    expect(shown((await b.get(`/console/deliveries?template=${template}&size=abc&sort=password,asc`)).text)).toEqual(ids);
    b.language = 'fr';
    const retried = await b.submit(`/console/deliveries?template=${template}`, `/console/deliveries/${ids[0]}/retry`);
    expect([retried.status, retried.location]).toEqual([303, '/console/deliveries']);
    expect((await b.get('/console/deliveries')).text).toContain(`Envoi ${ids[0]} remis en file.`);
  });

  it('retry from the console goes through the API\'s service: QUEUED again, audited with the operator, a double submit applies once', async () => {
    const admin = await withPassword(aSuperAdmin);
    const dead = await aDeadDelivery({ template: 'NO_SUCH_TEMPLATE' });
    const b = await signedIn(admin);
    await b.get(`/console/deliveries?template=NO_SUCH_TEMPLATE`);
    const csrf = b.csrf(`/console/deliveries/${dead.id}/retry`);
    const [first, second] = await Promise.all([
      b.request('POST', `/console/deliveries/${dead.id}/retry`, { csrf }),
      b.request('POST', `/console/deliveries/${dead.id}/retry`, { csrf }),
    ]);
    expect([first.status, second.status]).toEqual([303, 303]);
    expect(first.location).toBe('/console/deliveries');
    const audits = await db().select().from(auditLogs).where(eq(auditLogs.targetId, String(dead.id)));
    expect(audits.filter((a) => a.action === 'DELIVERY_RETRIED').map((a) => a.actorId)).toEqual([admin.id]);
    // Sent again by the queue; the template still does not exist, so it is FAILED with that reason.
    let row = await deliveryOf(dead.id);
    for (let i = 0; i < 100 && row.status === 'QUEUED'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      row = await deliveryOf(dead.id);
    }
    expect(row).toMatchObject({ status: 'FAILED', attempts: 1, lastError: 'No template named NO_SUCH_TEMPLATE' });
  });

  it('a retry the service refuses shows its message (409), without a CSRF token nothing changes, and an admin cannot use the page', async () => {
    const admin = await withPassword(aSuperAdmin);
    // A page shown while the message was DEAD, submitted after it went back to QUEUED.
    const template = `STALE_${crypto.randomUUID().slice(0, 8).toUpperCase()}`;
    const queued = await aDeadDelivery({ template });
    const b = await signedIn(admin);
    await b.get(`/console/deliveries?template=${template}`);
    const csrf = b.csrf(`/console/deliveries/${queued.id}/retry`);
    await db().update(deliveries).set({ status: 'QUEUED', attempts: 0, lastError: null }).where(eq(deliveries.id, queued.id));
    const refused = await b.request('POST', `/console/deliveries/${queued.id}/retry`, { csrf });
    expect(refused.status).toBe(409);
    expect(refused.text).toContain('The delivery is QUEUED; only a FAILED or DEAD delivery can be retried');

    const dead = await aDeadDelivery();
    const forged = await b.request('POST', `/console/deliveries/${dead.id}/retry`, { csrf: 'forged.token' });
    expect(forged.status).toBe(403);
    expect(await deliveryOf(dead.id)).toMatchObject({ status: 'DEAD', attempts: 5 });

    const a = await signedIn(await withPassword(anAdmin));
    expect((await a.get('/console/deliveries')).status).toBe(403);
    expect((await a.get('/console')).text).not.toContain('href="/console/deliveries"');
  });

  it("a super-admin changes a user's roles from the user page; the API confirms them; an admin gets no roles form and is refused", async () => {
    const admin = await withPassword(aSuperAdmin);
    const target = await aUser();
    const b = await signedIn(admin);
    const page = await b.get(`/console/users/${target.id}`);
    expect(page.text).toContain(`action="/console/users/${target.id}/roles"`);
    const res = await b.request('POST', `/console/users/${target.id}/roles`, { csrf: b.csrf(`/console/users/${target.id}/roles`), roles: ['ROLE_VERIFIED_USER', 'ROLE_ADMIN'] });
    expect(res.status).toBe(303);
    const api = await get(`/v1/api/admin/users/${target.id}`, { token: admin.token });
    expect(api.body.roles).toEqual(['ROLE_CLIENT', 'ROLE_VERIFIED_USER', 'ROLE_ADMIN']);
    const [entry] = await db().select().from(auditLogs).where(eq(auditLogs.targetId, String(target.id)));
    expect(entry).toMatchObject({ action: 'ROLES_CHANGED', actorId: admin.id });

    const other = await aUser();
    const a = await signedIn(await withPassword(anAdmin));
    const adminPage = await a.get(`/console/users/${other.id}`);
    expect(adminPage.text).not.toContain(`/console/users/${other.id}/roles`);
    const denied = await a.request('POST', `/console/users/${other.id}/roles`, { csrf: a.csrf(), roles: ['ROLE_SUPERADMIN'] });
    expect(denied.status).toBe(403);
    expect((await get(`/v1/api/admin/users/${other.id}`, { token: admin.token })).body.roles).toEqual(['ROLE_CLIENT']);
  });
});

describe('the demo seed', () => {
  it('leaves a KYC record to review (with its document), an open dispute (with evidence and messages) and a DEAD e-mail, once however often it runs', async () => {
    const app = createApp();
    const devEnv = { ...env, ENVIRONMENT: 'development', STRIPE_SECRET_KEY: '' } as Env;
    const seed = () => app.request(`${BASE}/v1/api/dev/seed`, { method: 'POST' }, devEnv);
    expect((await seed()).status).toBe(200);
    expect((await seed()).status).toBe(200);
    const [kycUser] = await db().select().from(users).where(eq(users.email, DEMO_KYC_EMAIL));
    const records = await db().select().from(kycRecords).where(eq(kycRecords.userId, kycUser.id));
    expect(records).toMatchObject([{ status: 'PENDING' }]);
    expect(await db().select().from(files).where(eq(files.ownerId, kycUser.id))).toHaveLength(1);
    const [r] = await db().select().from(reservations).where(eq(reservations.reservationNumber, DEMO_DISPUTE_RESERVATION));
    expect(r.status).toBe('DISPUTED');
    const open = await db().select().from(disputes).where(eq(disputes.reservationId, r.id));
    expect(open).toMatchObject([{ status: 'OPEN' }]);
    expect(await db().select().from(disputeMessages).where(eq(disputeMessages.disputeId, open[0].id))).toHaveLength(2);
    const dead = await db().select().from(deliveries).where(eq(deliveries.lastError, DEMO_DEAD_DELIVERY_REASON));
    expect(dead).toMatchObject([{ status: 'DEAD', attempts: 5, channel: 'EMAIL', to: 'carrier@demo.local', template: 'PASSWORD_CHANGED' }]);
  });
});

describe('console: words, identity documents, searches', () => {
  it('a French page names statuses in French, agreed with their record, keeps the code for the colour, and an empty list shows no "Page 0 sur 0"', async () => {
    const b = await signedIn(await withPassword(aSuperAdmin));
    b.language = 'fr';
    const sender = await aUser();
    const { reservation } = await aReservation({ sender, carrier: await aCarrier(), status: 'CANCELLED' });
    const list = await b.get(`/console/reservations?status=CANCELLED`);
    expect(list.text).toContain('<span class="badge err" data-code="CANCELLED">Annulée</span>');
    expect(list.text).toContain('<option value="PENDING_PAYMENT">En attente de paiement</option>');
    expect(list.text).toContain(`<a class="ref" href="/console/reservations/${reservation.id}">${reservation.reservationNumber}</a>`);
    expect(list.text).not.toContain('>CANCELLED<');
    const withdrawals = await b.get('/console/withdrawals?status=FAILED');
    expect(withdrawals.text).toContain('<option value="FAILED" selected="">Échoué</option>');
    const empty = await b.get(`/console/users?q=${'nobody-'.repeat(5)}`);
    expect(empty.status).toBe(200);
    expect(empty.text).toContain('Rien à afficher.');
    expect(empty.text).not.toContain('Page 0');
    const one = await b.get(`/console/users?q=${encodeURIComponent(sender.email)}`);
    expect(one.text).toContain('Page 1 sur 1 · 1 élément<');
  });

  it("a reservation's ledger lines read in the operator's language; an entry from before their keys were kept shows its English", async () => {
    const b = await signedIn(await withPassword(aSuperAdmin));
    const { reservation } = await aReservation({ sender: await aUser(), carrier: await aCarrier(), status: 'PAID', payment: stripe, ...FIFTY_EUR });
    const number = reservation.reservationNumber;
    b.language = 'fr';
    expect((await b.get(`/console/reservations/${reservation.id}`)).text).toContain(`<span class="muted">Paiement de la réservation ${number} conservé sous séquestre</span>`);
    b.language = 'en';
    expect((await b.get(`/console/reservations/${reservation.id}`)).text).toContain(`<span class="muted">Payment for reservation ${number} held in escrow</span>`);
    await db().update(ledgerEntries).set({ descriptionText: null }).where(eq(ledgerEntries.reservationId, reservation.id));
    b.language = 'fr';
    expect((await b.get(`/console/reservations/${reservation.id}`)).text).toContain(`<span class="muted">Payment for reservation ${number} held in escrow</span>`);
  });

  it('a search of 49 characters or more answers (console and API), never a 500; over 100 the API says 400', async () => {
    const superAdmin = await withPassword(aSuperAdmin);
    const b = await signedIn(superAdmin);
    const long = 'a-very-long-search-text-pasted-by-an-operator-who-means-well';
    expect(long.length).toBeGreaterThan(49);
    const page = await b.get(`/console/users?q=${long}`);
    expect(page.status).toBe(200);
    const api = await get(`/v1/api/admin/users?q=${long}`, { token: superAdmin.token });
    expect(api.status).toBe(200);
    expect(api.body.page.totalElements).toBe(0);
    const found = await get(`/v1/api/admin/users?q=${encodeURIComponent(superAdmin.email.toUpperCase())}`, { token: superAdmin.token });
    expect(found.body.content.map((u: { id: number }) => u.id)).toEqual([superAdmin.id]);
    const tooLong = await get(`/v1/api/admin/users?q=${'x'.repeat(101)}`, { token: superAdmin.token });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.fieldErrors[0].field).toBe('q');
    expect((await b.get(`/console/users?q=${'x'.repeat(500)}`)).status).toBe(200);
  });

  it('an administrator who is not a super-administrator cannot open an identity document in the console; a super-administrator gets it sandboxed', async () => {
    const user = await aUser();
    const key = `kyc/${crypto.randomUUID()}`;
    await env.UPLOADS.put(key, new Uint8Array([0x89, 0x50, 0x4e, 0x47]));
    const [file] = await db().insert(files).values({ ownerId: user.id, purpose: 'KYC_DOCUMENT', storageKey: key, contentType: 'image/png', sizeBytes: 4 }).returning();
    const admin = await signedIn(await withPassword(anAdmin));
    expect((await admin.get(`/console/files/${file.id}`)).status).toBe(403);
    const superAdmin = await signedIn(await withPassword(aSuperAdmin));
    const doc = await superAdmin.get(`/console/files/${file.id}`);
    expect(doc.status).toBe(200);
    expect(doc.headers.get('Content-Security-Policy')).toBe('sandbox');
    expect(doc.headers.get('Cache-Control')).toBe('private, no-store');
  });

  it('the site has an icon: /favicon.ico is not a 404', async () => {
    const res = await exports.default.fetch(new Request(`${BASE}/favicon.ico`));
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('image/svg+xml');
    expect(await res.text()).toMatch(/^<svg /);
  });
});

describe('erasing an account from the console (CONTRACT section 24)', () => {
  it('is refused while a reservation is unfinished, with the reason on the page, and erases nothing', async () => {
    const root = await withPassword(aSuperAdmin);
    const sender = await aUser();
    const { reservation } = await aReservation({ sender, status: 'CONFIRMED' });
    const b = await signedIn(root);
    b.language = 'fr';
    const userPage = await b.get(`/console/users/${sender.id}`);
    expect(userPage.text).toContain('Effacer les données personnelles');
    expect(userPage.text).toContain(`Ne peut pas encore être effacé : Le compte ne peut pas être supprimé tant qu’une réservation est en cours (${reservation.reservationNumber})`);
    const res = await b.request('POST', `/console/users/${sender.id}/erase`, { csrf: b.csrf(`/console/users/${sender.id}/erase`), confirmEmail: sender.email });
    expect(res.status).toBe(409);
    expect(res.text).toContain(`Le compte ne peut pas être supprimé tant qu’une réservation est en cours (${reservation.reservationNumber})`);
    const [row] = await db().select().from(users).where(eq(users.id, sender.id));
    expect(row).toMatchObject({ email: sender.email, deletedAt: null });
    const entries = await db().select().from(auditLogs).where(eq(auditLogs.targetId, String(sender.id)));
    expect(entries.filter((e) => e.action === 'ACCOUNT_DELETED')).toEqual([]);
  });

  it('asks for the account’s e-mail address, then erases it like DELETE /user/me, audited with the operator as actor', async () => {
    const root = await withPassword(aSuperAdmin);
    const user = await withPassword(aUser);
    const { reservation } = await aReservation({ sender: user, status: 'DELIVERED' });
    const b = await signedIn(root);
    const action = `/console/users/${user.id}/erase`;
    const mismatch = await b.submit(`/console/users/${user.id}`, action, { confirmEmail: 'someone-else@example.test' });
    expect(mismatch.status).toBe(400);
    expect(mismatch.text).toContain('Not this account’s e-mail address');
    expect((await db().select().from(users).where(eq(users.id, user.id)))[0].deletedAt).toBeNull();

    const res = await b.submit(`/console/users/${user.id}`, action, { confirmEmail: user.email.toUpperCase() });
    expect(res.status).toBe(303);
    expect(res.location).toBe(`/console/users/${user.id}`);
    const after = await b.get(`/console/users/${user.id}`);
    expect(after.text).toContain(`Account ${user.id} erased.`);
    expect(after.text).toContain('Personal data erased on');
    expect(after.text).not.toContain(`action="${action}"`);

    const [row] = await db().select().from(users).where(eq(users.id, user.id));
    expect(row).toMatchObject({ email: `deleted-user-${user.id}@deleted.invalid`, firstName: 'Deleted', passwordHash: null, enabled: false });
    expect(row.deletedAt).not.toBeNull();
    const [kept] = await db().select().from(reservations).where(eq(reservations.id, reservation.id));
    expect(kept.senderId).toBe(user.id); // the money record stays, pointing at the pseudonymised row
    const entries = await db().select().from(auditLogs).where(eq(auditLogs.targetId, String(user.id)));
    expect(entries.find((e) => e.action === 'ACCOUNT_DELETED')).toMatchObject({ actorId: root.id, targetType: 'USER', ip: b.ip, details: { erasedBy: 'SUPERADMIN' } });
    expect((await get('/v1/api/user/me', { token: user.token })).status).toBe(401);
    expect((await post('/v1/api/auth/login', { email: user.email, password: PASSWORD }, { headers: { 'CF-Connecting-IP': randomIp() } })).status).toBe(401);
  });

  it('is for super-administrators only: an admin sees no erase form, and the service refuses them', async () => {
    const admin = await withPassword(anAdmin);
    const user = await aUser();
    const b = await signedIn(admin);
    const page = await b.get(`/console/users/${user.id}`);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain(`/console/users/${user.id}/erase`);
    await expect(eraseAccountAsOperator(depsOf(env), { id: admin.id, roles: ['ROLE_CLIENT', 'ROLE_ADMIN'] }, user.id, null)).rejects.toMatchObject({ errorCode: 'ACCESS_DENIED' });
    const root = await aSuperAdmin();
    await eraseAccountAsOperator(depsOf(env), { id: root.id, roles: ['ROLE_CLIENT', 'ROLE_SUPERADMIN'] }, user.id, null);
    await expect(eraseAccountAsOperator(depsOf(env), { id: root.id, roles: ['ROLE_CLIENT', 'ROLE_SUPERADMIN'] }, user.id, null)).rejects.toMatchObject({
      errorCode: 'INVALID_STATE',
      status: 409,
    });
  });
});

describe('the Métriques page', () => {
  it('shows a super-admin the last hour and day in French; an admin gets the 403 page and no menu entry', async () => {
    const root = await withPassword(aSuperAdmin);
    const b = await signedIn(root);
    b.language = 'fr';
    const res = await b.get('/console/metrics');
    expect(res.status).toBe(200);
    for (const text of ['Métriques', 'Dernière heure', 'Dernières 24 heures', 'Taux d’erreur (5xx)', 'Latence p95', 'Paiements échoués', 'Virements échoués', 'Messages abandonnés', 'Webhooks refusés']) {
      expect(res.text).toContain(text);
    }
    expect(res.text).toContain('Exécution locale');
    // The requests of this test file are counted: the sign-in and this page at least.
    const requests = res.text.match(/<td>Requêtes<\/td><td class="num">([\d\s  ]+)<\/td>/);
    expect(Number(requests?.[1].replace(/\D/g, ''))).toBeGreaterThan(0);

    const admin = await signedIn(await withPassword(anAdmin));
    const refused = await admin.get('/console/metrics');
    expect(refused.status).toBe(403);
    expect((await admin.get('/console')).text).not.toContain('href="/console/metrics"');
  });
});
