// The caller's own account (read, update, delete) and public profiles.
import { isOwnUpload } from '../../access/uploads';
import { phoneCountry, phoneOrRefuse } from '../../lib/phone';
import { eq } from 'drizzle-orm';
import { files, oneTimeTokens, users, type Locale, type UserRow } from '../../db/schema';
import type { Deps } from '../../env';
import { accessDenied, invalidState, notFound, unauthorized, validationError, type Text } from '../../errors';
import { auditInsert } from '../audit/audit';
import { revokeAllUserTokens } from '../sessions/sessions';
import { UPLOADED_FILE_URL } from './profile-fields';
import { loadUser, uniqueConflict } from './user-rows';
import { agencyOwnerGuard, openReservationGuard, openTripGuard, pendingWithdrawalGuard, walletBalanceGuard } from './account-deletion-guards';
import { eraseAccountData } from '../privacy/erasure';
import { samePhone } from './phone-verification.rules';

export interface ProfileUpdate {
  firstName?: string;
  lastName?: string;
  username?: string | null;
  phoneNumber?: string | null;
  birthDate?: string | null;
  nationality?: string | null;
  address?: string | null;
  postalCode?: string | null;
  city?: string | null;
  avatarUrl?: string | null;
  locale?: Locale;
}

/** The caller's row; a token that outlived its account is refused like any revoked token. */
export async function currentUser(deps: Deps, userId: number): Promise<UserRow> {
  const user = await loadUser(deps, userId);
  if (!user || user.deletedAt) throw unauthorized('auth.accountNoLongerExists');
  return user;
}

export async function updateProfile(deps: Deps, userId: number, update: ProfileUpdate): Promise<UserRow> {
  const { db } = deps;
  const current = await currentUser(deps, userId);
  if (update.avatarUrl) await assertOwnAvatar(deps, userId, update.avatarUrl);
  const fields: Record<string, unknown> = Object.fromEntries(Object.entries(update).filter(([, v]) => v !== undefined));
  if (update.phoneNumber) {
    update.phoneNumber = fields.phoneNumber = phoneOrRefuse(update.phoneNumber, [update.nationality ?? current.nationality, phoneCountry(current.phoneNumber)], 'phoneNumber');
  }
  // Another number is not the one an SMS code proved (CONTRACT 21).
  if (update.phoneNumber !== undefined && !samePhone(update.phoneNumber, current.phoneNumber)) fields.phoneVerified = false;
  try {
    const [row] = await db
      .update(users)
      .set({ ...fields, updatedAt: new Date().toISOString() })
      .where(eq(users.id, userId))
      .returning();
    return row;
  } catch (err) {
    throw uniqueConflict(err) ?? err;
  }
}

/**
 * An uploaded file named as avatar must be the caller's own AVATAR upload: another's file (a KYC
 * document, a parcel image) would be shown to everyone who sees the profile.
 */
async function assertOwnAvatar({ db }: Deps, userId: number, avatarUrl: string): Promise<void> {
  const id = UPLOADED_FILE_URL.exec(avatarUrl)?.[1];
  if (!id) return;
  const [file] = await db.select({ ownerId: files.ownerId, purpose: files.purpose }).from(files).where(eq(files.id, Number(id)));
  if (isOwnUpload(userId, file, 'AVATAR')) return;
  throw validationError('user.validationFailedBodyAvatarUrl', {
    fieldErrors: [{ field: 'avatarUrl', message: 'user.notAvatarUploadedUpload', rejectedValue: avatarUrl }],
    suggestions: ['validation.correctFields'],
  });
}

/**
 * A check another feature registers to refuse deleting an account while it still matters to
 * others (an open reservation, money in the wallet): returns the reason, or null to allow.
 */
export type AccountDeletionGuard = (deps: Deps, userId: number) => Promise<Text | null>;
export const ACCOUNT_DELETION_GUARDS: AccountDeletionGuard[] = [
  openReservationGuard,
  openTripGuard,
  walletBalanceGuard,
  pendingWithdrawalGuard,
  agencyOwnerGuard,
];

/**
 * DELETE /user/me: the row stays (reservations, ledger entries and reviews point to it) but
 * every personal field is erased, logins become impossible and every token is revoked; what else
 * the account held is erased by privacy/erasure.ts (CONTRACT section 24, docs/PRIVACY.md).
 * `operatorId`: a super-admin erasing the account from the console, the audit entry's actor.
 */
export async function deleteAccount(deps: Deps, userId: number, ip: string | null, operatorId?: number): Promise<void> {
  const { db } = deps;
  await currentUser(deps, userId);
  await assertDeletable(deps, userId);
  const erasure = await eraseAccountData(deps, userId);
  const now = new Date().toISOString();
  await db.batch([
    db
      .update(users)
      .set({
        email: `deleted-user-${userId}@deleted.invalid`,
        passwordHash: null,
        firstName: 'Deleted',
        lastName: 'User',
        username: null,
        phoneNumber: null,
        birthDate: null,
        nationality: null,
        address: null,
        postalCode: null,
        city: null,
        avatarUrl: null,
        googleSubject: null,
        appleSubject: null,
        enabled: false,
        emailVerified: false,
        phoneVerified: false,
        deletedAt: now,
        updatedAt: now,
      })
      .where(eq(users.id, userId)),
    db.delete(oneTimeTokens).where(eq(oneTimeTokens.userId, userId)),
    ...erasure,
    auditInsert(db, {
      actorId: operatorId ?? userId,
      action: 'ACCOUNT_DELETED',
      targetType: 'USER',
      targetId: userId,
      ip,
      ...(operatorId === undefined ? {} : { details: { erasedBy: 'SUPERADMIN' } }),
    }),
  ]);
  await revokeAllUserTokens(deps, userId, 'ACCOUNT_DELETED');
}

/** The first reason the account cannot be erased yet, or null. */
export async function deletionBlocker(deps: Deps, userId: number): Promise<Text | null> {
  for (const guard of ACCOUNT_DELETION_GUARDS) {
    const reason = await guard(deps, userId);
    if (reason) return reason;
  }
  return null;
}

/** 409 INVALID_STATE naming the first reason the account cannot be erased yet. */
export async function assertDeletable(deps: Deps, userId: number): Promise<void> {
  const reason = await deletionBlocker(deps, userId);
  if (reason) throw invalidState(reason);
}

/**
 * A super-admin erases an account from the console (CONTRACT section 24): the same erasure and
 * refusals as DELETE /user/me, audited with the operator as actor; an erased account is 409.
 */
export async function eraseAccountAsOperator(deps: Deps, operator: { id: number; roles: string[] }, userId: number, ip: string | null): Promise<void> {
  if (!operator.roles.includes('ROLE_SUPERADMIN')) throw accessDenied('console.requiresRoleSuperadmin');
  const user = await loadUser(deps, userId);
  if (!user) throw notFound('User', userId);
  if (user.deletedAt) throw invalidState('user.alreadyErased', { date: user.deletedAt.slice(0, 10) });
  await deleteAccount(deps, userId, ip, operator.id);
}

export async function publicUser(deps: Deps, id: number): Promise<UserRow> {
  const user = await loadUser(deps, id);
  if (!user) throw notFound('User', id);
  return user;
}
