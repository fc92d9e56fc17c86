// What every seed step works with: the dependencies, the demo password and the demo accounts' ids.
import type { AnnouncementRow } from '../../../db/schema';
import type { Deps } from '../../../env';
import { splitPrice } from '../../../lib/money';
import { termsOf, type TripTerms } from '../../reservations/reservation-terms';
import { appConfig } from '../../../config';

export const DEFAULT_DEMO_PASSWORD = 'Demo-password-1';

export const DEMO_ACCOUNTS = [
  { email: 'superadmin@demo.local', firstName: 'Sam', lastName: 'Super', roles: ['ROLE_CLIENT', 'ROLE_SUPERADMIN'] },
  { email: 'admin@demo.local', firstName: 'Ada', lastName: 'Admin', roles: ['ROLE_CLIENT', 'ROLE_ADMIN'] },
  { email: 'carrier@demo.local', firstName: 'Carla', lastName: 'Carrier', roles: ['ROLE_CLIENT', 'ROLE_VERIFIED_USER'], kyc: true },
  { email: 'sender@demo.local', firstName: 'Sid', lastName: 'Sender', roles: ['ROLE_CLIENT'] },
  // The corridor (CONTRACT section 20): a carrier in Dakar paid out to a Wave wallet, trips in XOF.
  { email: 'carrier.dakar@demo.local', firstName: 'Awa', lastName: 'Diop', roles: ['ROLE_CLIENT', 'ROLE_VERIFIED_USER'], kyc: true },
  // Cameroon (CONTRACT section 29): a carrier in Douala paid out to an Orange Money number, trips in XAF.
  { email: 'carrier.douala@demo.local', firstName: 'Paul', lastName: 'Mbarga', roles: ['ROLE_CLIENT', 'ROLE_VERIFIED_USER'], kyc: true },
] as const;

export interface SeedContext extends Deps {
  password: string;
  /** Ids of the demo accounts by email, filled by the first step. */
  userIds: Record<string, number>;
}

export type SeedStep = (ctx: SeedContext) => Promise<void>;

/** The date `days` days from now (UTC), as YYYY-MM-DD. */
export const daysFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** A one-day Paris → Dakar plane trip of the demo carrier (the hand-over and payment demos). */
export const parisDakarTrip = (carrierId: number, departureInDays: number) => ({
  carrierId,
  departureCity: 'Paris',
  departureCountry: 'FR',
  arrivalCity: 'Dakar',
  arrivalCountry: 'SN',
  departureCityKey: 'paris',
  arrivalCityKey: 'dakar',
  departureDate: daysFromNow(departureInDays),
  arrivalDate: daysFromNow(departureInDays + 1),
  totalWeightG: 20_000,
  transportMode: 'PLANE' as const,
});

export interface DemoBooking {
  reservationNumber: string;
  senderId: number;
  carrierId: number;
  weightG: number;
  contentInfo: string;
  depositCode: string;
  deliveryCode: string;
  recipient: { firstName: string; lastName: string; phone: string; city: string };
}

/** The row of a demo reservation waiting for its payment on `trip` (price split as a booking does it). */
export const unpaidDemoReservation = (env: Env, trip: Pick<AnnouncementRow, 'id' | 'pricePerKgCents' | 'currency'> & TripTerms, b: DemoBooking) => ({
  reservationNumber: b.reservationNumber,
  announcementId: trip.id,
  senderId: b.senderId,
  carrierId: b.carrierId,
  reservedWeightG: b.weightG,
  contentInfo: b.contentInfo,
  depositCode: b.depositCode,
  deliveryCode: b.deliveryCode,
  recipient: b.recipient,
  recipientToken: crypto.randomUUID().replace(/-/g, '') + crypto.randomUUID().replace(/-/g, ''),
  pricePerKgCents: trip.pricePerKgCents,
  ...termsOf(trip),
  ...splitPrice(b.weightG, trip.pricePerKgCents, appConfig(env).platform.commissionRate),
  currency: trip.currency,
  paymentDeadline: new Date(Date.now() + 30 * 60_000).toISOString(),
});
