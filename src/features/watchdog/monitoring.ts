// Monitoring without a super-admin password (CONTRACT section 27): named, revocable tokens a
// super-admin creates for an outside monitor. A token is shown once; only its SHA-256 is kept. It
// reads GET /superadmin/metrics and GET /superadmin/incidents (superadminOrMonitoring) and nothing
// else: anywhere else it is not an access token, so it is refused as one (401).
import { and, eq, isNull } from 'drizzle-orm';
import { createMiddleware } from 'hono/factory';
import { monitoringTokens, type MonitoringTokenRow } from '../../db/schema';
import { readPage } from '../../db/statements';
import type { AppEnv, AuthUser, Deps } from '../../env';
import { notFound, unauthorized } from '../../errors';
import { randomBase64Url, sha256Hex } from '../../lib/digest';
import { orderBy, type PageParams } from '../../lib/pagination';
import { requireAuth, requireRole, type Role } from '../../middleware/auth';
import { auditInsert } from '../audit/audit';

/** Told apart from an access token (a JWT) by its prefix. */
export const MONITORING_TOKEN_PREFIX = 'mon_';

const bearer = (header: string | undefined) => header?.match(/^Bearer\s+(\S+)$/i)?.[1];

/** A live monitoring token's row (its last use recorded), or 401 like an invalid access token. */
async function monitoringCaller(deps: Deps, token: string): Promise<MonitoringTokenRow> {
  const [row] = await deps.db
    .update(monitoringTokens)
    .set({ lastUsedAt: new Date().toISOString() })
    .where(and(eq(monitoringTokens.tokenHash, await sha256Hex(token)), isNull(monitoringTokens.revokedAt)))
    .returning();
  if (!row) throw unauthorized('request.accessTokenInvalidExpired', { suggestions: ['request.logRefreshAccessToken'] });
  return row;
}

const superadminOnly = requireRole('ROLE_SUPERADMIN');

/** A super-admin's access token, or a live monitoring token: the guard of the metrics and the incidents. */
export const superadminOrMonitoring = Object.assign(
  createMiddleware<AppEnv>(async (c, next) => {
    const token = bearer(c.req.header('Authorization'));
    if (token?.startsWith(MONITORING_TOKEN_PREFIX)) {
      await monitoringCaller(c.get('deps'), token);
      return next();
    }
    await requireAuth(c, async () => {
      await superadminOnly(c, next);
    });
  }),
  { roles: ['ROLE_SUPERADMIN'] as Role[] },
);

export const toMonitoringToken = (row: MonitoringTokenRow) => ({
  id: row.id,
  name: row.name,
  createdBy: row.createdBy,
  createdAt: row.createdAt,
  lastUsedAt: row.lastUsedAt,
  revokedAt: row.revokedAt,
});

/** A new token: the row and the audit entry in one batch; the token itself is returned once, never stored. */
export async function createMonitoringToken(deps: Deps, actor: Pick<AuthUser, 'id'>, name: string, ip: string | null) {
  const { db } = deps;
  const token = `${MONITORING_TOKEN_PREFIX}${randomBase64Url(32)}`;
  const [[row]] = await db.batch([
    db.insert(monitoringTokens).values({ name, tokenHash: await sha256Hex(token), createdBy: actor.id }).returning(),
    auditInsert(db, { actorId: actor.id, action: 'MONITORING_TOKEN_CREATED', targetType: 'MONITORING_TOKEN', ip, details: { name } }),
  ]);
  return { ...toMonitoringToken(row), token };
}

/** Revokes a token (audited); revoking one already revoked changes nothing. 404 for an unknown id. */
export async function revokeMonitoringToken(deps: Deps, actor: Pick<AuthUser, 'id'>, id: number, ip: string | null) {
  const { db } = deps;
  const [[row], [revoked]] = await db.batch([
    db.select().from(monitoringTokens).where(eq(monitoringTokens.id, id)),
    db
      .update(monitoringTokens)
      .set({ revokedAt: new Date().toISOString() })
      .where(and(eq(monitoringTokens.id, id), isNull(monitoringTokens.revokedAt)))
      .returning(),
  ]);
  if (!row) throw notFound('Monitoring token', id);
  if (revoked) await db.batch([auditInsert(db, { actorId: actor.id, action: 'MONITORING_TOKEN_REVOKED', targetType: 'MONITORING_TOKEN', targetId: id, ip, details: { name: row.name } })]);
  return toMonitoringToken(revoked ?? row);
}

export const MONITORING_TOKEN_SORT_FIELDS = ['createdAt'] as const;

export async function listMonitoringTokens(deps: Deps, page: PageParams<(typeof MONITORING_TOKEN_SORT_FIELDS)[number]>) {
  const order = orderBy(page.sort, { createdAt: monitoringTokens.createdAt }, monitoringTokens.id);
  const { rows, total } = await readPage(deps.db, monitoringTokens, undefined, order, page);
  return { content: rows.map(toMonitoringToken), total };
}
