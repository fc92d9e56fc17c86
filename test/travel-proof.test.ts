// Proof of travel (CONTRACT 21): POST /annonces/{id}/travel-proof with a TRAVEL_PROOF file of the
// caller's own (the carrier, or the branch's staff for an agency trip); the console's review queue
// (approve, reject with a reason, audited, the carrier notified); travelVerified on announcements
// and the search filter travelVerified=true.
import { exports } from 'cloudflare:workers';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { announcements, auditLogs, notifications, travelProofs } from '../src/db/schema';
import { cityKey } from '../src/features/reference/city-key';
import { hashPassword } from '../src/lib/password';
import { PASSWORD, randomIp } from './helpers/auth';
import { db } from './helpers/db';
import { aCarrier, aFile, anAdmin, aTrip, aUser, uniqueCity } from './helpers/factories';
import { BASE, errorBody, get, post } from './helpers/http';

const proofPath = (id: number) => `/v1/api/annonces/${id}/travel-proof`;

/** A browser for the console: keeps its cookies, submits forms with their CSRF token. */
class Browser {
  cookies = new Map<string, string>();
  ip = randomIp();
  last = '';
  async request(method: string, path: string, form?: Record<string, string>) {
    const headers = new Headers({ 'CF-Connecting-IP': this.ip, 'Accept-Language': 'en' });
    if (this.cookies.size) headers.set('Cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    const body = form ? new URLSearchParams(form) : undefined;
    const res = await exports.default.fetch(new Request(`${BASE}${path}`, { method, headers, body, redirect: 'manual' }));
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair.indexOf('=');
      if (pair.slice(at + 1) === '' || /max-age=0/i.test(line)) this.cookies.delete(pair.slice(0, at));
      else this.cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    const text = res.headers.get('Content-Type')?.startsWith('text/html') ? await res.text() : '';
    if (text) this.last = text;
    return { status: res.status, text, location: res.headers.get('Location') };
  }
  async submit(page: string, action: string, fields: Record<string, string> = {}) {
    await this.request('GET', page);
    const form = this.last.split('<form').find((f) => f.includes(`action="${action}"`));
    const csrf = form?.match(/name="csrf" value="([^"]*)"/)?.[1];
    if (!csrf) throw new Error(`no form posting to ${action}`);
    return this.request('POST', action, { csrf, ...fields });
  }
}

async function signedInAdmin() {
  const admin = await anAdmin({ passwordHash: await hashPassword(PASSWORD) });
  const browser = new Browser();
  const res = await browser.submit('/console/login', '/console/login', { email: admin.email, password: PASSWORD });
  expect(res.status).toBe(303);
  return { admin, browser };
}

async function tripWithProof() {
  const carrier = await aCarrier();
  const departureCity = uniqueCity('Lyon');
  const trip = await aTrip(carrier, { departureCity, departureCityKey: cityKey(departureCity) });
  const file = await aFile(carrier, { purpose: 'TRAVEL_PROOF', contentType: 'application/pdf' });
  const res = await post(proofPath(trip.id), { fileId: file.id }, { token: carrier.token });
  expect(res.status).toBe(201);
  return { carrier, trip, file, proof: res.body };
}

