// The `user` object of every auth and user response (the specification's User summary plus
// roles, kycStatus, emailVerified, avatarUrl, agencyId), built in this one place.
import { z } from '@hono/zod-openapi';
import type { UserRow } from '../../db/schema';
import type { Deps } from '../../env';
import { walletFiguresOf, ZERO_WALLET, type WalletFigures } from '../money';

/** The wallet figures of the given users (from the ledger), keyed by user id. */
export const loadWalletFigures = (deps: Deps, userIds: readonly number[]): Promise<Map<number, WalletFigures>> =>
  walletFiguresOf(deps.db, 'USER', userIds);

export const UserSchema = z
  .object({
    id: z.number().int(),
    firstName: z.string(),
    lastName: z.string(),
    username: z.string().nullable(),
    phoneNumber: z.string().nullable(),
    nationality: z.string().nullable(),
    address: z.string().nullable().openapi({ description: 'Street and number (the sender on customs declarations)' }),
    postalCode: z.string().nullable(),
    city: z.string().nullable(),
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
    phoneVerified: z.boolean().openapi({ description: 'phoneNumber was proved by an SMS code (cleared when it changes)' }),
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
    address: row.address,
    postalCode: row.postalCode,
    city: row.city,
    email: row.email,
    birthDate: row.birthDate,
    connectedAccountId: row.connectedAccountId,
    enabled: row.enabled,
    walletBalance: wallet.walletBalance,
    pendingWithdrawalAmount: wallet.pendingWithdrawalAmount,
    totalEarned: wallet.totalEarned,
    totalWithdrawn: wallet.totalWithdrawn,
    roles: row.roles,
    kycStatus: row.kycStatus,
    emailVerified: row.emailVerified,
    phoneVerified: row.phoneVerified,
    avatarUrl: row.avatarUrl,
    agencyId: row.agencyId,
  };
}

/** The user objects of several rows, wallet figures loaded in one call. */
export async function toUsers(deps: Deps, rows: UserRow[]): Promise<UserDto[]> {
  const wallets = await loadWalletFigures(
    deps,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toUser(r, wallets.get(r.id)));
}

export const toUserWithWallet = async (deps: Deps, row: UserRow) => (await toUsers(deps, [row]))[0];
