// Dashboards (CONTRACT section 14): GET /dashboard/carrier, GET /dashboard/sender,
// GET /agencies/{id}/dashboard (the agency's owner, its employees, admins).
import { createRoute, z } from '@hono/zod-openapi';
import { ANNOUNCEMENT_STATUSES } from '../../db/schema';
import { createRouter } from '../../env';
import { amountOf, fromGrams } from '../../lib/money';
import { mainCurrency } from '../../lib/main-currency';
import { appConfig } from '../../config';
import { authErrorResponses, jsonContent, signedIn } from '../../lib/openapi';
import { IdParams } from '../../validation';
import { agencyForMember } from '../../access/agency-scope';
import { RESERVATION_STATUSES } from '../reservations/reservation-state';
import { agencyDashboard, carrierDashboard, senderDashboard } from './dashboards.service';

const Money = z.number().openapi({ format: 'double', description: "Amount with its currency's decimals (2 for EUR, none for XOF)" });
const counts = <S extends readonly [string, ...string[]]>(statuses: S) =>
  z.object({ total: z.number().int(), byStatus: z.record(z.enum(statuses), z.number().int()) });

const RatingSchema = z
  .object({ average: z.number().nullable().openapi({ description: '1-5, 2 decimals; null without reviews' }), count: z.number().int() })
  .openapi('DashboardRating');

const UpcomingTripSchema = z
  .object({
    id: z.number().int(),
    departureCity: z.string(),
    departureCountry: z.string(),
    arrivalCity: z.string(),
    arrivalCountry: z.string(),
    departureDate: z.string().openapi({ format: 'date' }),
    arrivalDate: z.string().openapi({ format: 'date' }),
    status: z.enum(ANNOUNCEMENT_STATUSES),
    totalWeight: z.number().openapi({ description: 'kg' }),
    reservedWeight: z.number().openapi({ description: 'kg' }),
    availableWeight: z.number().openapi({ description: 'kg' }),
  })
  .openapi('DashboardUpcomingTrip');

const EarningsSchema = z
  .object({
    currency: z.string(),
    totalEarned: Money.openapi({ description: 'Earnings credited to the wallet, all time' }),
    earnedThisMonth: Money,
    pendingInEscrow: Money.openapi({ description: 'Share of paid, not yet delivered reservations' }),
    walletBalance: Money,
  })
  .openapi('DashboardEarnings');
const EarningsByCurrency = z
  .array(EarningsSchema)
  .openapi({ description: 'The same figures per currency, never summed across currencies: the main currency first (as `earnings`), then every other one' });

const CarrierDashboardSchema = z
  .object({
    announcements: counts(ANNOUNCEMENT_STATUSES),
    reservations: counts(RESERVATION_STATUSES),
    upcomingTrips: z.array(UpcomingTripSchema),
    earnings: EarningsSchema,
    earningsByCurrency: EarningsByCurrency,
    rating: RatingSchema,
  })
  .openapi('CarrierDashboard');

const SpendingSchema = z
  .object({
    currency: z.string(),
    totalSpent: Money.openapi({ description: 'Payments, all time' }),
    totalRefunded: Money.openapi({ description: 'Refunded after capture and confirmed by the provider' }),
    totalReleased: Money.openapi({ description: 'Card holds released before capture: never charged' }),
    netSpent: Money,
    netSpentThisMonth: Money,
  })
  .openapi('DashboardSpending');

const SenderDashboardSchema = z
  .object({
    reservations: counts(RESERVATION_STATUSES),
    upcomingShipments: z.array(
      z.object({
        reservationId: z.number().int(),
        reservationNumber: z.string(),
        status: z.enum(RESERVATION_STATUSES),
        announcementId: z.number().int(),
        departureCity: z.string(),
        arrivalCity: z.string(),
        departureDate: z.string().openapi({ format: 'date' }),
        arrivalDate: z.string().openapi({ format: 'date' }),
        reservedWeight: z.number().openapi({ description: 'kg' }),
        totalAmount: Money.openapi({ description: "In the reservation's currency" }),
        currency: z.string().openapi({ description: "The reservation's currency (its trip's)" }),
      }),
    ),
    spending: SpendingSchema,
    spendingByCurrency: z
      .array(SpendingSchema)
      .openapi({ description: 'The same figures per currency, never summed across currencies: the main currency first (as `spending`), then every other one' }),
    rating: RatingSchema,
  })
  .openapi('SenderDashboard');

const AgencyDashboardSchema = z
  .object({
    agencyId: z.number().int(),
    agencyStatus: z.enum(['ACTIVE', 'SUSPENDED']),
    announcements: counts(ANNOUNCEMENT_STATUSES),
    reservations: counts(RESERVATION_STATUSES),
    upcomingTrips: z.array(UpcomingTripSchema),
    earnings: EarningsSchema,
    earningsByCurrency: EarningsByCurrency,
    staff: z.object({ branches: z.number().int(), activeBranches: z.number().int(), employees: z.number().int() }),
    rating: RatingSchema,
  })
  .openapi('AgencyDashboard');

