// Reads only the console needs and no API route serves as such: every withdrawal (all owners),
// a reservation found by its number, its ledger lines, the identity documents of a KYC record's
// user. Paged with the one pagination helper; no rule lives here.
import { and, asc, desc, eq, inArray, type SQL } from 'drizzle-orm';
import { files, ledgerAccounts, ledgerEntries, ledgerLines, reservations, users, withdrawals, type WithdrawalStatus } from '../../db/schema';
import { readPage } from '../../db/statements';
import type { Deps } from '../../env';
import { orderBy, toPage, type PageParams } from '../../lib/pagination';

export async function listAllWithdrawals(deps: Deps, q: PageParams<'createdAt'> & { status?: WithdrawalStatus }) {
  const { db } = deps;
  const where: SQL | undefined = q.status ? eq(withdrawals.status, q.status) : undefined;
  const { rows, total } = await readPage(db, withdrawals, where, orderBy(q.sort, { createdAt: withdrawals.createdAt }, withdrawals.id), q);
  return toPage(rows, total, q);
}

export async function reservationIdByNumber(deps: Deps, number: string): Promise<number | null> {
  const [row] = await deps.db.select({ id: reservations.id }).from(reservations).where(eq(reservations.reservationNumber, number.trim().toUpperCase()));
  return row?.id ?? null;
}

/** Every ledger line of the reservation's entries, in posting order. */
export const reservationLedger = (deps: Deps, reservationId: number) =>
  deps.db
    .select({
      entryId: ledgerEntries.id,
      type: ledgerEntries.type,
      description: ledgerEntries.description,
      descriptionText: ledgerEntries.descriptionText,
      createdAt: ledgerEntries.createdAt,
      account: ledgerAccounts.key,
      amountCents: ledgerLines.amountCents,
      currency: ledgerAccounts.currency,
    })
    .from(ledgerEntries)
    .innerJoin(ledgerLines, eq(ledgerLines.entryId, ledgerEntries.id))
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerLines.accountId))
    .where(eq(ledgerEntries.reservationId, reservationId))
    .orderBy(asc(ledgerEntries.id), asc(ledgerLines.id));

/** The identity documents the user uploaded, newest first (what the KYC reviewer looks at). */
export const kycDocumentsOf = (deps: Deps, userId: number) =>
  deps.db
    .select({ id: files.id, contentType: files.contentType, createdAt: files.createdAt })
    .from(files)
    .where(and(eq(files.ownerId, userId), eq(files.purpose, 'KYC_DOCUMENT')))
    .orderBy(desc(files.id))
    .limit(10);

/** E-mail and name of a few users, for lists that only hold ids. */
export async function userLabels(deps: Deps, ids: number[]): Promise<Map<number, { email: string; name: string }>> {
  const unique = [...new Set(ids)].slice(0, 100);
  if (unique.length === 0) return new Map();
  const rows = await deps.db.select({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName }).from(users).where(inArray(users.id, unique));
  return new Map(rows.map((r) => [r.id, { email: r.email, name: `${r.firstName} ${r.lastName}` }]));
}
