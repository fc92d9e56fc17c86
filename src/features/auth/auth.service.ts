// Accounts and credentials: registration, password login, social login, email verification,
// password forgot/reset/change. Every path that issues tokens goes through sessions.ts.
import { phoneOrRefuse } from '../../lib/phone';
import { and, eq, isNull, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users, type Locale, type UserRow } from '../../db/schema';
import type { AuthUser, Deps } from '../../env';
import { accessDenied, authenticationError, businessRule, invalidState, unauthorized, validationError } from '../../errors';
import { DUMMY_PASSWORD_HASH, hashPassword, verifyPassword } from '../../lib/password';
import { rowExists } from '../../db/statements';
import { transactionalMessage } from '../deliveries/outbox';
import type { SocialIdentity } from '../../providers/social-login/social-login';
import { audit, auditInsert } from '../audit/audit';
import { normalizeEmail } from '../users/profile-fields';
import { accountExists, loadUser, uniqueConflict } from '../users/user-rows';
import { consumeOneTimeToken, oneTimeTokenStatements } from './one-time-tokens';
import { openSession, prepareSession, revokeAllUserTokens, revokeSessions, type TokenPair } from '../sessions/sessions';
import { checkSecondFactor } from './two-factor';
import { providerName, spendIdToken, unspendIdToken } from './spent-id-tokens';
import { walletFigureStatements, walletFiguresFrom, type WalletFigures } from '../money';

export interface RegisterInput {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  phoneNumber?: string;
  username?: string;
  birthDate?: string;
  nationality?: string;
}

export interface AuthResult extends TokenPair {
  user: UserRow;
  /** The user's wallet numbers when the flow already read them (login), else read for the response. */
  wallet?: WalletFigures;
}

const invalidCredentials = () =>
  authenticationError('auth.invalidEmailPassword', {
    suggestions: ['auth.checkEmailPasswordReset'],
  });

const suspended = () =>
  accessDenied('auth.accountSuspended', { suggestions: ['auth.contactSupportReactivateAccount'] });

const nowIso = () => new Date().toISOString();

async function findActiveByEmail(db: Db, email: string) {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.email, email), isNull(users.deletedAt)));
  return row;
}

type Addressee = Pick<UserRow, 'id' | 'email' | 'firstName' | 'locale'>;

/** The token and the e-mail carrying its link, in one batch: a stored token always has its message. */
async function sendTokenEmail(deps: Deps, user: Addressee, purpose: 'EMAIL_VERIFICATION' | 'PASSWORD_RESET') {
  const { db } = deps;
  const { token, statements } = await oneTimeTokenStatements(db, user.id, purpose);
  const page = purpose === 'EMAIL_VERIFICATION' ? '/verify-email' : '/reset-password';
  await db.batch([
    ...statements,
    transactionalMessage(db, {
      userId: user.id,
      to: user.email,
      template: purpose,
      locale: user.locale,
      payload: { firstName: user.firstName, path: `${page}?token=${token}` },
    }),
  ] as never);
}

/** The security notice of a password change, written only if `guard` (the change) holds. */
const passwordChangedMessage = (db: Db, user: Addressee, guard?: SQL) =>
  transactionalMessage(db, { userId: user.id, to: user.email, template: 'PASSWORD_CHANGED', locale: user.locale, payload: { firstName: user.firstName } }, guard);

