// The privacy steps of the cron: archives asked for are built on every run (within minutes); the
// retention rules run once a day, in bounded batches, each run recorded with what each rule did.
import type { Deps } from '../../env';
import { isDailySlot } from '../../lib/daily-slot';
import { buildPendingExports, purgeExpiredExports } from './export.service';
import { eq } from 'drizzle-orm';
import { retentionRuns } from '../../db/schema';
import {
  eraseAuditIps,
  eraseOfferRecipients,
  erasePersonalReservationData,
  purgeDeliveries,
  purgeKycDocuments,
  purgeNotifications,
  purgePhoneCodes,
  purgeTrackingPoints,
  purgeTravelProofs,
} from './retention';

/** The retention rules run in the cron's daily slot. */
export const isRetentionSlot = isDailySlot;

/** The rules of one run, in order, each with the name its count is recorded under. */
const RULES: readonly [string, (deps: Deps, now: Date) => Promise<number>][] = [
  ['notifications', purgeNotifications],
  ['deliveries', purgeDeliveries],
  ['trackingReservations', purgeTrackingPoints],
  ['personalDataReservations', erasePersonalReservationData],
  ['kycDocuments', purgeKycDocuments],
  ['offerRecipients', eraseOfferRecipients],
  ['travelProofs', purgeTravelProofs],
  ['phoneCodes', purgePhoneCodes],
  ['auditIps', eraseAuditIps],
  ['exports', purgeExpiredExports],
];

/**
 * One pass of every retention rule, recorded in retention_runs (the console's Privacy page): the
 * counts of what each rule did, or, when one fails, the counts so far and the error (then thrown,
 * so the cron reports it and the job's heartbeat says it failed).
 */
export async function runRetention(deps: Deps, now: Date): Promise<Record<string, number>> {
  const { db } = deps;
  // When it really ran (`now` is the cron's scheduled time, which the rules' cut-offs use).
  const [run] = await db.insert(retentionRuns).values({ startedAt: new Date().toISOString() }).returning({ id: retentionRuns.id });
  const counts: Record<string, number> = {};
  try {
    for (const [name, rule] of RULES) counts[name] = await rule(deps, now);
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err);
    await db.update(retentionRuns).set({ finishedAt: new Date().toISOString(), counts, error: error.slice(0, 500) }).where(eq(retentionRuns.id, run.id));
    throw err;
  }
  await db.update(retentionRuns).set({ finishedAt: new Date().toISOString(), counts }).where(eq(retentionRuns.id, run.id));
  console.log(JSON.stringify({ level: 'info', event: 'privacy.retention', ...counts }));
  return counts;
}

export async function runPrivacyJobs(deps: Deps, at: Date): Promise<void> {
  await buildPendingExports(deps, at);
  if (isRetentionSlot(at)) await runRetention(deps, at);
}
