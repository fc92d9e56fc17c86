// Dev seed step: the default categories (also created by migration) and a few trips of
// carrier@demo.local between cities of the reference data, departing in the coming weeks.
import { and, eq } from 'drizzle-orm';
import { announcements, categories } from '../../../db/schema';
import type { SeedContext } from './context';
import { todayUtc } from '../../announcements/announcement-rules';
import { cityKey } from '../../reference/city-key';
import { minorPerMajor, type CurrencyCode } from '../../../lib/currency';

const DEMO_CATEGORIES = [
  { code: 'DOCUMENTS', name: 'Documents', prohibited: false },
  { code: 'CLOTHING', name: 'Clothing and textiles', prohibited: false },
  { code: 'ELECTRONICS', name: 'Electronics', prohibited: false },
  { code: 'WEAPONS', name: 'Weapons and ammunition', prohibited: true },
];

const DEMO_TRIPS = [
  { from: ['Paris', 'FR'], to: ['Dakar', 'SN'], inDays: 7, days: 1, kg: 20, price: 8, mode: 'PLANE' },
  { from: ['Lyon', 'FR'], to: ['Casablanca', 'MA'], inDays: 12, days: 2, kg: 35, price: 5.5, mode: 'CAR' },
  { from: ['Brussels', 'BE'], to: ['Abidjan', 'CI'], inDays: 20, days: 1, kg: 15, price: 9.9, mode: 'PLANE' },
  { from: ['Montréal', 'CA'], to: ['Douala', 'CM'], inDays: 30, days: 1, kg: 23, price: 12, mode: 'PLANE' },
  // The corridor's other way, priced in CFA francs (CONTRACT section 20): whole francs per kg.
  { from: ['Dakar', 'SN'], to: ['Paris', 'FR'], inDays: 10, days: 1, kg: 23, price: 5000, mode: 'PLANE', currency: 'XOF' },
] as const;

/** The demo trips are in EUR (Paris to Dakar among them) unless they say otherwise. */
const currencyOf = (trip: (typeof DEMO_TRIPS)[number]): CurrencyCode => ('currency' in trip ? trip.currency : 'EUR');

const addDays = (date: string, days: number) => {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};

export async function seedCatalog({ db, env, userIds }: SeedContext) {
  await db.insert(categories).values(DEMO_CATEGORIES).onConflictDoNothing({ target: categories.code });
  const carrierId = userIds['carrier@demo.local'];
  if (!carrierId) return;
  const accepted = await db.select({ id: categories.id }).from(categories).where(eq(categories.prohibited, false));
  const today = todayUtc();
  for (const trip of DEMO_TRIPS) {
    // One open trip per demo route: re-running the seed adds nothing while the previous one is open.
    const [open] = await db
      .select({ id: announcements.id })
      .from(announcements)
      .where(
        and(
          eq(announcements.carrierId, carrierId),
          eq(announcements.departureCityKey, cityKey(trip.from[0])),
          eq(announcements.arrivalCityKey, cityKey(trip.to[0])),
          eq(announcements.status, 'ACTIVE'),
        ),
      );
    if (open) continue;
    const departureDate = addDays(today, trip.inDays);
    await db.insert(announcements).values({
      carrierId,
      departureCity: trip.from[0],
      departureCountry: trip.from[1],
      arrivalCity: trip.to[0],
      arrivalCountry: trip.to[1],
      departureCityKey: cityKey(trip.from[0]),
      arrivalCityKey: cityKey(trip.to[0]),
      departureDate,
      arrivalDate: addDays(departureDate, trip.days),
      totalWeightG: trip.kg * 1000,
      pricePerKgCents: Math.round(trip.price * minorPerMajor(currencyOf(trip))),
      currency: currencyOf(trip),
      pickupPoint: `${trip.from[0]} city centre`,
      deliveryPoint: `${trip.to[0]} city centre`,
      description: 'Demo trip',
      transportMode: trip.mode,
      acceptedCategoryIds: accepted.slice(0, 3).map((c) => c.id),
    });
  }
}
