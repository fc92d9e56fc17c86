// What people are told (CONTRACT section 26): every notice built from a message key with its
// values, rendered in the reader's language with the amounts; held is not available; every ending
// tells both parties what goes back and what is kept.
import { env } from 'cloudflare:workers';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { deliveries, notifications } from '../src/db/schema';
import { depsOf } from '../src/env';
import { releaseHeldShares } from '../src/features/money';
import { toNotification } from '../src/features/notifications/notifications.service';
import { notify } from '../src/features/deliveries/notify';
import { renderEmail } from '../src/features/deliveries/templates';
import { formatMoneyIn } from '../src/lib/money';
import { db } from './helpers/db';
import { aReservation, FIFTY_EUR } from './helpers/factories';
import { post } from './helpers/http';
import { fakeStripeForThisFile } from './helpers/money';

const stripe = fakeStripeForThisFile();
const paid = { payment: stripe, ...FIFTY_EUR };

const notesOf = (userId: number, type: string) =>
  db().select().from(notifications).where(and(eq(notifications.userId, userId), eq(notifications.type, type)));
const eur = (minor: number, locale: 'fr' | 'en') => formatMoneyIn(minor, 'EUR', locale);

describe('notices state the money, in the reader’s language', () => {
  it('payment held: the amount and the number, in French in the app and in the e-mail', async () => {
    const { sender, reservation: r } = await aReservation({ status: 'PAID', ...paid });
    const [note] = await notesOf(sender.id, 'PAYMENT_AUTHORIZED');
    expect(note.text).toMatchObject({ key: 'notice.paymentHeld' });
    expect(toNotification(note, 'fr').message).toBe(`Votre paiement de ${eur(5000, 'fr')} pour la réservation ${r.reservationNumber} est conservé jusqu’à la livraison.`);
    expect(toNotification(note, 'en').message).toBe(`Your payment of 50.00 EUR for reservation ${r.reservationNumber} is held until delivery.`);
    const [mail] = await db().select().from(deliveries).where(and(eq(deliveries.userId, sender.id), eq(deliveries.template, 'PAYMENT_AUTHORIZED'), eq(deliveries.channel, 'EMAIL')));
    const email = renderEmail(env, { template: mail.template, locale: 'fr', payload: mail.payload as Record<string, unknown> });
    expect(email.text).toContain(`Votre paiement de ${eur(5000, 'fr')} pour la réservation ${r.reservationNumber}`);
  });

  it('the carrier is told a paid booking with its total and share', async () => {
    const { carrier, reservation: r } = await aReservation({ status: 'PAID', ...paid });
    const [note] = await notesOf(carrier.id, 'RESERVATION_PAID');
    expect(toNotification(note, 'fr').message).toContain(`a été payée ${eur(5000, 'fr')} ; votre part est de ${eur(4250, 'fr')}`);
    expect(toNotification(note, 'en').message).toContain(r.reservationNumber);
  });
});

describe('held is not available', () => {
  it('FUNDS_HELD at delivery with the day; FUNDS_AVAILABLE when the hold releases', async () => {
    const { carrier, reservation: r } = await aReservation({ status: 'DELIVERED', ...paid });
    const [held] = await notesOf(carrier.id, 'FUNDS_HELD');
    expect(toNotification(held, 'fr').message).toMatch(new RegExp(`^Votre part de ${eur(4250, 'fr')} pour la réservation ${r.reservationNumber} est retenue jusqu'au \\d{1,2} \\S+ \\d{4}`));
    expect(await notesOf(carrier.id, 'FUNDS_RELEASED')).toEqual([]);
    expect(await notesOf(carrier.id, 'FUNDS_AVAILABLE')).toEqual([]);

    await releaseHeldShares(depsOf(env), new Date(Date.now() + 4 * 24 * 3600 * 1000), { reservationId: r.id });
    const [available] = await notesOf(carrier.id, 'FUNDS_AVAILABLE');
    expect(toNotification(available, 'en').message).toBe(`42.50 EUR for reservation ${r.reservationNumber} is now available in your wallet: you can withdraw it.`);
    expect(available.data).toMatchObject({ amount: 42.5, currency: 'EUR' });
  });
});

