// Whether a provider event that would mark a reservation paid (or captured) is about the checkout
// this service created: the amount and currency it asked for, and for a session event one of its
// own sessions for that reservation. A well-signed event for 1 cent (another checkout opened on the
// same provider account, with our reservation id in its metadata) must not pay a 10 EUR booking
// (CONTRACT section 19). A mismatch changes nothing and is put in front of operators: an audit
// entry (GET /superadmin/audit-logs, the console's audit page) and a warning log line.
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { paymentSessions, reservations } from '../../../db/schema';
import type { ProviderEvent } from '../../../providers/payment/webhook-signature';
import { auditInsert } from '../../audit/audit';
import { chargedCents } from '../ledger/posting-rules';

/** The events that authorise or capture a payment; the others change no money. */
const PAYING_EVENTS = new Set(['checkout.session.completed', 'payment_intent.amount_capturable_updated', 'payment_intent.succeeded']);

export interface CheckoutMismatch {
  fields: ('amount' | 'currency' | 'session')[];
  expected: { amountCents: number; currency: string };
  received: { amountCents: unknown; currency: unknown; sessionId?: unknown };
}

export async function checkoutMismatch(db: Db, event: ProviderEvent, reservationId: number): Promise<CheckoutMismatch | null> {
  if (!PAYING_EVENTS.has(event.type)) return null;
  const object = event.data.object;
  const isSession = event.type.startsWith('checkout.session.');
  const [row] = await db
    .select({ totalAmountCents: reservations.totalAmountCents, protectionPremiumCents: reservations.protectionPremiumCents, currency: reservations.currency })
    .from(reservations)
    .where(eq(reservations.id, reservationId));
  if (!row) return null;
  // The checkout asked for the price and the protection premium together (CONTRACT 21).
  const r = { amountCents: chargedCents(row), currency: row.currency };
  // A session carries its total as amount_total; a PaymentIntent the amount it was authorised for
  // (a partial capture keeps it, only amount_received is lower).
  const amount = isSession ? object.amount_total : object.amount;
  const currency = object.currency;
  const fields: CheckoutMismatch['fields'] = [];
  if (amount !== r.amountCents) fields.push('amount');
  if (typeof currency !== 'string' || currency.toLowerCase() !== r.currency.toLowerCase()) fields.push('currency');
  if (isSession) {
    const [ours] =
      typeof object.id === 'string'
        ? await db
            .select({ id: paymentSessions.id })
            .from(paymentSessions)
            .where(and(eq(paymentSessions.sessionId, object.id), eq(paymentSessions.reservationId, reservationId)))
        : [];
    if (!ours) fields.push('session');
  }
  if (!fields.length) return null;
  return {
    fields,
    expected: { amountCents: r.amountCents, currency: r.currency },
    received: { amountCents: amount ?? null, currency: currency ?? null, ...(isSession ? { sessionId: object.id ?? null } : {}) },
  };
}

/** Records the refused event for operators; the event is then acknowledged and changes nothing. */
export async function reportMismatch(db: Db, event: ProviderEvent, reservationId: number, mismatch: CheckoutMismatch): Promise<void> {
  const details = { eventId: event.id, eventType: event.type, ...mismatch };
  console.warn(JSON.stringify({ level: 'warn', event: 'payment_event.mismatch', reservationId, ...details }));
  await auditInsert(db, { actorId: null, action: 'PAYMENT_EVENT_MISMATCH', targetType: 'RESERVATION', targetId: reservationId, ip: null, details });
}