/** `locale`: the language of the messages, from the request's Accept-Language (fr by default). */
export async function register(deps: Deps, input: RegisterInput, ip: string | null, locale: Locale = 'fr'): Promise<AuthResult> {
  const { db } = deps;
  const email = normalizeEmail(input.email);
  if (await findActiveByEmail(db, email)) throw accountExists('email');
  const passwordHash = await hashPassword(input.password);
  let user: UserRow;
  try {
    [user] = await db
      .insert(users)
      .values({
        email,
        passwordHash,
        firstName: input.firstName,
        lastName: input.lastName,
        phoneNumber: input.phoneNumber ? phoneOrRefuse(input.phoneNumber, [input.nationality], 'phoneNumber') : null,
        username: input.username ?? null,
        birthDate: input.birthDate ?? null,
        nationality: input.nationality ?? null,
        roles: ['ROLE_CLIENT'],
        locale,
        lastLoginAt: nowIso(),
      })
      .returning();
  } catch (err) {
    throw uniqueConflict(err) ?? err;
  }
  await sendTokenEmail(deps, user, 'EMAIL_VERIFICATION');
  const pair = await openSession(deps, user, 'REGISTER');
  await audit(deps, { actorId: user.id, action: 'USER_REGISTERED', targetType: 'USER', targetId: user.id, ip });
  return { ...pair, user };
}

/**
 * The password check every sign-in shares (the API's login, the operator console): the active
 * account with this email and password, else 401 (failure audited); a suspended account is 403.
 * Also says whether the stored hash should be upgraded, now that the password is known.
 */
export async function checkCredentials(deps: Deps, input: { email: string; password: string }, ip: string | null) {
  const { db } = deps;
  const email = normalizeEmail(input.email);
  const user = await findActiveByEmail(db, email);
  // Unknown emails and password-less (social) accounts verify against a dummy hash: same cost.
  const check = await verifyPassword(input.password, user?.passwordHash ?? DUMMY_PASSWORD_HASH);
  if (!user || !user.passwordHash || !check.valid) {
    await audit(deps, {
      actorId: user?.id ?? null,
      action: 'LOGIN_FAILURE',
      targetType: 'USER',
      targetId: user?.id,
      ip,
      details: user ? { reason: 'wrong password' } : { reason: 'unknown email', email },
    });
    throw invalidCredentials();
  }
  if (!user.enabled) {
    await audit(deps, { actorId: user.id, action: 'LOGIN_FAILURE', targetType: 'USER', targetId: user.id, ip, details: { reason: 'suspended' } });
    throw suspended();
  }
  return { user, needsRehash: check.needsRehash };
}

export async function login(deps: Deps, input: { email: string; password: string; totpCode?: string }, ip: string | null): Promise<AuthResult> {
  const { db } = deps;
  const { user, needsRehash } = await checkCredentials(deps, input, ip);
  await checkSecondFactor(deps, user, input.totpCode, ip);
  const loggedInAt = nowIso();
  const update: Partial<typeof users.$inferInsert> = { lastLoginAt: loggedInAt };
  // Hashes made with weaker parameters than today's are upgraded now that we hold the password.
  if (needsRehash) update.passwordHash = await hashPassword(input.password);
  // Login stamp, audit line, session row and the response's wallet numbers: one round trip.
  const { pair, insert } = await prepareSession(deps, user, 'PASSWORD');
  const [, , , ...wallet] = await db.batch([
    db.update(users).set(update).where(eq(users.id, user.id)),
    auditInsert(db, { actorId: user.id, action: 'LOGIN_SUCCESS', targetType: 'USER', targetId: user.id, ip }),
    insert,
    ...walletFigureStatements(db, 'USER', [user.id]),
  ]);
  return { ...pair, user: { ...user, lastLoginAt: loggedInAt }, wallet: walletFiguresFrom('USER', [user.id], wallet).get(user.id) };
}

/**
 * Social login: the account holding this provider subject, else the account with the verified
 * email (linked now), else a new account. Linking to an account whose email was never verified
 * drops its password and sessions: whoever registered that address without proving it loses
 * access (pre-hijacking defence).
 */
export async function socialLogin(
  deps: Deps,
  identity: SocialIdentity,
  names: { firstName?: string; lastName?: string },
  ip: string | null,
  totpCode?: string,
): Promise<AuthResult> {
  // The token is spent before anything is written, so of two concurrent exchanges one signs in.
  await spendIdToken(deps, identity);
  try {
    return await signInWith(deps, identity, names, ip, totpCode);
  } catch (err) {
    await unspendIdToken(deps, identity);
    throw err;
  }
}

