// The public profile of a user (GET /users/{id}, and the `carrier` of an announcement):
// names, avatar, verified flags (identity, phone) and rating. Nothing private (no email, phone, birth date).
import { z } from '@hono/zod-openapi';
import type { UserRow } from '../../db/schema';
import type { Deps } from '../../env';
import { ratingSummaries, type RatingSummary } from '../reviews/reviews.service';

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
  })
  .openapi('PublicProfile');

export type PublicProfile = z.infer<typeof PublicProfileSchema>;

type ProfileRow = Pick<UserRow, 'id' | 'firstName' | 'lastName' | 'username' | 'avatarUrl' | 'kycStatus' | 'phoneVerified' | 'createdAt'>;

export function toPublicProfile(row: ProfileRow, rating: RatingSummary = NO_RATING): PublicProfile {
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
  };
}

/** Public profiles of several rows, ratings loaded in one call. */
export async function toPublicProfiles(deps: Deps, rows: ProfileRow[]): Promise<PublicProfile[]> {
  const ratings = await loadRatingSummaries(
    deps,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toPublicProfile(r, ratings.get(r.id)));
}
