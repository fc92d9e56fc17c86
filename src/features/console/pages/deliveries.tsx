// The deliveries (/console/deliveries): the messages that did not leave (failed, dead), with the
// provider's reason and a retry.
import { Hono } from 'hono';
import { DELIVERY_CHANNELS, DELIVERY_STATUSES } from '../../../db/schema';
import { clientIp } from '../../audit/audit';
import { listDeliveries, RETRYABLE_STATUSES, retryDelivery } from '../../deliveries/deliveries.admin.service';
import { act, assertSuperAdmin, page, view, type ConsoleContext, type ConsoleEnv } from '../console.http';
import { codeLabel } from '../console.i18n';
import { Badge, Csrf, Field, ListCard, pageInfo, Select, shortDate, type FormState } from '../console.layout';
import { listPage, oneOf, pathId } from '../console.params';

export const deliveriesRoutes = new Hono<ConsoleEnv>();

const deliveriesPaging = listPage(['createdAt', 'id'] as const, 'createdAt,desc');

async function deliveriesPage(c: ConsoleContext, state?: FormState) {
  assertSuperAdmin(c.get('operator'));
  const v = await view(c, state?.message ? { kind: 'error', text: state.message } : undefined);
  // No status chosen: what needs an operator, FAILED or DEAD; ALL: every status.
  const chosen = c.req.query('status') ?? '';
  const status = chosen === 'ALL' ? undefined : (oneOf(DELIVERY_STATUSES, chosen) ?? RETRYABLE_STATUSES);
  const channel = oneOf(DELIVERY_CHANNELS, c.req.query('channel'));
  const template = (c.req.query('template') ?? '').trim().toUpperCase().slice(0, 100);
  const p = deliveriesPaging(c);
  const { content, total } = await listDeliveries(c.get('deps'), { status, channel, template: template || undefined }, p);
  const retryable = (s: string) => (RETRYABLE_STATUSES as readonly string[]).includes(s);
  return page(
    c,
    v,
    v.t('deliveries'),
    '/console/deliveries',
    <ListCard
      v={v}
      path="/console/deliveries"
      filters={
        <>
          <Select
            name="status"
            label={v.t('status')}
            value={chosen}
            options={[['', v.t('failedOrDead')], ['ALL', v.t('all')], ...DELIVERY_STATUSES.map((s): [string, string] => [s, codeLabel(v.locale, 'delivery', s)])]}
          />
          <Select name="channel" label={v.t('channel')} value={channel ?? ''} options={[['', v.t('all')], ...DELIVERY_CHANNELS.map((ch): [string, string] => [ch, ch])]} />
          <Field name="template" label={v.t('template')} value={template} idPrefix="q" attrs={{ placeholder: 'PASSWORD_RESET' }} />
        </>
      }
      query={{ status: chosen, channel, template }}
      page={pageInfo(p, total)}
      columns={[[v.t('id')], [v.t('recipient')], [v.t('template')], [v.t('status')], [v.t('providerReason')], [v.t('attempts'), 'num'], [v.t('created'), 'wide'], [v.t('action')]]}
      rows={content.map((d) => [
        d.id,
        <>
          <span class="addr">{d.to}</span>
          <br />
          <span class="muted">
            {d.channel}
            {d.userId !== null && (
              <>
                {' · '}
                <a href={`/console/users/${d.userId}`}>#{d.userId}</a>
              </>
            )}
          </span>
        </>,
        <>
          {d.template}
          <br />
          <span class="muted">{d.locale}</span>
        </>,
        <Badge v={v} kind="delivery" text={d.status} />,
        <span class="reason">{d.lastError ?? '—'}</span>,
        d.attempts,
        shortDate(d.createdAt),
        retryable(d.status) ? (
          <form method="post" action={`/console/deliveries/${d.id}/retry`}>
            <Csrf v={v} action={`/console/deliveries/${d.id}/retry`} />
            <button type="submit" class="primary" aria-label={`${v.t('retry')} #${d.id}`}>
              {v.t('retry')}
            </button>
          </form>
        ) : (
          '—'
        ),
      ])}
    />,
    (state?.status ?? 200) as 200,
  );
}

deliveriesRoutes.get('/deliveries', (c) => deliveriesPage(c));

deliveriesRoutes.post('/deliveries/:id/retry', (c) =>
  act(c, {
    back: '/console/deliveries',
    again: (state) => deliveriesPage(c, state),
    run: async (_form, op, t) => {
      assertSuperAdmin(op);
      await retryDelivery(c.get('deps'), { id: op.user.id, ip: clientIp(c) }, pathId(c));
      return t('deliveryRetried', { id: pathId(c) });
    },
  }),
);
