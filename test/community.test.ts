// Reviews and reports: who may review what, once; rating aggregates; moderation actions.
import { env } from 'cloudflare:workers';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { database } from '../src/db/client';
import { announcements, auditLogs, notifications, reports, reservations, reviews, userRatings, users } from '../src/db/schema';
import { errorBody, get, post } from './helpers/http';
import { aUser, aCarrier, anAdmin, aTrip, aReservation } from './helpers/factories';

const db = database(env.DB);

async function deliveredReservation() {
  const carrier = await aCarrier({ firstName: 'Carla', lastName: 'carrier' });
  const sender = await aUser({ firstName: 'Sid', lastName: 'Sender' });
  const announcement = await aTrip(carrier);
  const { reservation } = await aReservation({ trip: announcement, sender, status: 'DELIVERED' });
  return { carrier, sender, announcement, reservation };
}

describe('reviews', () => {
  it('the sender reviews the carrier of a delivered reservation; the carrier rating is updated', async () => {
    const { carrier, sender, reservation } = await deliveredReservation();
    const res = await post('/v1/api/reviews', { reservationId: reservation.id, rating: 4, comment: 'On time' }, { token: sender.token });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      reservationId: reservation.id,
      revieweeId: carrier.id,
      reviewerRole: 'SENDER',
      rating: 4,
      comment: 'On time',
      createdAt: expect.any(String),
      reviewer: { id: sender.id, name: 'Sid S.', avatarUrl: null },
    });
    const [rating] = await db.select().from(userRatings).where(eq(userRatings.userId, carrier.id));
    expect(rating).toEqual({ userId: carrier.id, reviewCount: 1, ratingSum: 4 });
  });

  it('the carrier reviews the sender of a delivered reservation', async () => {
    const { carrier, sender, reservation } = await deliveredReservation();
    const back = await post('/v1/api/reviews', { reservationId: reservation.id, rating: 5 }, { token: carrier.token });
    expect(back.status).toBe(201);
    expect(back.body.revieweeId).toBe(sender.id);
    expect(back.body.reviewerRole).toBe('CARRIER');
  });

  it('a second review of the same reservation by the same party is 409 ALREADY_EXISTS and changes nothing', async () => {
    const { carrier, sender, reservation } = await deliveredReservation();
    await post('/v1/api/reviews', { reservationId: reservation.id, rating: 5 }, { token: sender.token });
    const again = await post('/v1/api/reviews', { reservationId: reservation.id, rating: 1 }, { token: sender.token });
    expect(again.status).toBe(409);
    expect(errorBody(again)).toEqual({
      status: 409,
      errorCode: 'ALREADY_EXISTS',
      reason: 'ALREADY_REVIEWED',
      message: 'You have already reviewed this reservation',
      path: '/v1/api/reviews',
      suggestions: [],
    });
    const [rating] = await db.select().from(userRatings).where(eq(userRatings.userId, carrier.id));
    expect(rating.reviewCount).toBe(1);
    expect(rating.ratingSum).toBe(5);
  });

  it('simultaneous duplicate reviews: exactly one succeeds', async () => {
    const { carrier, sender, reservation } = await deliveredReservation();
    const results = await Promise.all(
      Array.from({ length: 5 }, () => post('/v1/api/reviews', { reservationId: reservation.id, rating: 3 }, { token: sender.token })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
    const [rating] = await db.select().from(userRatings).where(eq(userRatings.userId, carrier.id));
    expect(rating.reviewCount).toBe(1);
  });

  it('a stranger cannot review a reservation: 403 ACCESS_DENIED', async () => {
    const { reservation } = await deliveredReservation();
    const stranger = await aUser();
    const strangerRes = await post('/v1/api/reviews', { reservationId: reservation.id, rating: 5 }, { token: stranger.token });
    expect(strangerRes.status).toBe(403);
    expect(strangerRes.body.errorCode).toBe('ACCESS_DENIED');
  });

  it('a reservation not yet delivered cannot be reviewed: 422 BUSINESS_RULE_VIOLATION', async () => {
    const { carrier, sender, announcement } = await deliveredReservation();
    const { reservation: inTransit } = await aReservation({ trip: announcement, sender, status: 'IN_TRANSIT' });
    const early = await post('/v1/api/reviews', { reservationId: inTransit.id, rating: 5 }, { token: carrier.token });
    expect(early.status).toBe(422);
    expect(early.body).toMatchObject({ errorCode: 'BUSINESS_RULE_VIOLATION', message: 'Only a delivered reservation can be reviewed (status IN_TRANSIT)' });
  });

  it('reviewing an unknown reservation is 404 RESOURCE_NOT_FOUND', async () => {
    const sender = await aUser();
    const missing = await post('/v1/api/reviews', { reservationId: 999_999, rating: 5 }, { token: sender.token });
    expect(missing.status).toBe(404);
    expect(missing.body.errorCode).toBe('RESOURCE_NOT_FOUND');
  });

  it('a rating above 5 is 400 with the rejected rating', async () => {
    const { sender, reservation } = await deliveredReservation();
    const bad = await post('/v1/api/reviews', { reservationId: reservation.id, rating: 6 }, { token: sender.token });
    expect(bad.status).toBe(400);
    expect(bad.body.fieldErrors).toEqual([{ field: 'rating', message: expect.any(String), rejectedValue: 6 }]);
  });

  it('reviewing needs a token: 401 UNAUTHORIZED', async () => {
    const { reservation } = await deliveredReservation();
    const anonymous = await post('/v1/api/reviews', { reservationId: reservation.id, rating: 5 });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.errorCode).toBe('UNAUTHORIZED');
  });

  /** A carrier reviewed 5, 4 and 2 by three senders, in that order. */
  async function reviewedCarrier() {
    const carrier = await aCarrier();
    const announcement = await aTrip(carrier);
    for (const rating of [5, 4, 2]) {
      const sender = await aUser();
      const { reservation: r } = await aReservation({ trip: announcement, sender, status: 'DELIVERED' });
      expect((await post('/v1/api/reviews', { reservationId: r.id, rating }, { token: sender.token })).status).toBe(201);
    }
    return carrier;
  }

  it("lists a user's reviews, newest first, with the average", async () => {
    const carrier = await reviewedCarrier();
    const page = await get(`/v1/api/users/${carrier.id}/reviews?size=2`);
    expect(page.status).toBe(200);
    expect(page.body.page).toEqual({ number: 0, size: 2, totalElements: 3, totalPages: 2 });
    expect(page.body.summary).toEqual({ ratingAverage: 3.67, reviewCount: 3 });
    expect(page.body.content.map((r: { rating: number }) => r.rating)).toEqual([2, 4]);
  });

  it("pages and sorts a user's reviews", async () => {
    const carrier = await reviewedCarrier();
    const ratings = async (qs: string) => (await get(`/v1/api/users/${carrier.id}/reviews?${qs}`)).body.content.map((r: { rating: number }) => r.rating);
    expect(await ratings('size=2&page=1')).toEqual([5]);
    expect(await ratings('sort=createdAt,asc')).toEqual([5, 4, 2]);
  });

  it('the public customer reviews page lists reviews written by senders only', async () => {
    await reviewedCarrier();
    const customers = await get('/v1/api/reviews/customers?size=100');
    expect(customers.status).toBe(200);
    expect(customers.body.content.every((r: { reviewerRole: string }) => r.reviewerRole === 'SENDER')).toBe(true);
    expect(customers.body.page.totalElements).toBeGreaterThanOrEqual(3);
  });

  it('the reviews of an unknown user are 404; a non-numeric id is TYPE_MISMATCH', async () => {
    expect((await get('/v1/api/users/999999/reviews')).status).toBe(404);
    expect((await get('/v1/api/users/abc/reviews')).body.errorCode).toBe('TYPE_MISMATCH');
  });
});