describe('POST /annonces/{id}/travel-proof', () => {
  it('the carrier attaches their TRAVEL_PROOF file: 201 PENDING; a newer one replaces a pending one', async () => {
    const { carrier, trip, file, proof } = await tripWithProof();
    expect(proof).toEqual({ id: expect.any(Number), announcementId: trip.id, fileId: file.id, status: 'PENDING', createdAt: expect.any(String) });
    const second = await aFile(carrier, { purpose: 'TRAVEL_PROOF' });
    const again = await post(proofPath(trip.id), { fileId: second.id }, { token: carrier.token });
    expect(again.status).toBe(201);
    const rows = await db().select().from(travelProofs).where(eq(travelProofs.announcementId, trip.id)).orderBy(travelProofs.id);
    expect(rows.map((r) => [r.fileId, r.status])).toEqual([
      [file.id, 'SUPERSEDED'],
      [second.id, 'PENDING'],
    ]);
    expect((await get(`/v1/api/annonces/${trip.id}`)).body.travelVerified).toBe(false);
  });

  it('a file of another purpose or of another owner is 400 VALIDATION_ERROR on fileId (English and French)', async () => {
    const carrier = await aCarrier();
    const trip = await aTrip(carrier);
    const other = await aUser();
    const wrongPurpose = await aFile(carrier, { purpose: 'PARCEL_IMAGE' });
    const othersFile = await aFile(other, { purpose: 'TRAVEL_PROOF' });
    for (const file of [wrongPurpose, othersFile]) {
      const res = await post(proofPath(trip.id), { fileId: file.id }, { token: carrier.token });
      expect(res.status).toBe(400);
      expect(errorBody(res)).toEqual({
        status: 400,
        errorCode: 'VALIDATION_ERROR',
        message: 'The proof of travel is not a file you uploaded for it',
        path: proofPath(trip.id),
        fieldErrors: [{ field: 'fileId', message: 'must be a file you uploaded as proof of travel', rejectedValue: file.id }],
        suggestions: ['Upload the ticket or boarding pass as proof of travel, then send it'],
      });
    }
    const fr = await post(proofPath(trip.id), { fileId: othersFile.id }, { token: carrier.token, headers: { 'Accept-Language': 'fr' } });
    expect(fr.body.fieldErrors[0].message).toBe('doit être un fichier que vous avez téléversé comme preuve de voyage');
    expect(await db().select().from(travelProofs).where(eq(travelProofs.announcementId, trip.id))).toEqual([]);
  });

  it('someone else\'s trip is 403, an unknown one 404, a cancelled one 409, no token 401', async () => {
    const carrier = await aCarrier();
    const trip = await aTrip(carrier);
    const stranger = await aCarrier();
    const file = await aFile(stranger, { purpose: 'TRAVEL_PROOF' });
    const denied = await post(proofPath(trip.id), { fileId: file.id }, { token: stranger.token });
    expect(denied.status).toBe(403);
    expect(denied.body.errorCode).toBe('ACCESS_DENIED');
    expect((await post(proofPath(999_999), { fileId: file.id }, { token: stranger.token })).status).toBe(404);
    expect((await post(proofPath(trip.id), { fileId: file.id })).status).toBe(401);
    const cancelled = await aTrip(stranger, { status: 'CANCELLED' });
    const refused = await post(proofPath(cancelled.id), { fileId: file.id }, { token: stranger.token });
    expect(refused.status).toBe(409);
    expect(errorBody(refused)).toMatchObject({
      errorCode: 'INVALID_STATE',
      message: 'A proof of travel can only be attached to an active or full trip (this one is CANCELLED)',
    });
  });
});

