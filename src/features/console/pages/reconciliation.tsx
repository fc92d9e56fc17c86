// Rapprochement (/console/reconciliation, super-admins): the providers' daily reconciliation with
// its differences, the money still pending (captures, refunds, payouts) and the retries of a
// refused refund or a failed payout (money/reconciliation: the same rules as GET and POST
// /superadmin/reconciliation).
import { Hono } from 'hono';
import { clientIp } from '../../audit/audit';
import { dayOf, pendingCaptures, pendingPayouts, pendingRefunds, reportsOf, retryPayout, retryRefund, runReconciliation } from '../../money';
import { act, assertSuperAdmin, page, view, type ConsoleContext, type ConsoleEnv } from '../console.http';
import { Csrf, money, shortDate, Table, type FormState } from '../console.layout';
import { pathId } from '../console.params';
import { codeLabel, type Locale } from '../console.i18n';

export const reconciliationRoutes = new Hono<ConsoleEnv>();

const PATH = '/console/reconciliation';
const FIRST = { page: 0, size: 50, sort: { field: 'since' as const, direction: 'asc' as const } };

type View = Awaited<ReturnType<typeof view>>;
const badge = (status: string, locale: Locale) => <span data-code={status} class={`badge ${status === 'MATCHED' ? 'ok' : 'err'}`}>{codeLabel(locale, 'reconciliation', status)}</span>;
const amountOrDash = (v: View, minor: number | null, currency: string) => (minor === null ? '—' : money(v, minor, currency));
const age = (v: View, minutes: number) => (minutes < 120 ? v.t('ageMinutes', { n: minutes }) : v.t('ageHours', { n: Math.floor(minutes / 60) }));

/** A retry button: a form of its own (CSRF, single use). */
const RetryButton = ({ v, action, label }: { v: View; action: string; label: string }) => (
  <form method="post" action={action}>
    <Csrf v={v} action={action} />
    <button type="submit" class="danger" aria-label={label}>
      {v.t('retry')}
    </button>
  </form>
);

type PageOf<F extends (...a: never[]) => Promise<unknown>> = Awaited<ReturnType<F>>;

/** The money still pending: captures, refunds (retry when refused), payouts (retry when failed). */
const PendingSections = ({ v, captures, refunds, payouts }: { v: View; captures: PageOf<typeof pendingCaptures>; refunds: PageOf<typeof pendingRefunds>; payouts: PageOf<typeof pendingPayouts> }) => (
  <>
        <section class="card">
          <h2>{v.t('pendingCaptures', { n: captures.page.totalElements })}</h2>
          <Table
            v={v}
            id="pending-captures"
            columns={[[v.t('reservation')], [v.t('provider')], [v.t('amount'), 'num'], [v.t('status')], [v.t('waiting')], [v.t('captureBefore')]]}
            rows={captures.content.map((p) => [<a href={`/console/reservations/${p.reservationId}`}>{p.reservationNumber}</a>, p.provider, money(v, p.amountMinor, p.currency), p.paymentStatus ?? '—', age(v, p.ageMinutes), shortDate(p.captureBefore)])}
          />
        </section>
        <section class="card">
          <h2>{v.t('pendingRefunds', { n: refunds.page.totalElements })}</h2>
          <Table
            v={v}
            id="pending-refunds"
            columns={[[v.t('reservation')], [v.t('provider')], [v.t('amount'), 'num'], [v.t('status')], [v.t('waiting')], [v.t('failure')], [v.t('action')]]}
            rows={refunds.content.map((p) => [
              <a href={`/console/reservations/${p.reservationId}`}>{p.reservationNumber}</a>,
              p.provider,
              money(v, p.amountMinor, p.currency),
              p.paymentStatus ?? '—',
              age(v, p.ageMinutes),
              p.failure ?? '—',
              p.retryable ? <RetryButton v={v} action={`${PATH}/refunds/${p.reservationId}/retry`} label={`${v.t('retry')} ${p.reservationNumber}`} /> : '—',
            ])}
          />
        </section>
        <section class="card">
          <h2>{v.t('pendingPayouts', { n: payouts.page.totalElements })}</h2>
          <Table
            v={v}
            id="pending-payouts"
            columns={[[v.t('withdrawal')], [v.t('owner')], [v.t('provider')], [v.t('amount'), 'num'], [v.t('status')], [v.t('waiting')], [v.t('failure')], [v.t('action')]]}
            rows={payouts.content.map((p) => [
              `#${p.withdrawalId}`,
              `${p.ownerType} #${p.ownerId}`,
              p.provider,
              money(v, p.amountMinor, p.currency),
              p.status,
              age(v, p.ageMinutes),
              p.failure ?? '—',
              p.retryable ? <RetryButton v={v} action={`${PATH}/payouts/${p.withdrawalId}/retry`} label={`${v.t('retry')} #${p.withdrawalId}`} /> : '—',
            ])}
          />
        </section>
  </>
);

