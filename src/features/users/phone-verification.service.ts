// Phone verification by SMS code (CONTRACT 21): the code goes out through the outbox (one
// transactional SMS, written by the batch that stores the code's hash), and a right code makes
// the number the account's, verified. The rules are in phone-verification.rules.ts.
import { and, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { phoneVerificationCodes, users, type UserRow } from '../../db/schema';
import type { Deps } from '../../env';
import { businessRule, invalidArgument, invalidState, msg, tooManyRequests } from '../../errors';
import { rowExists } from '../../db/statements';
import { randomHex, sha256Hex } from '../../lib/digest';
import { transactionalMessage } from '../deliveries/outbox';
import { phoneCountry, phoneOrRefuse } from '../../lib/phone';
import { currentUser } from './users.service';
import {
  checkPhoneCode,
  codeRetryAfterSeconds,
  HOUR_MS,
  newPhoneCode,
  PHONE_CODE_MAX_ATTEMPTS,
  PHONE_CODE_TTL_MS,
  PHONE_CODES_PER_HOUR,
} from './phone-verification.rules';

// Salted: a 6-digit code has a million values, its bare hash would be read back at once.
const codeHash = (salt: string, code: string) => sha256Hex(`${salt}:${code}`);

/** Sends a new code to `phone` (replacing any pending one), unless 3 were sent in the last hour. */
export async function sendPhoneCode(deps: Deps, userId: number, written: string, now = Date.now()): Promise<{ phone: string; expiresAt: string }> {
  const { db } = deps;
  const user = await currentUser(deps, userId);
  // Read as the user writes it: in their nationality's country, or their current number's.
  const phone = phoneOrRefuse(written, [user.nationality, phoneCountry(user.phoneNumber)], 'phone');
  const recent = await db
    .select({ createdAt: phoneVerificationCodes.createdAt })
    .from(phoneVerificationCodes)
    .where(and(eq(phoneVerificationCodes.userId, userId), gt(phoneVerificationCodes.createdAt, new Date(now - HOUR_MS).toISOString())));
  const wait = codeRetryAfterSeconds(
    recent.map((r) => r.createdAt),
    now,
  );
  if (wait > 0) {
    throw tooManyRequests(msg('phone.tooManyCodes', { limit: PHONE_CODES_PER_HOUR }), wait, {
      suggestions: [msg('phone.waitBeforeNewCode', { seconds: wait })],
    });
  }
  const code = newPhoneCode();
  const salt = randomHex(16);
  const stamp = new Date(now).toISOString();
  const expiresAt = new Date(now + PHONE_CODE_TTL_MS).toISOString();
  await db.batch([
    db
      .update(phoneVerificationCodes)
      .set({ supersededAt: stamp })
      .where(and(eq(phoneVerificationCodes.userId, userId), isNull(phoneVerificationCodes.supersededAt), isNull(phoneVerificationCodes.verifiedAt))),
    db.insert(phoneVerificationCodes).values({ userId, phone, codeHash: await codeHash(salt, code), salt, expiresAt, createdAt: stamp }),
    transactionalMessage(db, codeSms(user, phone, code)),
  ]);
  return { phone, expiresAt };
}

const codeSms = (user: UserRow, phone: string, code: string) => ({
  userId: user.id,
  to: { SMS: { to: sql`${phone}`, present: sql`1` } },
  template: 'PHONE_VERIFICATION' as const,
  locale: user.locale,
  payload: { code },
});

/** The pending code of the user: the newest, neither replaced nor used. */
async function pendingCode({ db }: Deps, userId: number) {
  const [row] = await db
    .select()
    .from(phoneVerificationCodes)
    .where(and(eq(phoneVerificationCodes.userId, userId), isNull(phoneVerificationCodes.supersededAt), isNull(phoneVerificationCodes.verifiedAt)))
    .orderBy(desc(phoneVerificationCodes.id))
    .limit(1);
  return row;
}

/**
 * Checks `code` against the pending one: right, the number it was sent to becomes the account's,
 * verified; wrong, one attempt is spent (an attempt is counted by a conditional update, so two
 * concurrent guesses cannot both pass the 5th).
 */
export async function verifyPhoneCode(deps: Deps, userId: number, code: string, now = Date.now()): Promise<UserRow> {
  const { db } = deps;
  await currentUser(deps, userId);
  const pending = await pendingCode(deps, userId);
  if (!pending) throw invalidState('phone.noPendingCode', { suggestions: ['phone.requestCode'] });
  const verdict = checkPhoneCode(pending, (await codeHash(pending.salt, code)) === pending.codeHash, now);
  const live = and(eq(phoneVerificationCodes.id, pending.id), isNull(phoneVerificationCodes.verifiedAt), isNull(phoneVerificationCodes.supersededAt));
  if (verdict === 'EXHAUSTED') throw businessRule('phone.tooManyAttempts', { suggestions: ['phone.requestCode'] });
  if (verdict === 'EXPIRED') throw invalidArgument('phone.codeExpired', { suggestions: ['phone.requestCode'] });
  if (verdict === 'WRONG') {
    const spent = await db
      .update(phoneVerificationCodes)
      .set({ attempts: sql`${phoneVerificationCodes.attempts} + 1` })
      .where(and(live, lt(phoneVerificationCodes.attempts, PHONE_CODE_MAX_ATTEMPTS)))
      .returning({ attempts: phoneVerificationCodes.attempts });
    if (spent.length === 0) throw businessRule('phone.tooManyAttempts', { suggestions: ['phone.requestCode'] });
    throw invalidArgument(msg('phone.wrongCode', { attemptsLeft: PHONE_CODE_MAX_ATTEMPTS - spent[0].attempts }));
  }
  const stamp = new Date(now).toISOString();
  const [used, [user]] = await db.batch([
    db
      .update(phoneVerificationCodes)
      .set({ verifiedAt: stamp })
      .where(and(live, lt(phoneVerificationCodes.attempts, PHONE_CODE_MAX_ATTEMPTS))),
    db
      .update(users)
      .set({ phoneNumber: pending.phone, phoneVerified: true, updatedAt: stamp })
      .where(and(eq(users.id, userId), rowExists(db, phoneVerificationCodes, and(eq(phoneVerificationCodes.id, pending.id), eq(phoneVerificationCodes.verifiedAt, stamp)))))
      .returning(),
  ]);
  if ((used as D1Result).meta.changes !== 1 || !user) throw invalidState('phone.noPendingCode', { suggestions: ['phone.requestCode'] });
  return user;
}
