// Privacy operations (CONTRACT section 27): the retention rules for offers' recipient details,
// travel proofs, phone codes and audit-log IP addresses at their boundaries; each retention run
// recorded with its counts (or its error) and shown in the console; a user's export run by a
// super-admin from the console for a request received by mail, downloaded there, both audited.
import { env } from 'cloudflare:workers';
import { and, desc, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { database } from '../src/db/client';
import { depsOf } from '../src/env';
import { announcements, auditLogs, dataExports, disputes, files, offers, phoneVerificationCodes, retentionRuns, travelProofs } from '../src/db/schema';
import { buildPendingExports } from '../src/features/privacy/export.service';
import { runRetention } from '../src/features/privacy/privacy.jobs';
import { ERASED_RECIPIENT, eraseAuditIps, eraseOfferRecipients, purgePhoneCodes, purgeTravelProofs, RETENTION_DAYS } from '../src/features/privacy/retention';
import { hashPassword } from '../src/lib/password';
import { PASSWORD } from './helpers/auth';
import { Browser } from './helpers/console-browser';
import { aCarrier, aFile, anAdmin, aReservation, aSuperAdmin, aTrip, aUser } from './helpers/factories';
import { countingEnv } from './helpers/db';

const db = database(env.DB);
const deps = () => depsOf(env);
const DAY_MS = 24 * 60 * 60 * 1000;
const now = new Date();
const inside = (days: number) => new Date(now.getTime() - days * DAY_MS + 60_000).toISOString();
const outside = (days: number) => new Date(now.getTime() - days * DAY_MS - 60_000).toISOString();
const dayOf = (iso: string) => iso.slice(0, 10);

afterEach(() => vi.restoreAllMocks());

const RECIPIENT = { firstName: 'Awa', lastName: 'Diop', email: 'awa@example.sn', phone: '+221771234567', address: 'Rue 10, Médina', city: 'Dakar', postalCode: null, instructions: 'Appeler avant' };

async function anOffer(status: 'PENDING' | 'DECLINED' | 'ACCEPTED' | 'EXPIRED', updatedAt: string) {
  const carrier = await aCarrier();
  const sender = await aUser();
  const trip = await aTrip(carrier);
  const [row] = await db
    .insert(offers)
    .values({
      announcementId: trip.id, senderId: sender.id, carrierId: carrier.id, status, reservedWeightG: 2000, pricePerKgMinor: 800, currency: 'EUR',
      details: { contentInfo: 'Vêtements', items: [], recipient: RECIPIENT, acknowledgedRestrictions: [], declarations: null },
      expiresAt: now.toISOString(), updatedAt,
    })
    .returning();
  return row;
}

async function aTravelProof(departureDate: string) {
  const carrier = await aCarrier();
  const trip = await aTrip(carrier, { departureDate, arrivalDate: departureDate, travelVerified: true });
  const storageKey = `test/${crypto.randomUUID()}`;
  await env.UPLOADS.put(storageKey, 'boarding pass');
  const file = await aFile(carrier, { purpose: 'TRAVEL_PROOF', storageKey });
  const [proof] = await db.insert(travelProofs).values({ announcementId: trip.id, fileId: file.id, submittedBy: carrier.id, status: 'APPROVED', reviewedAt: departureDate }).returning();
  return { trip, file, proof, carrier };
}

describe('the retention rules of CONTRACT 27', () => {
  it("erases an ended offer's recipient 30 days after it ended, once; a pending offer keeps it", async () => {
    const kept = await anOffer('DECLINED', inside(RETENTION_DAYS.offerRecipients));
    const erased = await anOffer('ACCEPTED', outside(RETENTION_DAYS.offerRecipients));
    const pending = await anOffer('PENDING', outside(RETENTION_DAYS.offerRecipients));
    await eraseOfferRecipients(deps(), now, 10_000);
    const of = async (id: number) => (await db.select().from(offers).where(eq(offers.id, id)))[0];
    expect((await of(kept.id)).details.recipient).toEqual(RECIPIENT);
    expect((await of(pending.id)).details.recipient).toEqual(RECIPIENT);
    const after = await of(erased.id);
    expect(after.details.recipient).toEqual(ERASED_RECIPIENT);
    expect(after.details.contentInfo).toBe('Vêtements');
    expect(after.detailsErasedAt).toBe(now.toISOString());
    // Once: the next run finds nothing left on it.
    expect(await eraseOfferRecipients(deps(), new Date(now.getTime() + 60_000), 10_000)).toBe(0);
  });

  it('deletes a proof of travel (R2, proof, upload) 90 days after departure, not while a dispute on the trip is open; the trip stays verified', async () => {
    const kept = await aTravelProof(dayOf(inside(RETENTION_DAYS.travelProofs - 1)));
    const purged = await aTravelProof(dayOf(outside(RETENTION_DAYS.travelProofs + 1)));
    const disputed = await aTravelProof(dayOf(outside(RETENTION_DAYS.travelProofs + 1)));
    const { reservation } = await aReservation({ trip: disputed.trip, status: 'DELIVERED' });
    await db.insert(disputes).values({ reservationId: reservation.id, openedBy: reservation.senderId, openerRole: 'SENDER', reason: 'DAMAGED', description: 'x', status: 'OPEN', previousStatus: 'DELIVERED', token: crypto.randomUUID() } as any);

    await purgeTravelProofs(deps(), now, 10_000);
    expect(await db.select().from(travelProofs).where(eq(travelProofs.id, purged.proof.id))).toEqual([]);
    expect(await db.select().from(files).where(eq(files.id, purged.file.id))).toEqual([]);
    expect(await env.UPLOADS.head(purged.file.storageKey)).toBeNull();
    expect((await db.select().from(announcements).where(eq(announcements.id, purged.trip.id)))[0].travelVerified).toBe(true);
    for (const left of [kept, disputed]) {
      expect(await db.select().from(travelProofs).where(eq(travelProofs.id, left.proof.id))).toHaveLength(1);
      expect(await env.UPLOADS.head(left.file.storageKey)).not.toBeNull();
    }
  });

  it('deletes SMS codes 30 days after they were sent', async () => {
    const user = await aUser();
    const code = (createdAt: string, phone: string) => ({ userId: user.id, phone, codeHash: 'h', salt: 's', expiresAt: createdAt, createdAt });
    await db.insert(phoneVerificationCodes).values([code(inside(RETENTION_DAYS.phoneCodes), '+221770000001'), code(outside(RETENTION_DAYS.phoneCodes), '+221770000002')]);
    await purgePhoneCodes(deps(), now, 10_000);
    const left = await db.select({ phone: phoneVerificationCodes.phone }).from(phoneVerificationCodes).where(eq(phoneVerificationCodes.userId, user.id));
    expect(left).toEqual([{ phone: '+221770000001' }]);
  });

  it("blanks an audit entry's IP address after a year and keeps the entry", async () => {
    const user = await aUser();
    const entry = (createdAt: string, action: string) => ({ actorId: user.id, action, ip: '203.0.113.7', createdAt });
    await db.insert(auditLogs).values([entry(inside(RETENTION_DAYS.auditIps), 'LOGIN_IN'), entry(outside(RETENTION_DAYS.auditIps), 'LOGIN_OUT')]);
    await eraseAuditIps(deps(), now, 10_000);
    const rows = await db.select({ action: auditLogs.action, ip: auditLogs.ip }).from(auditLogs).where(eq(auditLogs.actorId, user.id));
    expect(rows.sort((a, b) => a.action.localeCompare(b.action))).toEqual([
      { action: 'LOGIN_IN', ip: '203.0.113.7' },
      { action: 'LOGIN_OUT', ip: null },
    ]);
  });
});

describe('the daily rules read by index, not by walking their table', () => {
  // travel_proofs is walked: it holds 90 days of proofs at most (this rule deletes the older ones).
  it('no statement of the four new rules scans offers, phone_verification_codes or audit_logs', async () => {
    const counting = countingEnv();
    const d = depsOf(counting.env);
    await eraseOfferRecipients(d, now);
    await purgeTravelProofs(d, now);
    await purgePhoneCodes(d, now);
    await eraseAuditIps(d, now);
    const scans: string[] = [];
    for (const sql of new Set(counting.statements)) {
      const params = Array.from({ length: sql.match(/\?/g)?.length ?? 0 }, () => null);
      const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`).bind(...params).all<{ detail: string }>();
      for (const { detail } of plan.results) if (/^SCAN (offers|phone_verification_codes|audit_logs)\b/.test(detail)) scans.push(`${detail}: ${sql.slice(0, 120)}`);
    }
    expect(scans).toEqual([]);
  });
});

describe('each retention run is recorded', () => {
  it('with the count of every rule, and with its error when a rule fails (then thrown to the cron)', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => {});
    await anOffer('EXPIRED', outside(RETENTION_DAYS.offerRecipients));
    const counts = await runRetention(deps(), now);
    expect(Object.keys(counts)).toEqual([
      'notifications', 'deliveries', 'trackingReservations', 'personalDataReservations', 'kycDocuments',
      'offerRecipients', 'travelProofs', 'phoneCodes', 'auditIps', 'exports',
    ]);
    expect(counts.offerRecipients).toBeGreaterThanOrEqual(1);
    const newest = async () => (await db.select().from(retentionRuns).orderBy(desc(retentionRuns.id)).limit(1))[0];
    const run = await newest();
    expect(run).toMatchObject({ counts, error: null });
    expect(run.finishedAt).not.toBeNull();

    // R2 refusing deletes: the travel-proof rule stops the run, which is recorded as stopped.
    await aTravelProof(dayOf(outside(RETENTION_DAYS.travelProofs + 1)));
    const broken = { ...env, UPLOADS: { ...env.UPLOADS, put: env.UPLOADS.put.bind(env.UPLOADS), get: env.UPLOADS.get.bind(env.UPLOADS), head: env.UPLOADS.head.bind(env.UPLOADS), delete: async () => { throw new Error('R2 unavailable'); } } } as unknown as Env;
    const later = new Date(now.getTime() + 1000);
    await expect(runRetention(depsOf(broken), later)).rejects.toThrow('R2 unavailable');
    const failed = await newest();
    expect(failed.error).toBe('R2 unavailable');
    expect(Object.keys(failed.counts ?? {})).toEqual(['notifications', 'deliveries', 'trackingReservations', 'personalDataReservations', 'kycDocuments', 'offerRecipients']);
  });
});

describe('the console: retention runs, and a user export for a request by mail', () => {
  it("a super-admin reads the runs, runs a user's export, downloads it; both audited; an admin cannot", async () => {
    vi.spyOn(console, 'log').mockImplementation(() => {});
    const superAdmin = await aSuperAdmin({ passwordHash: await hashPassword(PASSWORD) });
    const b = new Browser();
    await b.signIn(superAdmin.email);
    await runRetention(deps(), new Date(now.getTime() + 5000));
    const privacy = await b.get('/console/privacy');
    expect(privacy.status).toBe(200);
    expect(privacy.text).toContain('Retention runs');
    expect(privacy.text).toMatch(/offerRecipients \d+ · travelProofs \d+ · phoneCodes \d+ · auditIps \d+/);

    const user = await aUser();
    const page = `/console/users/${user.id}`;
    expect((await b.get(page)).text).toContain('Export their data');
    const done = await b.submit(page, `/console/users/${user.id}/export`);
    expect(done.status).toBe(303);
    const [row] = await db.select().from(dataExports).where(eq(dataExports.userId, user.id));
    expect(row).toMatchObject({ status: 'PENDING', requestedBy: superAdmin.id });
    const [requested] = await db.select().from(auditLogs).where(and(eq(auditLogs.action, 'DATA_EXPORT_REQUESTED'), eq(auditLogs.targetId, String(row.id))));
    expect(requested).toMatchObject({ actorId: superAdmin.id, details: { userId: user.id, via: 'console' } });

    // Not ready yet: no download.
    expect((await b.get(`/console/exports/${row.id}/download`)).status).toBe(404);
    await buildPendingExports(deps());
    const shown = await b.get(page);
    expect(shown.text).toContain(`#${row.id}`);
    expect(shown.text).toContain(`by operator #${superAdmin.id}`);
    const file = await b.get(`/console/exports/${row.id}/download`);
    expect(file.status).toBe(200);
    expect(file.headers.get('Content-Disposition')).toBe(`attachment; filename="export-user-${user.id}-${row.id}.json"`);
    expect(JSON.parse(file.text).profile.email).toBe(user.email);
    const [downloaded] = await db.select().from(auditLogs).where(and(eq(auditLogs.action, 'DATA_EXPORT_DOWNLOADED'), eq(auditLogs.targetId, String(row.id))));
    expect(downloaded).toMatchObject({ actorId: superAdmin.id, details: { userId: user.id } });

    const admin = await anAdmin({ passwordHash: await hashPassword(PASSWORD) });
    const a = new Browser();
    await a.signIn(admin.email);
    expect((await a.get('/console/privacy')).status).toBe(403);
    expect((await a.get(`/console/exports/${row.id}/download`)).status).toBe(403);
    expect((await a.get(page)).text).not.toContain('Export their data');
  });
});
