// The `user` object of every auth and user response (the specification's User summary plus
// roles, kycStatus, emailVerified, avatarUrl, agencyId), built in this one place.
import { z } from '@hono/zod-openapi';
import type { Db } from '../../db/client';
import type { UserRow } from '../../db/schema';
import { fromCents } from '../../lib/money';

/** Wallet figures in integer cents. They belong to the money feature. */
export interface WalletFigures {
  balanceCents: number;
  pendingWithdrawalCents: number;
  totalEarnedCents: number;
  totalWithdrawnCents: number;
}

export const ZERO_WALLET: WalletFigures = {
  balanceCents: 0,
  pendingWithdrawalCents: 0,
  totalEarnedCents: 0,
  totalWithdrawnCents: 0,
};

/**
 * The wallet figures of the given users, keyed by user id. This is THE place where the money
 * feature's ledger plugs in; until then every user shows zeros.
 */
export async function loadWalletFigures(_db: Db, _userIds: readonly number[]): Promise<Map<number, WalletFigures>> {
  return new Map();
}

export const UserSchema = z
  .object({
    id: z.number().int(),
    firstName: z.string(),
    lastName: z.string(),
    username: z.string().nullable(),
    phoneNumber: z.string().nullable(),
    nationality: z.string().nullable(),
    email: z.string(),
    birthDate: z.string().nullable().openapi({ format: 'date' }),
    connectedAccountId: z.string().nullable(),
    enabled: z.boolean(),
    walletBalance: z.number(),
    pendingWithdrawalAmount: z.number(),
    totalEarned: z.number(),
    totalWithdrawn: z.number(),
    roles: z.array(z.string()),
    kycStatus: z.enum(['NOT_VERIFIED', 'PENDING', 'VERIFIED']),
    emailVerified: z.boolean(),
    avatarUrl: z.string().nullable(),
    agencyId: z.number().int().nullable(),
  })
  .openapi('User');

export type UserDto = z.infer<typeof UserSchema>;

export function toUser(row: UserRow, wallet: WalletFigures = ZERO_WALLET): UserDto {
  return {
    id: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    username: row.username,
    phoneNumber: row.phoneNumber,
    nationality: row.nationality,
    email: row.email,
    birthDate: row.birthDate,
    connectedAccountId: row.connectedAccountId,
    enabled: row.enabled,
    walletBalance: fromCents(wallet.balanceCents),
    pendingWithdrawalAmount: fromCents(wallet.pendingWithdrawalCents),
    totalEarned: fromCents(wallet.totalEarnedCents),
    totalWithdrawn: fromCents(wallet.totalWithdrawnCents),
    roles: row.roles,
    kycStatus: row.kycStatus,
    emailVerified: row.emailVerified,
    avatarUrl: row.avatarUrl,
    agencyId: row.agencyId,
  };
}

/** The user objects of several rows, wallet figures loaded in one call. */
export async function toUsers(db: Db, rows: UserRow[]): Promise<UserDto[]> {
  const wallets = await loadWalletFigures(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toUser(r, wallets.get(r.id)));
}

export const toUserWithWallet = async (db: Db, row: UserRow) => (await toUsers(db, [row]))[0];
