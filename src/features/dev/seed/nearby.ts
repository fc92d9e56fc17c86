// Dev seed step: the corridor search (CONTRACT section 30). A sender in Dakar asking for Paris
// around day 12 finds, with a radius, trips leaving from Thiès (about 60 km away) and landing at
// Orly, on the day before and after, beside the direct one; Lyon and Saint-Louis lie further than
// 100 km. Placed on the map as publishing places trips. Checks first: a rerun adds nothing.
import { and, eq, like } from 'drizzle-orm';
import { announcements } from '../../../db/schema';
import { todayUtc } from '../../announcements/announcement-rules';
import { addDays } from '../../analytics/analytics.rules';
import { tripPlaces } from '../../announcements/trip-places';
import { cityKey } from '../../reference/city-key';
import type { SeedContext } from './context';

const MARK = 'Demo corridor search:';
// [from, to, days from today, EUR per kg]
const TRIPS: [string, string, number, number][] = [
  ['Dakar', 'Paris', 12, 9],
  ['Thiès', 'Orly', 11, 8],
  ['Thiès', 'Paris', 13, 7],
  ['Dakar', 'Orly', 12, 11],
  ['Saint-Louis', 'Paris', 12, 6],
  ['Dakar', 'Lyon', 12, 6],
];

export async function seedNearbyTrips({ db, userIds }: SeedContext) {
  const carrierId = userIds['carrier@demo.local'];
  if (!carrierId) return;
  const [seeded] = await db.select({ id: announcements.id }).from(announcements).where(and(eq(announcements.carrierId, carrierId), like(announcements.description, `${MARK}%`)));
  if (seeded) return;
  for (const [from, to, days, price] of TRIPS) {
    const route = { departureCity: from, departureCountry: 'SN', arrivalCity: to, arrivalCountry: 'FR' };
    const departureDate = addDays(todayUtc(), days);
    await db.insert(announcements).values({
      carrierId,
      ...route,
      departureCityKey: cityKey(from),
      arrivalCityKey: cityKey(to),
      departureDate,
      arrivalDate: addDays(departureDate, 1),
      totalWeightG: 20_000,
      pricePerKgCents: price * 100,
      currency: 'EUR',
      description: `${MARK} ${from} to ${to}`,
      transportMode: 'PLANE',
      acceptedCategoryIds: [],
      ...(await tripPlaces(db, route)),
    });
  }
}
