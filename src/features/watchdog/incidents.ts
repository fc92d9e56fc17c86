// The watchdog's incidents as operators read them (GET /superadmin/incidents, the console's
// Incidents page): each with the alerts written when it opened and when it was resolved, and
// where those went (the channel, and whether the message left: SENT, or still QUEUED, FAILED, DEAD).
import { asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { deliveries, incidents, type DeliveryChannel, type DeliveryStatus, type IncidentRow, type IncidentStatus, type Locale } from '../../db/schema';
import { readPage } from '../../db/statements';
import type { Deps } from '../../env';
import { orderBy, type PageParams } from '../../lib/pagination';
import { INCIDENT_TEMPLATES } from '../deliveries/templates/incidents';
import { incidentTitle } from './watchdog.rules';
import { renderText } from '../../lib/message-text';
import type { Message } from '../../messages';

export const INCIDENT_SORT_FIELDS = ['openedAt'] as const;
export const ALERT_EVENTS = ['OPENED', 'RESOLVED'] as const;

/** One alert message of an incident: when it was written, by which channel, and whether it left. */
export interface IncidentAlert {
  event: (typeof ALERT_EVENTS)[number];
  channel: DeliveryChannel;
  status: DeliveryStatus;
  sentAt: string | null;
  lastError: string | null;
}

export const toIncident = (row: IncidentRow, alerts: IncidentAlert[] = [], locale: Locale = 'en') => ({
  id: row.id,
  rule: row.rule,
  subject: row.subject || null,
  title: incidentTitle(row.rule, row.subject, locale),
  severity: row.severity,
  status: row.status,
  summary: row.summaryText ? renderText(row.summaryText as Message, locale) : row.summary,
  value: row.value,
  threshold: row.threshold,
  openedAt: row.openedAt,
  lastSeenAt: row.lastSeenAt,
  resolvedAt: row.resolvedAt,
  alerts,
});
export type Incident = ReturnType<typeof toIncident>;

/** The alerts of these incidents, oldest first, in one read (the ids travel as one JSON parameter). */
async function alertsOf(deps: Deps, ids: number[]): Promise<Map<number, IncidentAlert[]>> {
  const byIncident = new Map<number, IncidentAlert[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return byIncident;
  const incidentId = sql<number>`json_extract(${deliveries.payload}, '$.incidentId')`;
  const rows = await deps.db
    .select({ incidentId, template: deliveries.template, channel: deliveries.channel, status: deliveries.status, sentAt: deliveries.sentAt, lastError: deliveries.lastError })
    .from(deliveries)
    .where(sql`${inArray(deliveries.template, [...INCIDENT_TEMPLATES])} AND ${incidentId} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`)
    .orderBy(asc(deliveries.id));
  for (const r of rows) {
    byIncident.get(Number(r.incidentId))?.push({
      event: r.template === 'INCIDENT_OPENED' ? 'OPENED' : 'RESOLVED',
      channel: r.channel,
      status: r.status,
      sentAt: r.sentAt,
      lastError: r.lastError,
    });
  }
  return byIncident;
}

/** Open and recent incidents, newest first by default; `status` keeps one kind. Titles in `locale`. */
export async function listIncidents(deps: Deps, status: IncidentStatus | undefined, page: PageParams<(typeof INCIDENT_SORT_FIELDS)[number]>, locale: Locale = 'en') {
  const where: SQL | undefined = status ? eq(incidents.status, status) : undefined;
  const order = orderBy(page.sort, { openedAt: incidents.openedAt }, incidents.id);
  const { rows, total } = await readPage(deps.db, incidents, where, order, page);
  const alerts = await alertsOf(
    deps,
    rows.map((r) => r.id),
  );
  return { content: rows.map((r) => toIncident(r, alerts.get(r.id), locale)), total };
}
