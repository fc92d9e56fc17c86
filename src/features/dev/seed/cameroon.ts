// Dev seed step: Cameroon (CONTRACT section 29). carrier.douala@demo.local has a default Orange Money
// wallet for XAF payouts and two open trips priced in XAF francs, from Douala and from Yaoundé to
// Paris, so a newcomer sees a trip to pay by MTN or Orange on the pawaPay sandbox (its PIN-prompt
// page) and a carrier paid out to an Orange number. Checks first: a rerun adds nothing.
import { and, eq } from 'drizzle-orm';
import { announcements, categories, mobilePayoutAccounts } from '../../../db/schema';
import { todayUtc } from '../../announcements/announcement-rules';
import { addDays } from '../../analytics/analytics.rules';
import { cityKey } from '../../reference/city-key';
import type { SeedContext } from './context';

export const DOUALA_CARRIER = 'carrier.douala@demo.local';
/** An Orange Cameroon number (+237 69...) of the demo's own, never a real person's. */
export const DOUALA_ORANGE_PHONE = '+237699000100';

const TRIPS = [
  { city: 'Douala', inDays: 4, pricePerKg: 2_500, pickup: 'Douala, Akwa' },
  { city: 'Yaoundé', inDays: 6, pricePerKg: 2_800, pickup: 'Yaoundé, Bastos' },
] as const;

export async function seedCameroon({ db, userIds }: SeedContext) {
  const carrierId = userIds[DOUALA_CARRIER];
  if (!carrierId) return;
  const owner = and(eq(mobilePayoutAccounts.ownerType, 'USER'), eq(mobilePayoutAccounts.ownerId, carrierId));
  const [wallet] = await db.select({ id: mobilePayoutAccounts.id }).from(mobilePayoutAccounts).where(owner);
  if (!wallet) {
    await db.insert(mobilePayoutAccounts).values({ ownerType: 'USER', ownerId: carrierId, provider: 'ORANGE_CMR', currency: 'XAF', phone: DOUALA_ORANGE_PHONE, name: 'Paul Mbarga', isDefault: true });
  }
  const accepted = await db.select({ id: categories.id }).from(categories).where(eq(categories.prohibited, false));
  for (const trip of TRIPS) {
    const departureCityKey = cityKey(trip.city);
    const [open] = await db
      .select({ id: announcements.id })
      .from(announcements)
      .where(and(eq(announcements.carrierId, carrierId), eq(announcements.departureCityKey, departureCityKey), eq(announcements.currency, 'XAF'), eq(announcements.status, 'ACTIVE')));
    if (open) continue;
    const departureDate = addDays(todayUtc(), trip.inDays);
    await db.insert(announcements).values({
      carrierId,
      departureCity: trip.city,
      departureCountry: 'CM',
      arrivalCity: 'Paris',
      arrivalCountry: 'FR',
      departureCityKey,
      arrivalCityKey: cityKey('Paris'),
      departureDate,
      arrivalDate: addDays(departureDate, 1),
      totalWeightG: 20_000,
      // Whole francs: XAF has no minor unit.
      pricePerKgCents: trip.pricePerKg,
      currency: 'XAF',
      pickupPoint: trip.pickup,
      deliveryPoint: 'Paris, Gare du Nord',
      description: 'Demo trip in CFA francs (XAF): pay by MTN or Orange Money',
      transportMode: 'PLANE',
      acceptedCategoryIds: accepted.slice(0, 3).map((c) => c.id),
    });
  }
}
