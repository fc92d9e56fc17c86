// Dev seed step: the corridor (CONTRACT section 20). carrier.dakar@demo.local has a default Wave
// wallet for XOF payouts and an open Dakar -> Abidjan trip priced in francs, so a newcomer sees a
// trip to pay with Wave (the sandbox page) and a carrier paid out to a phone. Checks first: a rerun
// adds nothing.
import { and, eq } from 'drizzle-orm';
import { announcements, categories, mobilePayoutAccounts } from '../../../db/schema';
import { todayUtc } from '../../announcements/announcement-rules';
import { addDays } from '../../analytics/analytics.rules';
import { cityKey } from '../../reference/city-key';
import type { SeedContext } from './context';

export const DAKAR_CARRIER = 'carrier.dakar@demo.local';
/** A Senegalese Wave number (+221, 9 digits) of the demo's own, never a real person's. */
export const DAKAR_WAVE_PHONE = '+221770000100';

export async function seedCorridor({ db, userIds }: SeedContext) {
  const carrierId = userIds[DAKAR_CARRIER];
  if (!carrierId) return;
  const owner = and(eq(mobilePayoutAccounts.ownerType, 'USER'), eq(mobilePayoutAccounts.ownerId, carrierId));
  const [wallet] = await db.select({ id: mobilePayoutAccounts.id }).from(mobilePayoutAccounts).where(owner);
  if (!wallet) {
    await db.insert(mobilePayoutAccounts).values({ ownerType: 'USER', ownerId: carrierId, provider: 'WAVE', currency: 'XOF', phone: DAKAR_WAVE_PHONE, name: 'Awa Diop', isDefault: true });
  }
  const [open] = await db
    .select({ id: announcements.id })
    .from(announcements)
    .where(and(eq(announcements.carrierId, carrierId), eq(announcements.currency, 'XOF'), eq(announcements.status, 'ACTIVE')));
  if (open) return;
  const accepted = await db.select({ id: categories.id }).from(categories).where(eq(categories.prohibited, false));
  const departureDate = addDays(todayUtc(), 5);
  await db.insert(announcements).values({
    carrierId,
    departureCity: 'Dakar',
    departureCountry: 'SN',
    arrivalCity: 'Abidjan',
    arrivalCountry: 'CI',
    departureCityKey: cityKey('Dakar'),
    arrivalCityKey: cityKey('Abidjan'),
    departureDate,
    arrivalDate: addDays(departureDate, 1),
    totalWeightG: 15_000,
    // Whole francs: XOF has no minor unit.
    pricePerKgCents: 3_000,
    currency: 'XOF',
    pickupPoint: 'Dakar, Plateau',
    deliveryPoint: 'Abidjan, Plateau',
    description: 'Demo trip in CFA francs: pay with Wave',
    transportMode: 'PLANE',
    acceptedCategoryIds: accepted.slice(0, 3).map((c) => c.id),
  });
}
