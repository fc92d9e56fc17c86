// The KYC queue (/console/kyc): identity checks by status, oldest submitted first.
import { Hono } from 'hono';
import { KYC_STATUSES } from '../../../db/schema';
import { listKycRecords } from '../../kyc/kyc.service';
import { assertSuperAdmin, page, view, type ConsoleEnv } from '../console.http';
import { Badge, ListCard, shortDate, StatusSelect } from '../console.layout';
import { listPage, oneOf } from '../console.params';
import { userLabels } from '../console.queries';

export const kycQueueRoutes = new Hono<ConsoleEnv>();

const kycPaging = listPage(['submittedAt', 'reviewedAt'] as const, 'submittedAt,asc');

kycQueueRoutes.get('/kyc', async (c) => {
  assertSuperAdmin(c.get('operator'));
  const v = await view(c);
  const status = c.req.query('status') === '' ? undefined : (oneOf(KYC_STATUSES, c.req.query('status')) ?? 'PENDING');
  const p = kycPaging(c);
  const result = await listKycRecords(c.get('deps'), { ...p, status });
  const labels = await userLabels(c.get('deps'), result.content.map((r) => r.userId));
  return page(
    c,
    v,
    v.t('kyc'),
    '/console/kyc',
    <ListCard
      v={v}
      path="/console/kyc"
      filters={<StatusSelect v={v} kind="kyc" values={KYC_STATUSES} value={status} />}
      query={{ status: status ?? '' }}
      page={result.page}
      columns={[[v.t('id')], [v.t('user')], [v.t('status')], [v.t('documentType'), 'wide'], [v.t('submitted'), 'wide'], ['']]}
      rows={result.content.map((r) => [
        r.id,
        <>
          {labels.get(r.userId)?.name}
          <br />
          <span class="muted">{labels.get(r.userId)?.email}</span>
        </>,
        <Badge v={v} kind="kyc" text={r.status} />,
        r.documentType ?? '—',
        shortDate(r.submittedAt),
        <a href={`/console/kyc/${r.id}`}>{v.t('open')}</a>,
      ])}
    />,
  );
});
