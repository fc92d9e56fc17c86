// THE way a mobile-money operation (pay-in, refund, payout) is run (CONTRACT section 29): recorded
// before it is sent, with one UUID used on every retry; marked UNKNOWN before the call, so a run that
// dies or times out leaves a row the next run ASKS about (the rail's status call, same id) instead of
// sending; sent again (same id, idempotent at the rail) only when the rail says it never got it. A
// final status is never changed again, except that money arriving for a pay-in (COMPLETED) is a fact
// even after a failed attempt on the same Wave session.
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { mobileMoneyOperations, type MobileMoneyOperationRow } from '../../../db/schema';
import { MobileMoneyRejectedError, ProviderRejectedError, ProviderUnavailableError, type OperationResult } from '../../../providers/mobile-money';

export type OperationSpec = Pick<MobileMoneyOperationRow, 'subject' | 'kind' | 'rail' | 'amountMinor' | 'currency'> & { reference: string } &
  Partial<Pick<MobileMoneyOperationRow, 'operator' | 'phone' | 'reservationId' | 'withdrawalId'>>;

const FINAL = ['COMPLETED', 'FAILED'] as const;
export const isFinal = (row: { status: string }) => (FINAL as readonly string[]).includes(row.status);

/** The operation for `spec.subject`: recorded (NEW, a fresh UUID) the first time, the same row after. */
export async function operationFor(db: Db, spec: OperationSpec): Promise<MobileMoneyOperationRow> {
  await db
    .insert(mobileMoneyOperations)
    .values({ id: crypto.randomUUID(), ...spec })
    .onConflictDoNothing({ target: mobileMoneyOperations.subject });
  const [row] = await db.select().from(mobileMoneyOperations).where(eq(mobileMoneyOperations.subject, spec.subject));
  return row;
}

export async function operationById(db: Db, id: string): Promise<MobileMoneyOperationRow | null> {
  const [row] = await db.select().from(mobileMoneyOperations).where(eq(mobileMoneyOperations.id, id));
  return row ?? null;
}

/** The operation a rail reference names (a Wave checkout id; pawaPay's ids are ours). */
export async function operationByRef(db: Db, rail: string, ref: string): Promise<MobileMoneyOperationRow | null> {
  const [row] = await db
    .select()
    .from(mobileMoneyOperations)
    .where(and(eq(mobileMoneyOperations.rail, rail), sql`(${mobileMoneyOperations.ref} = ${ref} OR ${mobileMoneyOperations.id} = ${ref})`))
    .limit(1);
  return row ?? null;
}

/**
 * Records what the rail said. A row already final keeps its status (the change count says whether
 * this call moved it), except FAILED -> COMPLETED for a pay-in. Returns the row as it now is, and
 * whether this call made it final.
 */
export async function recordOutcome(db: Db, op: MobileMoneyOperationRow, r: Omit<OperationResult, 'amountMinor' | 'currency'>) {
  const open = op.kind === 'PAYIN' && r.status === 'COMPLETED' ? ne(mobileMoneyOperations.status, 'COMPLETED') : inArray(mobileMoneyOperations.status, ['NEW', 'PENDING', 'UNKNOWN']);
  const [moved] = await db
    .update(mobileMoneyOperations)
    .set({
      status: r.status,
      ref: r.ref || op.ref,
      providerTransactionId: r.providerTransactionId ?? op.providerTransactionId,
      failureCode: r.failure?.code ?? null,
      failureMessage: r.failure?.message.slice(0, 500) ?? null,
      updatedAt: new Date().toISOString(),
    })
    .where(and(eq(mobileMoneyOperations.id, op.id), open))
    .returning();
  const row = moved ?? (await operationById(db, op.id))!;
  return { row, finalisedNow: Boolean(moved) && isFinal(moved) };
}

export interface Calls<R extends OperationResult> {
  send(): Promise<R>;
  status(ref: string | null): Promise<R | null>;
}

export interface Driven<R> {
  row: MobileMoneyOperationRow;
  /** What the rail answered this time (null: nothing asked, or no answer). */
  result: R | null;
  /** This call moved the row to a final status (who applies its effects, once). */
  finalisedNow: boolean;
}

function failureOf(err: unknown): { code: string; message: string } {
  if (err instanceof MobileMoneyRejectedError) return { code: err.code, message: err.message.slice(err.code.length + 2) };
  return { code: 'REJECTED', message: err instanceof Error ? err.message : String(err) };
}

async function send<R extends OperationResult>(db: Db, op: MobileMoneyOperationRow, calls: Calls<R>): Promise<Driven<R>> {
  try {
    const result = await calls.send();
    return { ...(await recordOutcome(db, op, result)), result };
  } catch (err) {
    if (err instanceof ProviderRejectedError && !(err instanceof ProviderUnavailableError)) {
      const failed = await recordOutcome(db, op, { status: 'FAILED', ref: op.ref ?? '', providerTransactionId: null, failure: failureOf(err) });
      return { ...failed, result: null };
    }
    // A timeout, a 5xx, an unreadable answer: UNKNOWN stays, the next run asks.
    console.error(JSON.stringify({ level: 'warn', msg: 'mobile-money outcome unknown', operation: op.id, kind: op.kind, error: String(err) }));
    return { row: (await operationById(db, op.id))!, result: null, finalisedNow: false };
  }
}

/** Runs `op` at most once at the rail, however often and concurrently it is called (see the header). */
export async function drive<R extends OperationResult>(db: Db, op: MobileMoneyOperationRow, calls: Calls<R>): Promise<Driven<R>> {
  if (isFinal(op)) return { row: op, result: null, finalisedNow: false };
  if (op.status === 'NEW') {
    const claimed = await db
      .update(mobileMoneyOperations)
      .set({ status: 'UNKNOWN', attempts: sql`${mobileMoneyOperations.attempts} + 1`, updatedAt: new Date().toISOString() })
      .where(and(eq(mobileMoneyOperations.id, op.id), eq(mobileMoneyOperations.status, 'NEW')))
      .returning();
    if (claimed.length === 1) return send(db, claimed[0], calls);
    op = (await operationById(db, op.id))!;
    if (isFinal(op)) return { row: op, result: null, finalisedNow: false };
  }
  let known: R | null;
  try {
    known = await calls.status(op.ref);
  } catch (err) {
    if (err instanceof ProviderUnavailableError || !(err instanceof ProviderRejectedError)) return { row: op, result: null, finalisedNow: false };
    throw err;
  }
  // Never reached the rail: sent again with the same id (the rail ignores a duplicate).
  if (!known) return send(db, op, calls);
  return { ...(await recordOutcome(db, op, known)), result: known };
}
