// Test factories for the catalog: trips through the real API, categories straight into D1.
import { env } from 'cloudflare:workers';
import { getDb } from '../../src/db/client';
import { categories } from '../../src/db/schema';
import { post } from './http';
import type { TestUser } from './users';

/** YYYY-MM-DD, `days` from today (UTC). */
export function daysFromToday(days: number): string {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** A city name no other test uses, so searches by city see only this test's trips. */
export const uniqueCity = (base = 'Town') => `${base} ${crypto.randomUUID().slice(0, 8)}`;

export const announcementInput = (overrides: Record<string, unknown> = {}) => ({
  departureCity: 'Paris',
  departureCountry: 'FR',
  arrivalCity: 'Dakar',
  arrivalCountry: 'SN',
  departureDate: daysFromToday(10),
  arrivalDate: daysFromToday(11),
  totalWeight: 20,
  pricePerKg: 8.5,
  pickupPoint: 'Gare de Lyon',
  deliveryPoint: 'Plateau',
  description: 'Two suitcases of spare room',
  transportMode: 'PLANE',
  acceptedCategoryIds: [],
  ...overrides,
});

/** Publishes a trip as `carrier` (a verified user) and returns the Announcement body. */
export async function createAnnouncement(carrier: TestUser, overrides: Record<string, unknown> = {}) {
  const res = await post('/v1/api/annonces', announcementInput(overrides), { token: carrier.token });
  if (res.status !== 201) throw new Error(`createAnnouncement: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export async function createCategory(overrides: Partial<typeof categories.$inferInsert> = {}) {
  const [row] = await getDb(env)
    .insert(categories)
    .values({ code: `CAT_${crypto.randomUUID().slice(0, 8).toUpperCase()}`, name: 'Test category', ...overrides })
    .returning();
  return row;
}
