// The reservation's status feed (CONTRACT 28, docs/decisions-sdk.md): an app waits for a payment
// (and every other status change) on a socket instead of polling GET /payments/{id}/status.
// Publishing is tied to the unit of work (db/client.ts): the lifecycle's commit marks the
// reservations whose status it changed (statusChangedOnCommit), the payment provider's entry points
// mark theirs (statusChanged); once the request or the cron run ends, each marked reservation's
// object reads D1 and tells its sockets (publishStatusChanges). A failed publish never fails the
// change: it is reported, and the object's 30 s sweep reads the reservation again anyway.
import { afterCommit, type Db } from '../../db/client';
import type { Deps } from '../../env';
import { reportCaught } from '../../error-tracking';

export const statusFeedObject = (env: Env, reservationId: number) => env.RESERVATION_STATUS.get(env.RESERVATION_STATUS.idFromName(String(reservationId)));

/** `statement` (an UPDATE of reservations RETURNING their ids): once its batch commits, their feeds are refreshed. */
export function statusChangedOnCommit<T extends object>(statement: T): T {
  return afterCommit(statement, (rows, work) => {
    for (const row of (rows as { id: number }[] | undefined) ?? []) work.statusChanged.add(row.id);
  });
}

/** The unit of work on `db` may have changed this reservation's payment status: its feed is refreshed when it ends. */
export function statusChanged(db: Db, reservationId: number): void {
  db.$work.statusChanged.add(reservationId);
}

/** Tells the feeds of the reservations the unit of work changed (after the response, or at the end of the cron run). */
export async function publishStatusChanges({ db, env }: Pick<Deps, 'db' | 'env'>): Promise<void> {
  const ids = [...db.$work.statusChanged];
  db.$work.statusChanged.clear();
  await Promise.all(
    ids.map(async (id) => {
      try {
        await statusFeedObject(env, id).refresh(id);
      } catch (err) {
        reportCaught(env, err, { msg: 'status feed not refreshed', reservationId: id });
      }
    }),
  );
}