describe('every ending tells both parties what goes back and what is kept', () => {
  it('a STRICT cancellation under 24 hours that keeps everything still tells the sender, and the carrier its share', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const { sender, carrier, reservation: r } = await aReservation({ status: 'CONFIRMED', ...paid, set: { cancellationPolicy: 'STRICT', departureDate: today } });
    const res = await post(`/v1/api/bookings/${r.id}/cancel`, {}, { token: sender.token });
    expect(res.status).toBe(200);
    const [toSender] = await notesOf(sender.id, 'RESERVATION_CANCELLED');
    const [toCarrier] = await notesOf(carrier.id, 'RESERVATION_CANCELLED');
    expect(toNotification(toSender, 'en').message).toBe(`You cancelled booking ${r.reservationNumber}: 0.00 EUR goes back to you; 50.00 EUR is kept under the trip’s cancellation policy.`);
    expect(toNotification(toCarrier, 'fr').message).toBe(
      `L'expéditeur a annulé la réservation ${r.reservationNumber} : ${eur(0, 'fr')} lui sont remboursés ; ${eur(5000, 'fr')} sont retenus, dont ${eur(4250, 'fr')} pour vous.`,
    );
    expect(toSender.data).toMatchObject({ cancelledBy: 'SENDER', refundAmount: 0, keptAmount: 50, currency: 'EUR' });
  });

  it('a sender cancelling before confirmation, keeping nothing, is told "in full", not "0 kept"', async () => {
    const { sender, carrier, reservation: r } = await aReservation({ status: 'PAID', ...paid });
    expect((await post(`/v1/api/bookings/${r.id}/cancel`, {}, { token: sender.token })).status).toBe(200);
    const [toSender] = await notesOf(sender.id, 'RESERVATION_CANCELLED');
    const [toCarrier] = await notesOf(carrier.id, 'RESERVATION_CANCELLED');
    expect(toNotification(toSender, 'fr').message).toBe(`Vous avez annulé la réservation ${r.reservationNumber} : ${eur(5000, 'fr')} vous sont remboursés en totalité.`);
    expect(toNotification(toCarrier, 'en').message).toBe(`The sender cancelled booking ${r.reservationNumber}: 50.00 EUR goes back to the sender in full; nothing is kept.`);
    expect(toSender.data).toMatchObject({ refundAmount: 50, keptAmount: 0 });
  });

  it('a carrier rejecting tells both parties the full refund', async () => {
    const { sender, carrier, reservation: r } = await aReservation({ status: 'PAID', ...paid });
    expect((await post(`/v1/api/bookings/${r.id}/reject`, undefined, { token: carrier.token })).status).toBe(200);
    const [toSender] = await notesOf(sender.id, 'RESERVATION_REJECTED');
    const [toCarrier] = await notesOf(carrier.id, 'RESERVATION_REJECTED');
    expect(toNotification(toSender, 'en').message).toBe(`The carrier rejected your booking ${r.reservationNumber}: 50.00 EUR goes back to you in full.`);
    expect(toNotification(toCarrier, 'en').message).toBe(`You rejected booking ${r.reservationNumber}: 50.00 EUR goes back to the sender in full.`);
  });

  it('an unpaid cancellation reaches the carrier in the app only: no e-mail, push or SMS', async () => {
    const { sender, carrier, reservation: r } = await aReservation({ status: 'PENDING_PAYMENT' });
    expect((await post(`/v1/api/bookings/${r.id}/cancel`, {}, { token: sender.token })).status).toBe(200);
    expect(await notesOf(carrier.id, 'RESERVATION_CANCELLED')).toHaveLength(1);
    expect(await db().select().from(deliveries).where(and(eq(deliveries.userId, carrier.id), eq(deliveries.template, 'RESERVATION_CANCELLED')))).toEqual([]);
  });
});

// One source per wording: a notice is its message key with values; the English stored beside it is
// derived from the key when it is written, never written at the change.
const SOURCES = import.meta.glob('../src/**/*.{ts,tsx}', { query: '?raw', import: 'default', eager: true }) as Record<string, string>;

describe('every notice has its message key', () => {
  it('notify() refuses a notice without a key (a title and message written inline)', () => {
    expect(() => notify(db(), { userId: 1, type: 'NEW_MESSAGE', title: 'New message', message: 'Someone wrote' } as never)).toThrow('A NEW_MESSAGE notice needs its words as a message key');
    expect(() => notify(db(), { userId: 1, type: 'NEW_MESSAGE', text: { key: 'notice.noSuchWording' } } as never)).toThrow('needs its words as a message key');
  });

  it('no code that notifies writes a title or an English sentence of its own', () => {
    const notifying = Object.entries(SOURCES).filter(([path, text]) => /deliveries\/notify'/.test(text) && !path.endsWith('/deliveries/notify.ts'));
    expect(notifying.length).toBeGreaterThan(15);
    const inline = notifying.flatMap(([path, text]) =>
      text
        .split('\n')
        .map((line, i) => [`${path}:${i + 1}`, line] as const)
        // A title written out, or a message that is a sentence (a template, or words with spaces) rather than a key.
        .filter(([, line]) => /\btitle:\s*['`"]/.test(line) || /\bmessage:\s*(`|'[^']* [^']*')/.test(line))
        .map(([where]) => where),
    );
    expect(inline).toEqual([]);
  });

  it('the stored English is the kind’s subject and the key rendered: the reader’s language comes from the key alone', async () => {
    const { sender, carrier, reservation: r } = await aReservation({ status: 'PAID', ...paid });
    expect((await post(`/v1/api/bookings/${r.id}/accept`, undefined, { token: carrier.token })).status).toBe(200);
    const [note] = await notesOf(sender.id, 'RESERVATION_CONFIRMED');
    expect(note.text).toEqual({ key: 'notice.bookingAccepted', params: { number: r.reservationNumber } });
    expect(note.title).toBe('Booking accepted');
    expect(note.message).toBe(`The carrier accepted your booking ${r.reservationNumber}.`);
    expect(toNotification(note, 'fr').message).toBe(`Le transporteur a accepté votre réservation ${r.reservationNumber}.`);
  });
});
