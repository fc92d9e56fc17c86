// The audit log (/console/audit): every recorded action, by action and actor.
import { Hono } from 'hono';
import { listAuditLogs } from '../../superadmin/superadmin.service';
import { assertSuperAdmin, page, view, type ConsoleEnv } from '../console.http';
import { Field, ListCard, pageInfo, shortDate } from '../console.layout';
import { listPage } from '../console.params';
import { userLabels } from '../console.queries';

export const auditRoutes = new Hono<ConsoleEnv>();

const auditPaging = listPage(['createdAt', 'id'] as const, 'createdAt,desc');

auditRoutes.get('/audit', async (c) => {
  assertSuperAdmin(c.get('operator'));
  const v = await view(c);
  const action = (c.req.query('action') ?? '').trim().toUpperCase();
  const actor = (c.req.query('actorId') ?? '').trim();
  const p = auditPaging(c);
  const filters = { action: action || undefined, actorId: /^\d{1,9}$/.test(actor) ? Number(actor) : undefined };
  const { rows, total } = await listAuditLogs(c.get('deps'), filters, p);
  const labels = await userLabels(c.get('deps'), rows.flatMap((r) => (r.actorId === null ? [] : [r.actorId])));
  const errors: Record<string, string> = actor && filters.actorId === undefined ? { actorId: v.t('id') } : {};
  return page(
    c,
    v,
    v.t('audit'),
    '/console/audit',
    <ListCard
      v={v}
      path="/console/audit"
      filters={
        <>
          <Field name="action" label={v.t('action')} value={action} idPrefix="q" />
          <Field name="actorId" label={`${v.t('actor')} (${v.t('id')})`} state={{ values: { actorId: actor }, errors }} idPrefix="q" attrs={{ inputmode: 'numeric' }} />
        </>
      }
      query={{ action, actorId: actor }}
      page={pageInfo(p, total)}
      columns={[[v.t('when')], [v.t('action')], [v.t('actor')], [v.t('target'), 'wide'], [v.t('ip'), 'wide'], [v.t('details'), 'wide']]}
      rows={rows.map((r) => [
        <span class="when">{shortDate(r.createdAt)}</span>,
        r.action,
        r.actorId === null ? '—' : (labels.get(r.actorId)?.email ?? `#${r.actorId}`),
        r.targetType ? `${r.targetType} ${r.targetId ?? ''}` : '—',
        r.ip ?? '—',
        <code style="font-size:12px;overflow-wrap:anywhere">{r.details ? JSON.stringify(r.details) : ''}</code>,
      ])}
    />,
    Object.keys(errors).length ? 400 : 200,
  );
});
