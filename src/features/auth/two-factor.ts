// Staff two-factor authentication (CONTRACT 27, docs/OPERATIONS.md "Two factors for staff"): an
// administrator or super-admin enrols a TOTP authenticator from the console (QR of the otpauth://
// URI, confirmed by a first code, ten recovery codes shown once); from then on every sign-in of
// that account (console, API password login, social login) needs a current code or an unused
// recovery code. A code is accepted once: its time step is recorded and an older or equal step
// is refused (a code seen over a shoulder or in a proxy log cannot be replayed).
import { and, eq, isNull, isNotNull, or, lt, sql } from 'drizzle-orm';
import { staffRecoveryCodes, staffTotp, type UserRow } from '../../db/schema';
import type { Deps } from '../../env';
import { accessDenied, authenticationError, invalidState } from '../../errors';
import { isProduction } from '../../config';
import { randomBytes, sha256Hex } from '../../lib/digest';
import { base32Decode, base32Encode, matchingStep, otpauthUri } from '../../lib/totp';
import { audit, auditInsert } from '../audit/audit';

export const RECOVERY_CODE_COUNT = 10;
const SECRET_BYTES = 20; // 160 bits: RFC 4226's recommended length for HMAC-SHA-1
const ISSUER = 'Parcel Marketplace';

const STAFF_ROLES = ['ROLE_ADMIN', 'ROLE_SUPERADMIN'];
export const isStaff = (roles: readonly string[]) => STAFF_ROLES.some((r) => roles.includes(r));

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A recovery code as typed (any case, dashes or spaces) in the one form it is hashed in. */
const normaliseRecovery = (code: string) => code.replace(/[\s-]/g, '').toUpperCase();

/** Ten codes of 16 base32 characters (80 bits), shown as xxxx-xxxx-xxxx-xxxx. */
function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const raw = base32Encode(randomBytes(10));
    return raw.match(/.{4}/g)!.join('-');
  });
}

export interface TwoFactorStatus {
  enrolled: boolean;
  confirmedAt: string | null;
  recoveryCodesLeft: number;
}

export async function twoFactorStatus(deps: Deps, userId: number): Promise<TwoFactorStatus> {
  const [row] = await deps.db
    .select({
      confirmedAt: staffTotp.confirmedAt,
      left: sql<number>`(SELECT count(*) FROM ${staffRecoveryCodes} WHERE ${staffRecoveryCodes.userId} = ${userId} AND ${staffRecoveryCodes.usedAt} IS NULL)`,
    })
    .from(staffTotp)
    .where(eq(staffTotp.userId, userId));
  return { enrolled: Boolean(row?.confirmedAt), confirmedAt: row?.confirmedAt ?? null, recoveryCodesLeft: row?.confirmedAt ? Number(row.left) : 0 };
}

/**
 * Begins (or shows again) an enrolment: the secret an app is to scan. Reloading the page keeps
 * the same secret, so a code from an app that already scanned it still confirms.
 */
export async function beginEnrolment(deps: Deps, user: Pick<UserRow, 'id' | 'email'>) {
  const [existing] = await deps.db.select().from(staffTotp).where(eq(staffTotp.userId, user.id));
  if (existing?.confirmedAt) throw invalidState('auth.totpAlreadyEnrolled');
  let secret = existing?.secret;
  if (!secret) {
    secret = base32Encode(randomBytes(SECRET_BYTES));
    await deps.db.insert(staffTotp).values({ userId: user.id, secret }).onConflictDoNothing();
    // Two tabs enrolling at once: both show the secret that was stored first.
    [{ secret }] = await deps.db.select({ secret: staffTotp.secret }).from(staffTotp).where(eq(staffTotp.userId, user.id));
  }
  return { secret, uri: otpauthUri(ISSUER, user.email, base32Decode(secret)!) };
}

