// Housekeeping run by the cron trigger: sessions whose refresh token expired more than a day
// ago, one-time tokens expired more than a day ago, spent provider ID tokens past their expiry (no
// longer accepted anyway) and what the sandbox providers recorded (the development outbox) more than a week ago.
import { lt } from 'drizzle-orm';
import { oneTimeTokens, outboxMessages, sessions, spentIdTokens } from '../../db/schema';
import type { Deps } from '../../env';

const DAY_MS = 24 * 60 * 60 * 1000;

export async function purgeExpiredIdentityRecords(deps: Deps, now = Date.now()) {
  const { db } = deps;
  const [s, t, m, i] = await db.batch([
    db.delete(sessions).where(lt(sessions.refreshExp, Math.floor((now - DAY_MS) / 1000))),
    db.delete(oneTimeTokens).where(lt(oneTimeTokens.expiresAt, new Date(now - DAY_MS).toISOString())),
    db.delete(outboxMessages).where(lt(outboxMessages.createdAt, new Date(now - 7 * DAY_MS).toISOString())),
    db.delete(spentIdTokens).where(lt(spentIdTokens.expiresAt, Math.floor(now / 1000))),
  ]);
  return { sessions: s.meta.changes, oneTimeTokens: t.meta.changes, mail: m.meta.changes, spentIdTokens: i.meta.changes };
}
