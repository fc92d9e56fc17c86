// The withdrawals (/console/withdrawals): every owner's payouts by status, with the provider's reason.
import { Hono } from 'hono';
import { WITHDRAWAL_STATUSES } from '../../../db/schema';
import { assertSuperAdmin, page, view, type ConsoleEnv } from '../console.http';
import { Badge, ListCard, money, shortDate, StatusSelect } from '../console.layout';
import { listPage, oneOf } from '../console.params';
import { listAllWithdrawals, userLabels } from '../console.queries';

export const withdrawalsRoutes = new Hono<ConsoleEnv>();

const withdrawalsPaging = listPage(['createdAt'] as const, 'createdAt,desc');

withdrawalsRoutes.get('/withdrawals', async (c) => {
  assertSuperAdmin(c.get('operator'));
  const v = await view(c);
  const status = oneOf(WITHDRAWAL_STATUSES, c.req.query('status'));
  const p = withdrawalsPaging(c);
  const result = await listAllWithdrawals(c.get('deps'), { ...p, status });
  const labels = await userLabels(c.get('deps'), result.content.filter((w) => w.ownerType === 'USER').map((w) => w.ownerId));
  return page(
    c,
    v,
    v.t('withdrawals'),
    '/console/withdrawals',
    <ListCard
      v={v}
      path="/console/withdrawals"
      filters={<StatusSelect v={v} kind="withdrawal" values={WITHDRAWAL_STATUSES} value={status} />}
      query={{ status: status ?? '' }}
      page={result.page}
      columns={[[v.t('id')], [v.t('owner')], [v.t('amount'), 'num'], [v.t('status')], [v.t('providerReason')], [v.t('created'), 'wide']]}
      rows={result.content.map((w) => [
        w.id,
        <>
          {w.ownerType === 'USER' ? <a href={`/console/users/${w.ownerId}`}>{labels.get(w.ownerId)?.email ?? `#${w.ownerId}`}</a> : `${v.t('agency')} #${w.ownerId}`}
          {w.automatic && <span class="muted"> · {v.t('automatic')}</span>}
        </>,
        money(v, w.amountCents, w.currency),
        <Badge v={v} kind="withdrawal" text={w.status} />,
        w.failureReason ?? '—',
        shortDate(w.createdAt),
      ])}
    />,
  );
});
