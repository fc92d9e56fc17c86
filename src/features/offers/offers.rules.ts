// The pure rules of offers (CONTRACT 22, docs/decisions-terms.md "Offers"): who answers an offer in
// which status, what each answer leads to, the agreed price, when an offer expires. No I/O here.
import type { OfferStatus } from '../../db/schema';
import { accessDenied, invalidState, type AppError } from '../../errors';

/** An offer waits 48 hours for its answer, never past the start of the trip's departure day (UTC). */
export const OFFER_TTL_MS = 48 * 60 * 60 * 1000;

export const OPEN_OFFER_STATUSES = ['PENDING', 'COUNTERED'] as const satisfies readonly OfferStatus[];

export type OfferAction = 'ACCEPT' | 'DECLINE' | 'COUNTER' | 'WITHDRAW';
export type OfferSide = 'SENDER' | 'CARRIER';

/** When an offer made (or countered) at `now` on a trip leaving on `departureDate` expires. */
export function offerExpiry(now: Date, departureDate: string): string {
  const departure = Date.parse(`${departureDate}T00:00:00.000Z`);
  return new Date(Math.min(now.getTime() + OFFER_TTL_MS, departure)).toISOString();
}

/**
 * What `action` by `side` does to an offer in `status`: the status it leads to, or the error. A
 * PENDING offer is the carrier side's to accept, decline or counter; a COUNTERED one the
 * sender's to accept or decline; the sender may withdraw either. Anything else is 409, or 403 when
 * the offer is open but waits for the other side.
 */
export function offerStep(offer: { id: number; status: OfferStatus }, action: OfferAction, side: OfferSide): { to: OfferStatus } | { error: AppError } {
  const { id, status } = offer;
  const open = (OPEN_OFFER_STATUSES as readonly OfferStatus[]).includes(status);
  if (action === 'COUNTER' && status !== 'PENDING') return { error: invalidState('offer.counterOnlyPending', { id, status }) };
  if (!open) return { error: invalidState('offer.notOpen', { id, status }) };
  if (action === 'WITHDRAW') return side === 'SENDER' ? { to: 'WITHDRAWN' } : { error: accessDenied('offer.senderWithdraws') };
  const answering: OfferSide = status === 'PENDING' ? 'CARRIER' : 'SENDER';
  if (side !== answering) return { error: accessDenied(answering === 'CARRIER' ? 'offer.carrierAnswers' : 'offer.senderAnswers') };
  return { to: action === 'ACCEPT' ? 'ACCEPTED' : action === 'DECLINE' ? 'DECLINED' : 'COUNTERED' };
}

/** The price per kg both sides agree on when the offer is accepted: the carrier's counter if there is one. */
export const agreedPricePerKg = (offer: { status: OfferStatus; pricePerKgMinor: number; counterPricePerKgMinor: number | null }): number =>
  offer.status === 'COUNTERED' && offer.counterPricePerKgMinor !== null ? offer.counterPricePerKgMinor : offer.pricePerKgMinor;

/** Whether an open offer is past its time at `now`. */
export const isPastExpiry = (offer: { expiresAt: string }, now: Date): boolean => offer.expiresAt <= now.toISOString();
