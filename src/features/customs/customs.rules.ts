// The customs declaration of a reservation (CONTRACT 21), as plain functions: when it exists,
// what it says (the JSON of GET /bookings/{id}/customs-declaration) and what the printable CN23
// form adds (category of item, gross weight, the carrier, the sender's declarations).
import { admittedSide } from '../../access/reservation-access';
import type { ReservationStatus, UserRow } from '../../db/schema';
import { invalidState, msg } from '../../errors';
import { fromMinor, storedMoney } from '../../lib/amount';
import { fromGrams } from '../../lib/money';
import { IN_PROGRESS_PAID_STATUSES } from '../reservations/reservation-state';
import { declaredTotalOf } from '../reservations/declared-value';
import type { ReservationView } from '../reservations/reservation-views';

/** Paid and carried or to be carried: a parcel that crosses a border. Before payment, or once it ended without travelling, there is none. */
export const DECLARABLE_STATUSES: readonly ReservationStatus[] = [...IN_PROGRESS_PAID_STATUSES, 'DELIVERED'];

/** 409 INVALID_STATE when the reservation has no declaration in its status. */
export function assertDeclarable(status: ReservationStatus): void {
  if (DECLARABLE_STATUSES.includes(status)) return;
  throw invalidState('customs.notDeclarable', { status }, { suggestions: [msg('customs.declarableFrom', { statuses: DECLARABLE_STATUSES.join(', ') })] });
}

/**
 * The Harmonized System heading of a category, only where the category says unambiguously what
 * the goods are (printed books); elsewhere the customs officer classifies from the description,
 * which the CN23 allows for non-commercial items.
 */
const HS_HEADINGS: Readonly<Record<string, string>> = { BOOKS: '4901' };

export const hsCodeOf = (categoryCode: string | null): string | undefined => (categoryCode ? HS_HEADINGS[categoryCode] : undefined);

/** The CN23's "category of item" (box 10) a platform of private senders can state. */
export type ItemCategory = 'GIFT' | 'DOCUMENTS' | 'COMMERCIAL_SAMPLE' | 'OTHER';

/**
 * Documents when every item is of the DOCUMENTS category, a gift when every item is of GIFTS,
 * else "other" explained as personal effects. Never a commercial sample or a sale: the platform
 * carries private parcels, and nothing the sender said makes them gifts (docs/decisions-customs.md).
 */
export function itemCategoryOf(categoryCodes: readonly (string | null)[]): ItemCategory {
  if (categoryCodes.length > 0 && categoryCodes.every((c) => c === 'DOCUMENTS')) return 'DOCUMENTS';
  if (categoryCodes.length > 0 && categoryCodes.every((c) => c === 'GIFTS')) return 'GIFT';
  return 'OTHER';
}

export interface CustomsParty {
  name: string;
  email: string | null;
  phone: string | null;
  address: string | null;
  city: string | null;
  postalCode: string | null;
  country: string;
}

export interface CustomsItem {
  description: string;
  quantity: number;
  weight: number | null;
  declaredValue: number | null;
  hsCode?: string;
}

/** The JSON of GET /bookings/{id}/customs-declaration (CONTRACT 21). */
export interface CustomsDeclaration {
  reservationNumber: string;
  sender: CustomsParty;
  recipient: CustomsParty;
  originCountry: string;
  destinationCountry: string;
  items: CustomsItem[];
  totalValue: number;
  currency: string;
  declaredAt: string;
}

/** An item's line: its name, with the sender's description when there is one. */
const itemDescription = (name: string, description: string | null) => (description ? `${name}: ${description}` : name);

/** The declaration as `viewerId` may read it: the sender's phone only for the sender (the carrier reaches them through the conversation). */
/** The sender's postal address as their profile has it (PUT /user/me): printed as the sender's on the CN23. */
export type SenderAddress = Pick<UserRow, 'address' | 'postalCode' | 'city'>;

export function customsDeclarationOf({ r, sender, items }: ReservationView, viewerId: number, home: SenderAddress): CustomsDeclaration {
  const amount = (minor: number) => fromMinor(storedMoney(minor, r.currency));
  return {
    reservationNumber: r.reservationNumber,
    // The sender's own contact and address (their profile's; without one, the city the parcel leaves from).
    sender: {
      name: `${sender.firstName} ${sender.lastName}`.trim(),
      email: sender.email,
      phone: admittedSide(viewerId, r) === 'SENDER' ? (sender.phoneNumber ?? null) : null,
      address: home.address,
      city: home.city ?? r.departureCity,
      postalCode: home.postalCode,
      country: r.departureCountry,
    },
    recipient: {
      name: `${r.recipient.firstName} ${r.recipient.lastName}`.trim(),
      email: r.recipient.email ?? null,
      phone: r.recipient.phone ?? null,
      address: r.recipient.address ?? null,
      city: r.recipient.city ?? r.arrivalCity,
      postalCode: r.recipient.postalCode ?? null,
      country: r.arrivalCountry,
    },
    originCountry: r.departureCountry,
    destinationCountry: r.arrivalCountry,
    items: items.map((i) => {
      const hsCode = hsCodeOf(i.code);
      return {
        description: itemDescription(i.name, i.description),
        quantity: i.reservedQuantity,
        weight: i.weight,
        declaredValue: i.declaredValueMinor === null ? null : amount(i.declaredValueMinor),
        ...(hsCode ? { hsCode } : {}),
      };
    }),
    totalValue: amount(declaredTotalOf(items)),
    currency: r.currency,
    // The values were declared when the sender booked.
    declaredAt: r.createdAt,
  };
}

/** What the printed CN23 shows besides the declaration: the trip, who carries it, box 10, the gross weight, comments. */
export interface Cn23Extras {
  carrierName: string;
  departureCity: string;
  arrivalCity: string;
  departureDate: string;
  grossWeightKg: number;
  /** What the sender paid for the carriage (box 9), in the reservation's currency. */
  transportPrice: number;
  category: ItemCategory;
  /** The sender's declarations at booking, for the comments box. */
  noProhibitedItems: boolean | null;
  /** The restrictions accepted: their codes here, their names in the reader's language once printed (customs.service.ts). */
  acknowledgedRestrictions: string[];
}

export function cn23ExtrasOf({ r, carrier, items }: ReservationView): Cn23Extras {
  return {
    carrierName: `${carrier.firstName} ${carrier.lastName}`.trim(),
    departureCity: r.departureCity,
    arrivalCity: r.arrivalCity,
    departureDate: r.departureDate,
    grossWeightKg: fromGrams(r.reservedWeightG),
    transportPrice: fromMinor(storedMoney(r.totalAmountCents, r.currency)),
    category: itemCategoryOf(items.map((i) => i.code)),
    noProhibitedItems: r.declarations?.noProhibitedItems ?? null,
    acknowledgedRestrictions: r.declarations?.acknowledgedRestrictions ?? [],
  };
}
