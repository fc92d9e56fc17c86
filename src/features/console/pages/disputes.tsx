// The disputes (/console/disputes): by status, newest first.
import { Hono } from 'hono';
import { DISPUTE_STATUSES } from '../../../db/schema';
import { listDisputes } from '../../disputes/disputes.service';
import { page, view, type ConsoleEnv } from '../console.http';
import { Badge, ListCard, shortDate, StatusSelect } from '../console.layout';
import { listPage, oneOf } from '../console.params';

export const disputesRoutes = new Hono<ConsoleEnv>();

const disputesPaging = listPage(['createdAt'] as const, 'createdAt,desc');

disputesRoutes.get('/disputes', async (c) => {
  const v = await view(c);
  const status = c.req.query('status') === '' ? undefined : (oneOf(DISPUTE_STATUSES, c.req.query('status')) ?? 'OPEN');
  const p = disputesPaging(c);
  const result = await listDisputes(c.get('deps'), p, { status });
  return page(
    c,
    v,
    v.t('disputes'),
    '/console/disputes',
    <ListCard
      v={v}
      path="/console/disputes"
      filters={<StatusSelect v={v} kind="dispute" values={DISPUTE_STATUSES} value={status} />}
      query={{ status: status ?? '' }}
      page={result.page}
      columns={[[v.t('id')], [v.t('reservation')], [v.t('reason')], [v.t('status')], [v.t('created'), 'wide'], ['']]}
      rows={result.content.map((d) => [
        d.id,
        <a href={`/console/reservations/${d.reservationId}`}>#{d.reservationId}</a>,
        d.reason,
        <Badge v={v} kind="dispute" text={d.status} />,
        shortDate(d.createdAt),
        <a href={`/console/disputes/${d.id}`}>{v.t('open')}</a>,
      ])}
    />,
  );
});