type Trip = Awaited<ReturnType<typeof carrierDashboard>>['upcomingTrips'][number];
const toTrip = ({ totalWeightG, reservedWeightG, ...t }: Trip) => ({
  ...t,
  totalWeight: fromGrams(totalWeightG),
  reservedWeight: fromGrams(reservedWeightG),
  availableWeight: fromGrams(totalWeightG - reservedWeightG),
});

type Earnings = Awaited<ReturnType<typeof carrierDashboard>>['earnings'][number];
const toEarnings = (e: Earnings) => ({
  currency: e.currency,
  totalEarned: amountOf(e.totalEarnedCents, e.currency),
  earnedThisMonth: amountOf(e.thisMonthCents, e.currency),
  pendingInEscrow: amountOf(e.pendingInEscrowCents, e.currency),
  walletBalance: amountOf(e.walletBalanceCents, e.currency),
});

type Spending = Awaited<ReturnType<typeof senderDashboard>>['spending'][number];
const toSpending = (d: Spending) => ({
  currency: d.currency,
  totalSpent: amountOf(d.totalSpentCents, d.currency),
  totalRefunded: amountOf(d.totalRefundedCents, d.currency),
  totalReleased: amountOf(d.totalReleasedCents, d.currency),
  netSpent: amountOf(d.netSpentCents, d.currency),
  netSpentThisMonth: amountOf(d.thisMonthCents, d.currency),
});

/** The main currency's figures (listed first) as the spec's object, and the whole list beside it. */
const earningsFields = (rows: Earnings[]) => {
  const list = rows.map(toEarnings);
  return { earnings: list[0], earningsByCurrency: list };
};

const TAGS = ['Dashboards'];

export const dashboardsRouter = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'getCarrierDashboard',
      path: '/dashboard/carrier',
      tags: TAGS,
      summary: "The caller's carrier dashboard: trips, reservations, earnings, rating",
      description: 'The caller as carrier: their trips and the reservations on them counted by status, their next 5 trips departing today or later with the kilos left, their earnings (credited to the wallet all time and this calendar month, the share of paid undelivered private-trip reservations still in escrow, the wallet balance) in the main currency and then per currency, never summed across currencies, and their rating. Money earned on agency trips belongs to the agency and is not counted here.',
      ...signedIn(),
      responses: { 200: jsonContent(CarrierDashboardSchema, 'Carrier dashboard'), ...authErrorResponses() },
    }),
    async (c) => {
      const d = await carrierDashboard(c.get('deps'), c.get('auth').id, mainCurrency(appConfig(c.env)));
      return c.json({ ...d, upcomingTrips: d.upcomingTrips.map(toTrip), ...earningsFields(d.earnings) }, 200);
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'getSenderDashboard',
      path: '/dashboard/sender',
      tags: TAGS,
      summary: "The caller's sender dashboard: reservations, upcoming shipments, spending, rating",
      description: 'The caller as sender: their reservations counted by status, their next 5 shipments not yet delivered (PENDING_PAYMENT to IN_TRANSIT, soonest departure first, with the reservation\'s own terms), their spending (paid, refunded, card holds released, net, net this calendar month) in the main currency and then per currency, never summed across currencies, and their rating.',
      ...signedIn(),
      responses: { 200: jsonContent(SenderDashboardSchema, 'Sender dashboard'), ...authErrorResponses() },
    }),
    async (c) => {
      const d = await senderDashboard(c.get('deps'), c.get('auth').id, mainCurrency(appConfig(c.env)));
      const spending = d.spending.map(toSpending);
      return c.json(
        {
          reservations: d.reservations,
          upcomingShipments: d.upcomingShipments.map(({ reservationStatus, reservedWeightG, totalAmountCents, ...s }) => ({
            ...s,
            status: reservationStatus,
            reservedWeight: fromGrams(reservedWeightG),
            totalAmount: amountOf(totalAmountCents, s.currency),
          })),
          spending: spending[0],
          spendingByCurrency: spending,
          rating: d.rating,
        },
        200,
      );
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'getAgencyDashboard',
      path: '/agencies/{id}/dashboard',
      tags: TAGS,
      summary: "An agency's dashboard (its owner, its employees, admins)",
      description: 'The agency\'s trips and reservations counted by status, its next 5 trips, its earnings (wallet credits all time and this month, escrow of paid undelivered reservations, wallet balance) in the main currency and per currency, its branches (all and active) and employees counted, its status, and its rating from senders\' visible reviews of its trips. Its owner, its employees and admins; anyone else gets 403 ACCESS_DENIED, an unknown agency 404.',
      ...signedIn(),
      request: { params: IdParams },
      responses: { 200: jsonContent(AgencyDashboardSchema, 'Agency dashboard'), ...authErrorResponses(404) },
    }),
    async (c) => {
      const deps = c.get('deps');
      const { id } = c.req.valid('param');
      await agencyForMember(deps, c.get('auth'), id);
      const d = await agencyDashboard(deps, id, mainCurrency(appConfig(c.env)));
      return c.json({ ...d, upcomingTrips: d.upcomingTrips.map(toTrip), ...earningsFields(d.earnings) }, 200);
    },
  );
