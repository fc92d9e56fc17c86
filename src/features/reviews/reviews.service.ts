// Reviews: a party of a DELIVERED reservation rates the other party once; rating aggregates are
// kept in user_ratings in the same batch.
import { and, count, eq, inArray, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { compiled, inSlices, runAlone, compiledShapes, pageTotal, withTotal, type Statement, type Placeholders } from '../../db/statements';
import { isUniqueViolation } from '../../db/errors';
import { reservations, reviews, reviewTotals, userRatings, users, type ReviewRow } from '../../db/schema';
import type { AuthUser, Deps } from '../../env';
import { alreadyExists, businessRule, notFound } from '../../errors';
import { offsetOf, orderBy, toPage, type PageParams } from '../../lib/pagination';
import { publicName } from '../../lib/public-name';
import { assertSide } from '../../access/reservation-access';

export interface NewReview {
  reservationId: number;
  rating: number;
  comment?: string | null;
}

export interface RatingSummary {
  ratingAverage: number | null;
  reviewCount: number;
}

type ReviewWithReviewer = ReviewRow & { reviewerFirstName: string; reviewerLastName: string; reviewerAvatarUrl: string | null };

export function toReviewJson(r: ReviewWithReviewer) {
  return {
    id: r.id,
    reservationId: r.reservationId,
    revieweeId: r.revieweeId,
    reviewerRole: r.reviewerRole,
    rating: r.rating,
    comment: r.comment,
    createdAt: r.createdAt,
    reviewer: {
      id: r.reviewerId,
      name: publicName({ firstName: r.reviewerFirstName, lastName: r.reviewerLastName }),
      avatarUrl: r.reviewerAvatarUrl,
    },
  };
}

const reviewColumns = {
  id: reviews.id,
  reservationId: reviews.reservationId,
  reviewerId: reviews.reviewerId,
  revieweeId: reviews.revieweeId,
  reviewerRole: reviews.reviewerRole,
  rating: reviews.rating,
  comment: reviews.comment,
  hidden: reviews.hidden,
  createdAt: reviews.createdAt,
  reviewerFirstName: users.firstName,
  reviewerLastName: users.lastName,
  reviewerAvatarUrl: users.avatarUrl,
};

export async function createReview(deps: Deps, auth: AuthUser, input: NewReview) {
  const { db } = deps;
  const [reservation] = await db
    .select({
      id: reservations.id,
      senderId: reservations.senderId,
      carrierId: reservations.carrierId,
      agencyId: reservations.agencyId,
      announcementId: reservations.announcementId,
      status: reservations.status,
    })
    .from(reservations)
    .where(eq(reservations.id, input.reservationId));
  if (!reservation) throw notFound('Reservation', input.reservationId);
  // The carrier side of an agency trip is its acting staff now, the owner included (CONTRACT 25).
  const role = await assertSide(deps, auth, reservation, 'review.onlySenderCarrierReservation');
  if (reservation.status !== 'DELIVERED') {
    throw businessRule('review.onlyDeliveredReservationReviewed', { status: reservation.status });
  }
  const revieweeId = role === 'SENDER' ? reservation.carrierId : reservation.senderId;
  try {
    const [[created]] = await db.batch([
      db
        .insert(reviews)
        .values({ reservationId: reservation.id, reviewerId: auth.id, revieweeId, reviewerRole: role, rating: input.rating, comment: input.comment ?? null })
        .returning({ id: reviews.id }),
      db
        .insert(userRatings)
        .values({ userId: revieweeId, reviewCount: 1, ratingSum: input.rating })
        .onConflictDoUpdate({
          target: userRatings.userId,
          set: { reviewCount: sql`${userRatings.reviewCount} + 1`, ratingSum: sql`${userRatings.ratingSum} + ${input.rating}` },
        }),
      db
        .insert(reviewTotals)
        .values({ reviewerRole: role, visibleCount: 1 })
        .onConflictDoUpdate({ target: reviewTotals.reviewerRole, set: { visibleCount: sql`${reviewTotals.visibleCount} + 1` } }),
    ]);
    return getReview(deps, created.id);
  } catch (err) {
    if (isUniqueViolation(err)) throw alreadyExists('review.alreadyReviewedReservation');
    throw err;
  }
}

export async function getReview(deps: Deps, id: number) {
  const { db } = deps;
  const [row] = await db.select(reviewColumns).from(reviews).innerJoin(users, eq(users.id, reviews.reviewerId)).where(eq(reviews.id, id));
  if (!row) throw notFound('Review', id);
  return toReviewJson(row);
}

/**
 * Hides a review (moderation) and takes it out of the aggregates, for one batch. Each aggregate
 * statement runs only if the one before it changed a row (changes() is the previous statement's
 * count), so hiding twice subtracts once.
 */
export function hideReviewStatements(db: Db, review: Pick<ReviewRow, 'id' | 'revieweeId' | 'rating' | 'reviewerRole'>, guard?: SQL) {
  return [
    db.update(reviews).set({ hidden: true }).where(and(eq(reviews.id, review.id), eq(reviews.hidden, false), guard)),
    db
      .update(userRatings)
      .set({ reviewCount: sql`${userRatings.reviewCount} - 1`, ratingSum: sql`${userRatings.ratingSum} - ${review.rating}` })
      .where(and(eq(userRatings.userId, review.revieweeId), sql`changes() = 1`)),
    db
      .update(reviewTotals)
      .set({ visibleCount: sql`${reviewTotals.visibleCount} - 1` })
      .where(and(eq(reviewTotals.reviewerRole, review.reviewerRole), sql`changes() = 1`)),
  ] as const;
}

/** Rating summaries of several users in one query (for profiles, announcements, search results). */
export async function ratingSummaries(deps: Deps, userIds: number[]): Promise<Map<number, RatingSummary>> {
  const { db } = deps;
  const result = new Map<number, RatingSummary>();
  for (const id of userIds) result.set(id, { ratingAverage: null, reviewCount: 0 });
  const rows = await inSlices(userIds, (ids) => db.select().from(userRatings).where(inArray(userRatings.userId, ids)));
  for (const r of rows) result.set(r.userId, toSummary(r));
  return result;
}

export function toSummary(r: { reviewCount: number; ratingSum: number } | undefined): RatingSummary {
  if (!r || r.reviewCount <= 0) return { ratingAverage: null, reviewCount: 0 };
  return { ratingAverage: Math.round((r.ratingSum / r.reviewCount) * 100) / 100, reviewCount: r.reviewCount };
}

/** What a page of reviews binds (no user for the customers' page). */
type ReviewPageValues = { userId: number | null; limit: number; offset: number };

/**
 * A public page of reviews under `visible` carrying its total (withTotal: one statement), and the
 * total alone (for a page past the last); compiled once per sort.
 */
function compileReviewPage(
  visible: (p: Placeholders<ReviewPageValues>) => SQL | undefined,
  sort: PageParams<'createdAt'>['sort'],
  total: (db: Db, p: Placeholders<ReviewPageValues>) => Statement & SQLWrapper,
) {
  return {
    rows: compiled((db, p: Placeholders<ReviewPageValues>) =>
      db
        .select(withTotal(reviewColumns, total(db, p)))
        .from(reviews)
        .innerJoin(users, eq(users.id, reviews.reviewerId))
        .where(visible(p))
        .orderBy(...orderBy(sort, { createdAt: reviews.createdAt }, reviews.id))
        .limit(p.limit)
        .offset(p.offset),
    ),
    total: compiled(total),
  };
}

const receivedVisible = (p: Placeholders<ReviewPageValues>) => and(eq(reviews.revieweeId, p.userId), eq(reviews.hidden, false));
const receivedPage = compiledShapes((sort: { field: 'createdAt'; direction: 'asc' | 'desc' }) =>
  compileReviewPage(receivedVisible, sort, (db, p) => db.select({ total: count() }).from(reviews).where(receivedVisible(p))),
);
// The public total of visible customer reviews is kept with each review write (no count per request).
const customerPage = compiledShapes((sort: { field: 'createdAt'; direction: 'asc' | 'desc' }) =>
  compileReviewPage(
    () => and(eq(reviews.reviewerRole, 'SENDER'), eq(reviews.hidden, false)),
    sort,
    (db) => db.select({ total: reviewTotals.visibleCount }).from(reviewTotals).where(eq(reviewTotals.reviewerRole, 'SENDER')),
  ),
);
/** The user (404 when absent) with their rating summary, in one statement. */
const userWithRating = compiled((db, p: Placeholders<{ userId: number }>) =>
  db
    .select({ id: users.id, reviewCount: userRatings.reviewCount, ratingSum: userRatings.ratingSum })
    .from(users)
    .leftJoin(userRatings, eq(userRatings.userId, users.id))
    .where(eq(users.id, p.userId)),
);

/** Visible reviews received by a user, newest first, with the user's rating summary. */
export async function listUserReviews(deps: Deps, userId: number, p: PageParams<'createdAt'>) {
  const { db } = deps;
  const page = receivedPage({ field: p.sort.field, direction: p.sort.direction });
  const values = { userId, limit: p.size, offset: offsetOf(p) };
  const [rows, [user]] = await db.batch([page.rows(db, values), userWithRating(db, values)]);
  if (!user) throw notFound('User', userId);
  const total = await pageTotal(db, rows, values.offset, () => page.total(db, values));
  const rating = user.reviewCount === null || user.ratingSum === null ? undefined : { reviewCount: user.reviewCount, ratingSum: user.ratingSum };
  return { ...toPage(rows.map(toReviewJson), total, p), summary: toSummary(rating) };
}

/** The public page of recent reviews written by customers (senders). */
export async function listCustomerReviews(deps: Deps, p: PageParams<'createdAt'>) {
  const { db } = deps;
  const page = customerPage({ field: p.sort.field, direction: p.sort.direction });
  const values = { userId: null, limit: p.size, offset: offsetOf(p) };
  const rows = await runAlone(page.rows(db, values));
  const total = await pageTotal(db, rows, values.offset, () => page.total(db, values));
  return toPage(rows.map(toReviewJson), total, p);
}