describe('the console review', () => {
  it('approve: the trip shows travelVerified, the carrier is notified, the decision audited; the search filter finds it', async () => {
    const { carrier, trip, proof } = await tripWithProof();
    const { admin, browser } = await signedInAdmin();
    const queue = await browser.request('GET', '/console/travel-proofs');
    expect(queue.status).toBe(200);
    expect(queue.text).toContain(`/console/travel-proofs/${proof.id}`);
    const page = await browser.request('GET', `/console/travel-proofs/${proof.id}`);
    expect(page.text).toContain(`/console/files/${proof.fileId}`);

    const res = await browser.submit(`/console/travel-proofs/${proof.id}`, `/console/travel-proofs/${proof.id}/approve`);
    expect(res.status).toBe(303);
    expect(res.location).toBe(`/console/travel-proofs/${proof.id}`);
    const [row] = await db().select().from(travelProofs).where(eq(travelProofs.id, proof.id));
    expect(row).toMatchObject({ status: 'APPROVED', reviewedBy: admin.id, rejectionReason: null });
    const [tripRow] = await db().select().from(announcements).where(eq(announcements.id, trip.id));
    expect(tripRow.travelVerified).toBe(true);
    const [note] = await db().select().from(notifications).where(and(eq(notifications.userId, carrier.id), eq(notifications.type, 'TRAVEL_PROOF_APPROVED')));
    expect(note).toMatchObject({ title: 'Proof of travel accepted', data: { announcementId: trip.id, travelProofId: proof.id } });
    const [logged] = await db().select().from(auditLogs).where(and(eq(auditLogs.action, 'TRAVEL_PROOF_APPROVED'), eq(auditLogs.targetId, String(proof.id))));
    expect(logged).toMatchObject({ actorId: admin.id, targetType: 'TRAVEL_PROOF', ip: browser.ip });

    const read = await get(`/v1/api/annonces/${trip.id}`);
    expect(read.body.travelVerified).toBe(true);
    const verified = await get(`/v1/api/annonces?departureCity=${encodeURIComponent(trip.departureCity)}&travelVerified=true`);
    expect(verified.body.content.map((a: { id: number }) => a.id)).toEqual([trip.id]);
    const others = await get(`/v1/api/annonces?departureCity=${encodeURIComponent(trip.departureCity)}&travelVerified=false`);
    expect(others.body.content).toEqual([]);
    expect((await get('/v1/api/annonces?travelVerified=yes')).status).toBe(400);

    // Decided once: a second decision is refused, nothing changes; a verified trip takes no new proof.
    const detail = await browser.request('GET', `/console/travel-proofs/${proof.id}`);
    expect(detail.text).not.toContain(`/console/travel-proofs/${proof.id}/approve`);
    const file = await aFile(carrier, { purpose: 'TRAVEL_PROOF' });
    const more = await post(proofPath(trip.id), { fileId: file.id }, { token: carrier.token });
    expect(more.status).toBe(409);
    expect(more.body.message).toBe('This trip is already verified');
  });

  it('reject needs a reason; with one the proof is REJECTED, the trip stays unverified, the carrier is told why', async () => {
    const { carrier, trip, proof } = await tripWithProof();
    const { admin, browser } = await signedInAdmin();
    const empty = await browser.submit(`/console/travel-proofs/${proof.id}`, `/console/travel-proofs/${proof.id}/reject`, { reason: ' ' });
    expect(empty.status).toBe(400);
    expect((await db().select().from(travelProofs).where(eq(travelProofs.id, proof.id)))[0].status).toBe('PENDING');

    const res = await browser.submit(`/console/travel-proofs/${proof.id}`, `/console/travel-proofs/${proof.id}/reject`, { reason: 'The name on the ticket is not the carrier’s' });
    expect(res.status).toBe(303);
    const [row] = await db().select().from(travelProofs).where(eq(travelProofs.id, proof.id));
    expect(row).toMatchObject({ status: 'REJECTED', reviewedBy: admin.id, rejectionReason: 'The name on the ticket is not the carrier’s' });
    expect((await db().select().from(announcements).where(eq(announcements.id, trip.id)))[0].travelVerified).toBe(false);
    const [note] = await db().select().from(notifications).where(and(eq(notifications.userId, carrier.id), eq(notifications.type, 'TRAVEL_PROOF_REJECTED')));
    expect(note.message).toBe('Your proof of travel was refused: The name on the ticket is not the carrier’s');
    const [logged] = await db().select().from(auditLogs).where(and(eq(auditLogs.action, 'TRAVEL_PROOF_REJECTED'), eq(auditLogs.targetId, String(proof.id))));
    expect(logged.details).toMatchObject({ announcementId: trip.id, reason: 'The name on the ticket is not the carrier’s' });
  });

  it('the file is shown to operators and its owner only', async () => {
    const { carrier, proof } = await tripWithProof();
    const stranger = await aUser();
    expect((await get(`/v1/api/files/${proof.fileId}`, { token: stranger.token })).status).toBe(403);
    // The owner passes the access rule (the test row has no stored bytes: 404 from the storage).
    expect((await get(`/v1/api/files/${proof.fileId}`, { token: carrier.token })).status).toBe(404);
  });
});