async function reconciliationPage(c: ConsoleContext, state?: FormState) {
  assertSuperAdmin(c.get('operator'));
  const v = await view(c);
  const { db } = c.get('deps');
  const now = new Date();
  const [{ day, reports }, captures, refunds, payouts] = await Promise.all([reportsOf(db, undefined, v.locale), pendingCaptures(db, now, FIRST), pendingRefunds(db, now, FIRST), pendingPayouts(db, now, FIRST)]);
  const differences = reports.flatMap((r) => r.items.map((d) => ({ ...d, provider: r.provider })));
  const runAction = `${PATH}/run`;
  return page(
    c,
    v,
    v.t('reconciliation'),
    PATH,
    <>
      <section class="card">
        <p class="help">{v.t('reconciliationHelp')}</p>
        {state?.message && (
          <div class="flash error" role="alert">
            {state.message}
          </div>
        )}
        <h2>{day ? v.t('reconciliationOf', { day }) : v.t('reconciliationNone')}</h2>
        <Table
          v={v}
          id="reconciliation-reports"
          columns={[[v.t('provider')], [v.t('status')], [v.t('providerRecords'), 'num'], [v.t('ourRecords'), 'num'], [v.t('differences'), 'num'], [v.t('reconciliationHow')], [v.t('lastRun')]]}
          rows={reports.map((r) => [r.provider, badge(r.status, v.locale), r.providerRecords, r.ourRecords, r.differences, r.error ?? r.note ?? '—', shortDate(r.runAt)])}
        />
        <form method="post" action={runAction}>
          <Csrf v={v} action={runAction} />
          <button type="submit" class="primary">
            {v.t('reconcileToday')}
          </button>
        </form>
      </section>
      <section class="card">
        <h2>{v.t('differences')}</h2>
        <Table
          v={v}
          id="reconciliation-differences"
          columns={[[v.t('provider')], [v.t('differenceKind')], [v.t('reference')], [v.t('atProvider'), 'num'], [v.t('inOurBooks'), 'num'], [v.t('providerStatus')], [v.t('ourStatus')]]}
          rows={differences.map((d) => [
            d.provider,
            <span data-code={d.kind}>{v.t(`diff_${d.kind}` as 'diff_MISSING_IN_BOOKS')}</span>,
            <>
              {d.object} {d.providerRef ?? ''}
              {d.reservationId ? <> · <a href={`/console/reservations/${d.reservationId}`}>{v.t('reservation')} #{d.reservationId}</a></> : null}
              {d.withdrawalId ? ` · ${v.t('withdrawal')} #${d.withdrawalId}` : ''}
            </>,
            amountOrDash(v, d.providerAmountMinor, d.currency),
            amountOrDash(v, d.ourAmountMinor, d.currency),
            d.providerStatus ?? '—',
            d.ourStatus ?? '—',
          ])}
        />
      </section>
      <PendingSections v={v} captures={captures} refunds={refunds} payouts={payouts} />
    </>,
    (state?.status ?? 200) as 200,
  );
}

reconciliationRoutes.get('/reconciliation', (c) => reconciliationPage(c));

const action = (c: ConsoleContext, run: Parameters<typeof act>[1]['run']) => act(c, { back: PATH, again: (state) => reconciliationPage(c, state), run });

reconciliationRoutes.post('/reconciliation/run', (c) =>
  action(c, async (_form, op, t) => {
    assertSuperAdmin(op);
    const day = dayOf(new Date());
    await runReconciliation(c.get('deps'), day);
    return t('reconciledDone', { day });
  }),
);

reconciliationRoutes.post('/reconciliation/refunds/:id/retry', (c) =>
  action(c, async (_form, op, t) => {
    assertSuperAdmin(op);
    const done = await retryRefund(c.get('deps'), op.user.id, pathId(c), clientIp(c));
    return t('refundRetried', { id: done.reservationId, status: done.paymentStatus ?? '' });
  }),
);

reconciliationRoutes.post('/reconciliation/payouts/:id/retry', (c) =>
  action(c, async (_form, op, t) => {
    assertSuperAdmin(op);
    const done = await retryPayout(c.get('deps'), op.user.id, pathId(c), clientIp(c));
    return t('payoutRetried', { id: done.retriedWithdrawalId, retry: done.withdrawal.id, status: done.withdrawal.status });
  }),
);