/** Confirms an enrolment with a first code; returns the recovery codes (shown once, stored hashed). */
export async function confirmEnrolment(deps: Deps, userId: number, code: string, ip: string | null): Promise<string[]> {
  const { db } = deps;
  const [row] = await db.select().from(staffTotp).where(eq(staffTotp.userId, userId));
  if (!row) throw invalidState('auth.totpNotStarted');
  if (row.confirmedAt) throw invalidState('auth.totpAlreadyEnrolled');
  const step = await matchingStep(base32Decode(row.secret)!, code.trim(), nowSeconds());
  if (step === null) throw authenticationError('auth.totpInvalid');
  const codes = newRecoveryCodes();
  const hashes = await Promise.all(codes.map((c) => sha256Hex(normaliseRecovery(c))));
  const confirmedAt = new Date().toISOString();
  const [confirmed] = await db.batch([
    db
      .update(staffTotp)
      .set({ confirmedAt, lastStep: step })
      .where(and(eq(staffTotp.userId, userId), isNull(staffTotp.confirmedAt)))
      .returning({ userId: staffTotp.userId }),
    db.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.userId, userId)),
    db.insert(staffRecoveryCodes).values(hashes.map((codeHash) => ({ userId, codeHash }))),
    auditInsert(db, { actorId: userId, action: 'TOTP_ENROLLED', targetType: 'USER', targetId: userId, ip }),
  ]);
  // A second confirmation racing this one: the codes of the first stand (D1 ran both batches whole).
  if (confirmed.length === 0) throw invalidState('auth.totpAlreadyEnrolled');
  return codes;
}

/**
 * Spends a second factor of an enrolled account: a current TOTP code (its step recorded, so it
 * cannot be used twice) or an unused recovery code. False when neither matches.
 */
export async function spendSecondFactor(deps: Deps, userId: number, code: string, ip: string | null): Promise<boolean> {
  const { db } = deps;
  const given = code.trim();
  if (/^\d{6}$/.test(given)) {
    const [row] = await db.select().from(staffTotp).where(and(eq(staffTotp.userId, userId), isNotNull(staffTotp.confirmedAt)));
    if (!row) return false;
    const step = await matchingStep(base32Decode(row.secret)!, given, nowSeconds());
    if (step === null) return false;
    const moved = await db
      .update(staffTotp)
      .set({ lastStep: step })
      .where(and(eq(staffTotp.userId, userId), or(isNull(staffTotp.lastStep), lt(staffTotp.lastStep, step))))
      .returning({ userId: staffTotp.userId });
    return moved.length === 1;
  }
  const hash = await sha256Hex(normaliseRecovery(given));
  const used = await db
    .update(staffRecoveryCodes)
    .set({ usedAt: new Date().toISOString() })
    .where(and(eq(staffRecoveryCodes.userId, userId), eq(staffRecoveryCodes.codeHash, hash), isNull(staffRecoveryCodes.usedAt)))
    .returning({ userId: staffRecoveryCodes.userId });
  if (used.length !== 1) return false;
  await audit(deps, { actorId: userId, action: 'TOTP_RECOVERY_CODE_USED', targetType: 'USER', targetId: userId, ip });
  return true;
}

/**
 * The second-factor gate of every sign-in, after the password (or social token) was accepted:
 * an enrolled account needs a code (401 without or with a wrong one, audited as a failed login);
 * in production, staff without an authenticator may not sign in to the API (they enrol in the
 * console first, which signs them in and sends them there before anything else).
 */
export async function checkSecondFactor(deps: Deps, user: Pick<UserRow, 'id' | 'roles'>, code: string | undefined, ip: string | null) {
  // Only staff enrol (CONTRACT 27): everyone else signs in without this read (login's round trips).
  if (!isStaff(user.roles)) return;
  const status = await twoFactorStatus(deps, user.id);
  if (!status.enrolled) {
    if (isProduction(deps.env)) throw accessDenied('auth.totpEnrolFirst');
    return;
  }
  if (!code?.trim()) throw authenticationError('auth.totpRequired', { suggestions: ['auth.totpSendCode'] });
  if (await spendSecondFactor(deps, user.id, code, ip)) return;
  await audit(deps, { actorId: user.id, action: 'LOGIN_FAILURE', targetType: 'USER', targetId: user.id, ip, details: { reason: 'wrong second factor' } });
  throw authenticationError('auth.totpInvalid');
}

/** A super-admin removes an operator's authenticator (a lost phone and lost codes): they enrol again. */
export async function resetTwoFactor(deps: Deps, actorId: number, userId: number, ip: string | null) {
  const { db } = deps;
  await db.batch([
    db.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.userId, userId)),
    db.delete(staffTotp).where(eq(staffTotp.userId, userId)),
    auditInsert(db, { actorId, action: 'TOTP_RESET', targetType: 'USER', targetId: userId, ip }),
  ]);
}
