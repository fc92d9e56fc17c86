// Pure rules of reservations: the free cancellation after a trip change and the random identifiers
// a reservation is born with. Who gets how much back when a booking ends: cancellation-policy.ts.
// No I/O here (a recipient's phone is read by lib/phone.ts).
import { phoneOrRefuse } from '../../lib/phone';
import type { BookingDeclarations, RecipientInfo } from '../../db/schema';
import { randomBase64Url } from '../../lib/digest';

/**
 * CONTRACT section 19: once the trip's dates or points changed under a paid or confirmed booking
 * (TRIP_CHANGED), its sender may cancel with a full refund until departure, the departure day
 * included (a trip takes bookings until then too), whatever the usual rule.
 */
export function freeCancellationAfterTripChange(r: { tripChangedAt: string | null; departureDate: string }, today: string): boolean {
  return r.tripChangedAt !== null && r.departureDate >= today;
}

/** Letters and digits that cannot be mistaken for one another (no 0/O, 1/I/L). */
export const RESERVATION_NUMBER_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
export const RESERVATION_NUMBER_PATTERN = /^PX-[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{8}$/;

// CSPRNG words drawn 64 at a time: a booking draws ten (number and codes), one call serves them.
// Each word is used once.
const words = new Uint32Array(64);
let nextWord = words.length;
function randomWord(): number {
  if (nextWord === words.length) {
    crypto.getRandomValues(words);
    nextWord = 0;
  }
  return words[nextWord++];
}

/** Uniform random integer in [0, n) from the CSPRNG, by rejection (no modulo bias). */
export function randomInt(n: number): number {
  const limit = Math.floor(0x1_0000_0000 / n) * n;
  for (;;) {
    const word = randomWord();
    if (word < limit) return word % n;
  }
}

/** e.g. PX-7K3M9Q2A: short enough to read over the phone, 31^8 (about 8.5e11) possibilities. */
export function newReservationNumber(): string {
  let s = '';
  for (let i = 0; i < 8; i++) s += RESERVATION_NUMBER_ALPHABET[randomInt(RESERVATION_NUMBER_ALPHABET.length)];
  return `PX-${s}`;
}

/** 6-digit deposit or delivery code, leading zeros kept. */
export const newSixDigitCode = (): string => String(randomInt(1_000_000)).padStart(6, '0');

/** 256-bit secret of the public recipient page, base64url. */
export const newRecipientToken = (): string => randomBase64Url(32);

/** Unpaid reservations expire this long after booking. */
export const PAYMENT_WINDOW_MS = 30 * 60 * 1000;
/** A paid reservation the carrier has not answered within this delay is rejected. */
export const CARRIER_ANSWER_WINDOW_MS = 24 * 60 * 60 * 1000;

/** The recipient as stored: every optional field present, null when not given. */
export function normaliseRecipient(r: RecipientInfo, corridor?: readonly string[]): Required<RecipientInfo> {
  return {
    firstName: r.firstName,
    lastName: r.lastName,
    email: r.email ?? null,
    // Written as people write it, read in the trip's countries (arrival first): "77 123 45 67" to Dakar.
    phone: r.phone && corridor ? phoneOrRefuse(r.phone, corridor, 'recipient.phone') : (r.phone ?? null),
    address: r.address ?? null,
    city: r.city ?? null,
    postalCode: r.postalCode ?? null,
    instructions: r.instructions ?? null,
  };
}

/** What the sender declared, kept with the reservation; null when a v1 client declared nothing. */
export const declarationsOf = ({ declarations, acknowledgedRestrictions }: { declarations?: { noProhibitedItems: boolean }; acknowledgedRestrictions?: string[] }): BookingDeclarations | null =>
  declarations || acknowledgedRestrictions?.length
    ? { noProhibitedItems: declarations?.noProhibitedItems ?? false, acknowledgedRestrictions: [...new Set(acknowledgedRestrictions ?? [])] }
    : null;