async function signInWith(
  deps: Deps,
  identity: SocialIdentity,
  names: { firstName?: string; lastName?: string },
  ip: string | null,
  totpCode?: string,
): Promise<AuthResult> {
  const { db } = deps;
  const subjectColumn = identity.provider === 'GOOGLE' ? users.googleSubject : users.appleSubject;
  const subjectKey = identity.provider === 'GOOGLE' ? 'googleSubject' : 'appleSubject';
  let outcome: 'existing' | 'linked' | 'created' = 'existing';

  let [user] = await db
    .select()
    .from(users)
    .where(and(eq(subjectColumn, identity.subject), isNull(users.deletedAt)));
  // An account with a second factor needs it here too, before linking changes anything.
  if (user?.enabled) await checkSecondFactor(deps, user, totpCode, ip);
  if (!user) {
    // Creating or linking an account needs an address the provider vouches for.
    if (!identity.email) {
      throw authenticationError('auth.accountNoVerifiedEmail', { identity: providerName(identity) }, {
        suggestions: ['auth.verifyEmailAddressProvider'],
      });
    }
    const byEmail = await findActiveByEmail(db, identity.email);
    if (byEmail) {
      if (!byEmail.enabled) throw suspended();
      await checkSecondFactor(deps, byEmail, totpCode, ip);
      if (byEmail[subjectKey] && byEmail[subjectKey] !== identity.subject) {
        throw authenticationError('auth.accountLinkedAnotherIdentity', { identity: providerName(identity) });
      }
      const unverified = !byEmail.emailVerified;
      [user] = await db
        .update(users)
        .set({
          [subjectKey]: identity.subject,
          emailVerified: true,
          ...(unverified ? { passwordHash: null } : {}),
          updatedAt: nowIso(),
        })
        .where(eq(users.id, byEmail.id))
        .returning();
      if (unverified) await revokeAllUserTokens(deps, user.id, 'PASSWORD_RESET');
      outcome = 'linked';
    } else {
      try {
        [user] = await db
          .insert(users)
          .values({
            email: identity.email,
            firstName: names.firstName?.trim() || identity.givenName || 'Member',
            lastName: names.lastName?.trim() || identity.familyName || '',
            [subjectKey]: identity.subject,
            emailVerified: true,
            roles: ['ROLE_CLIENT'],
          })
          .returning();
      } catch (err) {
        throw uniqueConflict(err) ?? err;
      }
      outcome = 'created';
    }
  }
  if (!user.enabled) throw suspended();
  const loggedInAt = nowIso();
  await db.batch([
    db.update(users).set({ lastLoginAt: loggedInAt }).where(eq(users.id, user.id)),
    auditInsert(db, {
      actorId: user.id,
      action: 'SOCIAL_LOGIN',
      targetType: 'USER',
      targetId: user.id,
      ip,
      details: { provider: identity.provider, outcome },
    }),
  ]);
  const pair = await openSession(deps, user, identity.provider);
  return { ...pair, user: { ...user, lastLoginAt: loggedInAt } };
}

export async function verifyEmail(deps: Deps, token: string, ip: string | null): Promise<void> {
  const { db } = deps;
  const userId = await consumeOneTimeToken(deps, token, 'EMAIL_VERIFICATION');
  await db.batch([
    db.update(users).set({ emailVerified: true, updatedAt: nowIso() }).where(eq(users.id, userId)),
    auditInsert(db, { actorId: userId, action: 'EMAIL_VERIFIED', targetType: 'USER', targetId: userId, ip }),
  ]);
}

