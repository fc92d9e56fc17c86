// What keeps an account from being deleted (DELETE /user/me): others still depend on it, or money
// would be stranded. Each guard is one small query on the tables (no feature service), so this
// module can be imported by users.service without an import cycle.
import { and, eq, gt, inArray, or } from 'drizzle-orm';
import { agencies, announcements, ledgerAccounts, reservations, withdrawals } from '../../db/schema';
import type { Deps } from '../../env';
import { msg, type Text } from '../../errors';
import type { ReservationStatus } from '../reservations/reservation-state';
import { carriesPrivately } from '../../access/reservation-access';

/** A reservation in these states still needs both parties (payment, handover, delivery or a dispute). */
export const OPEN_RESERVATION_STATUSES: readonly ReservationStatus[] = [
  'PENDING_PAYMENT',
  'PAID',
  'CONFIRMED',
  'DEPOSITED',
  'IN_TRANSIT',
  'DISPUTED',
];

export async function openReservationGuard(deps: Deps, userId: number): Promise<Text | null> {
  const { db } = deps;
  const [row] = await db
    .select({ number: reservations.reservationNumber })
    .from(reservations)
    .where(
      and(
        // An agency trip's reservations are the agency's: a staff member's erasure never waits on them.
        or(eq(reservations.senderId, userId), carriesPrivately(userId)),
        inArray(reservations.status, [...OPEN_RESERVATION_STATUSES]),
      ),
    )
    .limit(1);
  return row
    ? msg('user.deletionReservationInProgress', { number: row.number })
    : null;
}

/** A trip still open to bookings (ACTIVE or FULL until it departs) has senders counting on its carrier. */
export async function openTripGuard(deps: Deps, userId: number): Promise<Text | null> {
  const { db } = deps;
  const [row] = await db
    .select({ id: announcements.id })
    .from(announcements)
    .where(and(carriesPrivately(userId, announcements), inArray(announcements.status, ['ACTIVE', 'FULL'])))
    .limit(1);
  return row ? msg('user.deletionTripOpen', { id: row.id }) : null;
}

export async function walletBalanceGuard(deps: Deps, userId: number): Promise<Text | null> {
  const { db } = deps;
  const [row] = await db
    .select({ cents: ledgerAccounts.balanceCents })
    .from(ledgerAccounts)
    // Held shares (CONTRACT section 19) are the user's money too, withdrawable once the dispute window closes.
    // In any currency: every account is per currency (CONTRACT section 20).
    .where(and(eq(ledgerAccounts.ownerType, 'USER'), eq(ledgerAccounts.ownerId, userId), inArray(ledgerAccounts.kind, ['WALLET', 'HELD']), gt(ledgerAccounts.balanceCents, 0)));
  return row ? 'user.deletionWalletHoldsMoney' : null;
}

export async function pendingWithdrawalGuard(deps: Deps, userId: number): Promise<Text | null> {
  const { db } = deps;
  const [row] = await db
    .select({ id: withdrawals.id })
    .from(withdrawals)
    .where(and(eq(withdrawals.ownerType, 'USER'), eq(withdrawals.ownerId, userId), eq(withdrawals.status, 'PENDING')))
    .limit(1);
  return row ? 'user.deletionWithdrawalPending' : null;
}

export async function agencyOwnerGuard(deps: Deps, userId: number): Promise<Text | null> {
  const { db } = deps;
  const [row] = await db.select({ id: agencies.id }).from(agencies).where(eq(agencies.ownerId, userId)).limit(1);
  return row ? msg('user.deletionOwnsAgency', { id: row.id }) : null;
}
