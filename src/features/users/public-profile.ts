// The public profile of a user (GET /users/{id}, and the `carrier` of an announcement):
// names, avatar, verified flags (identity, phone) and rating. Nothing private (no email, phone, birth date).
import { z } from '@hono/zod-openapi';
import type { UserRow } from '../../db/schema';
import type { Deps } from '../../env';
import { ratingSummaries, type RatingSummary } from '../reviews/reviews.service';
import { cancellationRates } from './cancellation-rate';

const NO_RATING: RatingSummary = { ratingAverage: null, reviewCount: 0 };

/** Rating summaries keyed by user id (visible reviews only). */
export const loadRatingSummaries = (deps: Deps, userIds: readonly number[]) => ratingSummaries(deps, [...userIds]);

export const PublicProfileSchema = z
  .object({
    id: z.number().int(),
    firstName: z.string(),
    lastName: z.string(),
    username: z.string().nullable(),
    avatarUrl: z.string().nullable(),
    verified: z.boolean().openapi({ description: 'Identity verified (KYC VERIFIED)' }),
    phoneVerified: z.boolean().openapi({ description: 'Phone number proved by an SMS code' }),
    ratingAverage: z.number().nullable(),
    reviewCount: z.number().int(),
    memberSince: z.string().openapi({ format: 'date-time' }),
    cancellationRate: z.number().openapi({
      description:
        'Reservations the carrier side cancelled after payment over those confirmed or so cancelled, a fraction with 2 decimals (0.25 = one in four); 0 without any (CONTRACT section 22)',
      example: 0.05,
    }),
  })
  .openapi('PublicProfile');

export type PublicProfile = z.infer<typeof PublicProfileSchema>;

type ProfileRow = Pick<UserRow, 'id' | 'firstName' | 'lastName' | 'username' | 'avatarUrl' | 'kycStatus' | 'phoneVerified' | 'createdAt'>;

export function toPublicProfile(row: ProfileRow, rating: RatingSummary = NO_RATING, cancellationRate = 0): PublicProfile {
  return {
    id: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    username: row.username,
    avatarUrl: row.avatarUrl,
    verified: row.kycStatus === 'VERIFIED',
    phoneVerified: row.phoneVerified,
    ratingAverage: rating.ratingAverage,
    reviewCount: rating.reviewCount,
    memberSince: row.createdAt,
    cancellationRate,
  };
}

/** Public profiles of several rows, ratings loaded in one call. */
export async function toPublicProfiles(deps: Deps, rows: ProfileRow[]): Promise<PublicProfile[]> {
  const ratings = await loadRatingSummaries(
    deps,
    rows.map((r) => r.id),
  );
  const rates = await cancellationRates(
    deps,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toPublicProfile(r, ratings.get(r.id), rates.get(r.id)));
}