describe('reports', () => {
  /** An open report of a trip by a user. */
  async function reportedTrip() {
    const carrier = await aCarrier();
    const reporter = await aUser();
    const admin = await anAdmin();
    const announcement = await aTrip(carrier);
    const created = await post('/v1/api/reports', { targetType: 'ANNOUNCEMENT', targetId: announcement.id, reason: 'Prohibited goods' }, { token: reporter.token });
    expect(created.status).toBe(201);
    return { reporter, admin, announcement, report: created.body };
  }

  it('a user reports an announcement: an OPEN report', async () => {
    const { reporter, announcement, report } = await reportedTrip();
    expect(report).toMatchObject({ reporterId: reporter.id, targetType: 'ANNOUNCEMENT', targetId: announcement.id, status: 'OPEN', action: null });
  });

  it('reporting the same announcement twice is 409 ALREADY_EXISTS', async () => {
    const { reporter, announcement } = await reportedTrip();
    const dup = await post('/v1/api/reports', { targetType: 'ANNOUNCEMENT', targetId: announcement.id, reason: 'Again please' }, { token: reporter.token });
    expect(dup.status).toBe(409);
    expect(dup.body.errorCode).toBe('ALREADY_EXISTS');
  });

  it('the reporter lists their reports', async () => {
    const { reporter, report } = await reportedTrip();
    const mine = await get('/v1/api/reports/mine', { token: reporter.token });
    expect(mine.body.content.map((r: { id: number }) => r.id)).toEqual([report.id]);
  });

  it('the admin queue filters reports by status and target type', async () => {
    const { admin, report } = await reportedTrip();
    const queue = await get('/v1/api/admin/reports?status=OPEN&targetType=ANNOUNCEMENT', { token: admin.token });
    expect(queue.status).toBe(200);
    expect(queue.body.content.map((r: { id: number }) => r.id)).toContain(report.id);
  });

  it('closing with an action that does not fit the target is 400 INVALID_ARGUMENT listing the allowed ones', async () => {
    const { admin, report } = await reportedTrip();
    const wrongAction = await post(`/v1/api/admin/reports/${report.id}/close`, { action: 'HIDE_REVIEW' }, { token: admin.token });
    expect(wrongAction.status).toBe(400);
    expect(wrongAction.body.errorCode).toBe('INVALID_ARGUMENT');
    expect(wrongAction.body.fieldErrors).toEqual([
      { field: 'action', message: 'Allowed for ANNOUNCEMENT: NONE, HIDE_ANNOUNCEMENT, SUSPEND_USER', rejectedValue: 'HIDE_REVIEW' },
    ]);
  });

  it('the admin closes the report hiding the announcement (CANCELLED)', async () => {
    const { admin, announcement, report } = await reportedTrip();
    const closed = await post(`/v1/api/admin/reports/${report.id}/close`, { action: 'HIDE_ANNOUNCEMENT', note: 'Removed' }, { token: admin.token });
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ status: 'CLOSED', action: 'HIDE_ANNOUNCEMENT', resolutionNote: 'Removed', closedBy: admin.id });
    const [hidden] = await db.select({ status: announcements.status }).from(announcements).where(eq(announcements.id, announcement.id));
    expect(hidden.status).toBe('CANCELLED');
  });

  it('the reporter is notified when the report is closed (REPORT_CLOSED)', async () => {
    const { reporter, admin, report } = await reportedTrip();
    await post(`/v1/api/admin/reports/${report.id}/close`, { action: 'HIDE_ANNOUNCEMENT', note: 'Removed' }, { token: admin.token });
    const notes = await db.select().from(notifications).where(eq(notifications.userId, reporter.id));
    expect(notes.map((n) => n.type)).toEqual(['REPORT_CLOSED']);
  });

  it('a closed report cannot be closed again: 409 INVALID_STATE', async () => {
    const { admin, report } = await reportedTrip();
    await post(`/v1/api/admin/reports/${report.id}/close`, { action: 'HIDE_ANNOUNCEMENT', note: 'Removed' }, { token: admin.token });
    const again = await post(`/v1/api/admin/reports/${report.id}/close`, { action: 'NONE' }, { token: admin.token });
    expect(again.status).toBe(409);
    expect(again.body.errorCode).toBe('INVALID_STATE');
  });

  it('hiding a reported review removes it from the listing and the average, once', async () => {
    const { carrier, sender, reservation } = await deliveredReservation();
    const admin = await anAdmin();
    const review = await post('/v1/api/reviews', { reservationId: reservation.id, rating: 1, comment: 'rude words' }, { token: sender.token });
    const report = await post('/v1/api/reports', { targetType: 'REVIEW', targetId: review.body.id, reason: 'Abusive' }, { token: carrier.token });
    const closed = await post(`/v1/api/admin/reports/${report.body.id}/close`, { action: 'HIDE_REVIEW' }, { token: admin.token });
    expect(closed.status).toBe(200);
    const [rating] = await db.select().from(userRatings).where(eq(userRatings.userId, carrier.id));
    expect(rating).toEqual({ userId: carrier.id, reviewCount: 0, ratingSum: 0 });
    const [row] = await db.select({ hidden: reviews.hidden }).from(reviews).where(eq(reviews.id, review.body.id));
    expect(row.hidden).toBe(true);
    expect((await get(`/v1/api/users/${carrier.id}/reviews`)).body.page.totalElements).toBe(0);

    // A second report on the same review, closed with the same action, must not subtract again.
    const other = await aUser();
    const second = await post('/v1/api/reports', { targetType: 'REVIEW', targetId: review.body.id, reason: 'Abusive too' }, { token: other.token });
    await post(`/v1/api/admin/reports/${second.body.id}/close`, { action: 'HIDE_REVIEW' }, { token: admin.token });
    const [after] = await db.select().from(userRatings).where(eq(userRatings.userId, carrier.id));
    expect(after).toEqual({ userId: carrier.id, reviewCount: 0, ratingSum: 0 });
  });

  it('the customer reviews total counts every visible sender review: one more per review, one less per hidden one, once', async () => {
    const total = async () => (await get('/v1/api/reviews/customers?size=1')).body.page.totalElements as number;
    const counted = async () => (await db.select({ n: sql<number>`count(*)` }).from(reviews).where(and(eq(reviews.reviewerRole, 'SENDER'), eq(reviews.hidden, false))))[0].n;
    const { carrier, sender, reservation } = await deliveredReservation();
    const admin = await anAdmin();
    const before = await total();
    expect(before).toBe(await counted());
    const review = await post('/v1/api/reviews', { reservationId: reservation.id, rating: 2, comment: 'late' }, { token: sender.token });
    expect(review.status).toBe(201);
    // The carrier's review of the sender is not a customer review.
    expect((await post('/v1/api/reviews', { reservationId: reservation.id, rating: 5 }, { token: carrier.token })).status).toBe(201);
    expect(await total()).toBe(before + 1);
    for (const reporter of [carrier, await aUser()]) {
      const report = await post('/v1/api/reports', { targetType: 'REVIEW', targetId: review.body.id, reason: 'Abusive' }, { token: reporter.token });
      expect((await post(`/v1/api/admin/reports/${report.body.id}/close`, { action: 'HIDE_REVIEW' }, { token: admin.token })).status).toBe(200);
    }
    expect(await total()).toBe(before);
    expect(await total()).toBe(await counted());
  });

  it('suspending a reported user disables the account and revokes its tokens', async () => {
    const target = await aUser();
    const reporter = await aUser();
    const admin = await anAdmin();
    const report = await post('/v1/api/reports', { targetType: 'USER', targetId: target.id, reason: 'Scam attempts' }, { token: reporter.token });
    // Tokens issued in the same second as a revocation survive it: the suspension happens 2 s later.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 2_000);
    const closed = await post(`/v1/api/admin/reports/${report.body.id}/close`, { action: 'SUSPEND_USER' }, { token: admin.token });
    expect(closed.status).toBe(200);
    const [row] = await db.select({ enabled: users.enabled, reason: users.suspensionReason }).from(users).where(eq(users.id, target.id));
    expect(row).toEqual({ enabled: false, reason: `Report #${report.body.id}` });
    const trail = await db.select({ action: auditLogs.action, targetId: auditLogs.targetId }).from(auditLogs).where(eq(auditLogs.actorId, admin.id));
    expect(trail).toEqual(
      expect.arrayContaining([
        { action: 'USER_SUSPENDED', targetId: String(target.id) },
        { action: 'REPORT_CLOSED', targetId: String(report.body.id) },
      ]),
    );
    const refused = await get('/v1/api/reports/mine', { token: target.token });
    expect(refused.status).toBe(401);
    expect(refused.body.errorCode).toBe('UNAUTHORIZED');
    vi.useRealTimers();
  });

  it("suspending a reported carrier takes their trips out of the search and cancels the bookings on them, like the admin endpoint", async () => {
    const admin = await anAdmin();
    const { carrier, trip, reservation } = await aReservation();
    const report = await post('/v1/api/reports', { targetType: 'ANNOUNCEMENT', targetId: trip.id, reason: 'Scam' }, { token: (await aUser()).token });
    expect((await post(`/v1/api/admin/reports/${report.body.id}/close`, { action: 'SUSPEND_USER' }, { token: admin.token })).status).toBe(200);
    const [row] = await db.select().from(reservations).where(eq(reservations.id, reservation.id));
    expect(row).toMatchObject({ status: 'CANCELLED', cancellationReason: 'CARRIER_SUSPENDED', cancelledBy: admin.id });
    expect((await get(`/v1/api/annonces/${trip.id}`)).status).toBe(404);
    expect(carrier.id).toBe(trip.carrierId);
  });

  it('refuses unknown targets (404), self-reports (422), non-admins on the queue (403)', async () => {
    const user = await aUser();
    const missing = await post('/v1/api/reports', { targetType: 'REVIEW', targetId: 424242, reason: 'Spam review' }, { token: user.token });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Review 424242 not found');
    const self = await post('/v1/api/reports', { targetType: 'USER', targetId: user.id, reason: 'Testing' }, { token: user.token });
    expect(self.status).toBe(422);
    const queue = await get('/v1/api/admin/reports', { token: user.token });
    expect(queue.status).toBe(403);
    expect(queue.body.errorCode).toBe('ACCESS_DENIED');
    const close = await post('/v1/api/admin/reports/1/close', { action: 'NONE' }, { token: user.token });
    expect(close.status).toBe(403);
    const stored = await db.select().from(reports).where(eq(reports.reporterId, user.id));
    expect(stored).toEqual([]);
  });
});