export async function resendVerification(deps: Deps, userId: number): Promise<void> {
  const user = await loadUser(deps, userId);
  if (!user || user.deletedAt) throw unauthorized('auth.accountNoLongerExists');
  if (user.emailVerified) throw invalidState('auth.emailAddressAlreadyVerified');
  await sendTokenEmail(deps, user, 'EMAIL_VERIFICATION');
}

/** Sends a reset link when the email belongs to an account; says nothing either way. */
export async function forgotPassword(deps: Deps, emailInput: string, ip: string | null): Promise<void> {
  const { db } = deps;
  const user = await findActiveByEmail(db, normalizeEmail(emailInput));
  if (!user) return;
  await sendTokenEmail(deps, user, 'PASSWORD_RESET');
  await audit(deps, { actorId: user.id, action: 'PASSWORD_RESET_REQUESTED', targetType: 'USER', targetId: user.id, ip });
}

/** Sets a new password from a reset token and revokes every session of the account. */
export async function resetPassword(deps: Deps, token: string, newPassword: string, ip: string | null): Promise<void> {
  const { db } = deps;
  const userId = await consumeOneTimeToken(deps, token, 'PASSWORD_RESET');
  const user = await loadUser(deps, userId);
  if (!user || user.deletedAt) throw unauthorized('auth.accountNoLongerExists');
  const passwordHash = await hashPassword(newPassword);
  // The mailbox owner proved control of the address: the email counts as verified.
  await db.batch([
    db.update(users).set({ passwordHash, emailVerified: true, updatedAt: nowIso() }).where(and(eq(users.id, userId), isNull(users.deletedAt))),
    auditInsert(db, { actorId: userId, action: 'PASSWORD_RESET', targetType: 'USER', targetId: userId, ip }),
    passwordChangedMessage(db, user),
  ]);
  await revokeAllUserTokens(deps, userId, 'PASSWORD_RESET');
}

/** Changes the caller's password; every other session of the account is revoked. */
export async function changePassword(
  deps: Deps,
  auth: AuthUser,
  input: { currentPassword: string; newPassword: string },
  ip: string | null,
): Promise<void> {
  const { db } = deps;
  const user = await loadUser(deps, auth.id);
  if (!user || user.deletedAt) throw unauthorized('auth.accountNoLongerExists');
  if (!user.passwordHash) {
    throw businessRule('auth.accountNoPasswordYet', {
      suggestions: ['auth.setPasswordThroughForgot'],
    });
  }
  const check = await verifyPassword(input.currentPassword, user.passwordHash);
  if (!check.valid) {
    await audit(deps, { actorId: user.id, action: 'PASSWORD_CHANGE_FAILED', targetType: 'USER', targetId: user.id, ip });
    // 400 on the field, not 401: apps read a 401 as "signed out" (CONTRACT section 19).
    throw validationError('auth.validationFailedBodyCurrentPassword', {
      fieldErrors: [{ field: 'currentPassword', message: 'auth.currentPasswordWrong', rejectedValue: '[redacted]' }],
      suggestions: ['validation.correctFields'],
    });
  }
  const passwordHash = await hashPassword(input.newPassword);
  // Compare-and-set on the old hash: two concurrent changes cannot both win. The security notice
  // is written only by the change that won.
  const [changed] = await db.batch([
    db
      .update(users)
      .set({ passwordHash, updatedAt: nowIso() })
      .where(and(eq(users.id, user.id), eq(users.passwordHash, user.passwordHash))),
    passwordChangedMessage(db, user, rowExists(db, users, and(eq(users.id, user.id), eq(users.passwordHash, passwordHash)))),
  ]);
  if (changed.meta.changes !== 1) throw invalidState('auth.passwordChangedConcurrentlyRetry');
  await audit(deps, { actorId: user.id, action: 'PASSWORD_CHANGED', targetType: 'USER', targetId: user.id, ip });
  await revokeSessions(deps, { userId: user.id, exceptSessionId: auth.sid }, 'PASSWORD_CHANGED');
}
