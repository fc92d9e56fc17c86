// A mobile-money rail's statement (Wave's Balance API) against our operations (CONTRACT section 27,
// docs/decisions-reconciliation.md): the by-id checks of reconciliation.service.ts find what the rail
// says of each operation of ours; the statement finds the money that moved without one (a refund
// made in Wave's portal, a payout paid twice, a payment we recorded as failed), and our completed
// operations the wallet never moved. Pure: the service reads both sides and stores what these return.
import type { MobileMoneyOperationRow } from '../../../db/schema';
import type { RailStatementEntry } from '../../../providers/mobile-money';
import { statusesDisagree, type Difference } from './reconciliation.rules';

export type StatementOperation = Pick<MobileMoneyOperationRow, 'id' | 'kind' | 'status' | 'amountMinor' | 'currency' | 'ref' | 'reference' | 'reservationId' | 'withdrawalId'>;

/** The kinds of our operations a statement entry of each kind may be about (a partial refund is a payout at Wave). */
const MATCHING_KINDS: Record<RailStatementEntry['kind'], readonly string[]> = {
  PAYIN: ['PAYIN'],
  REFUND: ['REFUND'],
  PAYOUT: ['PAYOUT', 'REFUND'],
  PAYOUT_REVERSAL: ['PAYOUT', 'REFUND'],
  OTHER: [],
};

export interface StatementMatch {
  entry: RailStatementEntry;
  op: StatementOperation | null;
  /** Another entry of the same kind was already about this operation: the money moved twice. */
  again: boolean;
}

/**
 * Which operation each entry is about: the one its rail reference names, else among those sent with
 * its reference the one of the same amount not matched yet, then one of the same amount (the money
 * moved twice), then any: two payouts sent under one reference (a refund retried) are told apart by
 * amount, and a second line for the same one stands out.
 */
export function matchStatement(entries: RailStatementEntry[], ops: StatementOperation[]): StatementMatch[] {
  const used = new Map<string, Set<string>>();
  const usedFor = (kind: string) => used.get(kind) ?? used.set(kind, new Set()).get(kind)!;
  return entries.map((entry) => {
    const kinds = MATCHING_KINDS[entry.kind];
    const taken = usedFor(entry.kind);
    const byRef = entry.ref ? ops.find((o) => o.ref === entry.ref && kinds.includes(o.kind)) : undefined;
    const named = byRef ? [byRef] : entry.reference ? ops.filter((o) => o.reference === entry.reference && kinds.includes(o.kind)) : [];
    const free = named.filter((o) => !taken.has(o.id));
    const same = (o: StatementOperation) => o.amountMinor === entry.amountMinor;
    const op = free.find(same) ?? named.find(same) ?? free[0] ?? named[0] ?? null;
    const again = op !== null && taken.has(op.id);
    if (op) taken.add(op.id);
    return { entry, op, again };
  });
}

const OBJECT_OF = { PAYIN: 'PAYIN', REFUND: 'REFUND', PAYOUT: 'PAYOUT', PAYOUT_REVERSAL: 'PAYOUT' } as const;

/**
 * The differences the statement shows. `matches`: every entry listed (the day's and the next day's,
 * for our operations completed across midnight); only the day's entries (`inDay`) are reported;
 * `ofDay`: our operations created that day, each COMPLETED one expected on the statement;
 * `reported`: operations the by-id checks already listed (not listed twice).
 */
export function compareStatement(matches: StatementMatch[], inDay: (entry: RailStatementEntry) => boolean, ofDay: StatementOperation[], reported: Set<string>): Difference[] {
  const reversed = new Set(matches.filter((m) => m.entry.kind === 'PAYOUT_REVERSAL' && m.op).map((m) => m.op!.id));
  const out: Difference[] = [];
  for (const { entry, op, again } of matches) {
    if (entry.kind === 'OTHER' || !inDay(entry) || (op && reported.has(op.id))) continue;
    const reversal = entry.kind === 'PAYOUT_REVERSAL';
    const at = {
      object: OBJECT_OF[entry.kind],
      currency: entry.currency,
      providerRef: entry.id,
      providerAmountMinor: entry.amountMinor,
      providerStatus: reversal ? 'reversed' : 'COMPLETED',
      reservationId: op?.reservationId ?? null,
      withdrawalId: op?.withdrawalId ?? null,
      ourAmountMinor: op?.amountMinor ?? null,
      ourStatus: op?.status ?? null,
    };
    if (!op || again) {
      out.push({ ...at, kind: 'MISSING_IN_BOOKS' });
      continue;
    }
    // A reversal's amount is Wave's to state (the fee returned or not): it is its status that counts.
    if (!reversal && (entry.amountMinor !== op.amountMinor || entry.currency !== op.currency)) {
      out.push({ ...at, kind: 'AMOUNT_MISMATCH' });
      continue;
    }
    // A payout the rail reversed is a failed one for us: its two lines agree with FAILED.
    const disagree = reversal ? op.status === 'COMPLETED' : !(reversed.has(op.id) && op.status === 'FAILED') && statusesDisagree('COMPLETED', op.status);
    if (disagree) out.push({ ...at, kind: 'STATUS_MISMATCH' });
  }
  const listed = new Set(matches.filter((m) => m.op && m.entry.kind !== 'PAYOUT_REVERSAL').map((m) => m.op!.id));
  for (const op of ofDay) {
    if (op.status !== 'COMPLETED' || listed.has(op.id) || reported.has(op.id)) continue;
    out.push({
      kind: 'MISSING_AT_PROVIDER',
      object: op.kind,
      currency: op.currency,
      providerRef: op.ref ?? op.id,
      providerAmountMinor: null,
      providerStatus: null,
      reservationId: op.reservationId,
      withdrawalId: op.withdrawalId,
      ourAmountMinor: op.amountMinor,
      ourStatus: op.status,
    });
  }
  return out;
}
