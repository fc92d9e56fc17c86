// One dispute (/console/disputes/:id): its reservation, messages, the parties' conversation and the
// evidence, and the resolution form while it is open.
import { Hono } from 'hono';
import type { FC } from 'hono/jsx';
import { clientIp } from '../../audit/audit';
import { disputeDetail, resolveDispute } from '../../disputes/disputes.service';
import { ResolveSchema } from '../../disputes/disputes.schemas';
import { reservationProtection } from '../../protection/protection.service';
import { getReservationView } from '../../reservations/reservation-views';
import { act, page, parseForm, view, type ConsoleContext, type ConsoleEnv } from '../console.http';
import { amountText, Badge, Csrf, Field, money, shortDate, userName, type FormState, type View } from '../console.layout';
import { pathId } from '../console.params';
import { userLabels } from '../console.queries';

export const disputeRoutes = new Hono<ConsoleEnv>();

type Dispute = Awaited<ReturnType<typeof disputeDetail>>;
type ReservationView = Awaited<ReturnType<typeof getReservationView>>;
type Labels = Awaited<ReturnType<typeof userLabels>>;

/** `payout`: what a PROTECTION_PAYOUT resolution paid the sender (major units); null otherwise. */
const DisputeFacts: FC<{ v: View; d: Dispute; r: ReservationView; labels: Labels; payout: number | null }> = ({ v, d, r, labels, payout }) => (
  <div class="card">
    <dl class="facts">
      <dt>{v.t('status')}</dt>
      <dd>
        <Badge v={v} kind="dispute" text={d.status} /> {d.resolution && <Badge v={v} kind="resolution" text={d.resolution} />}
      </dd>
      <dt>{v.t('reservation')}</dt>
      <dd>
        <a class="ref" href={`/console/reservations/${r.r.id}`}>{r.r.reservationNumber}</a> · <Badge v={v} kind="reservation" text={r.r.status} /> · {r.a.departureCity} → {r.a.arrivalCity}
      </dd>
      <dt>{v.t('total')}</dt>
      <dd>{money(v, r.r.totalAmountCents, r.r.currency)}</dd>
      <dt>{v.t('sender')}</dt>
      <dd>
        {userName(r.sender)} ({r.sender.email})
      </dd>
      <dt>{v.t('carrier')}</dt>
      <dd>
        {userName(r.carrier)} ({r.carrier.email})
      </dd>
      <dt>{v.t('openedBy')}</dt>
      <dd>
        {labels.get(d.openedBy)?.name} ({d.openerRole})
      </dd>
      <dt>{v.t('reason')}</dt>
      <dd>{d.reason}</dd>
      <dt>{v.t('description')}</dt>
      <dd>{d.description}</dd>
      <dt>{v.t('frozen')}</dt>
      <dd>{amountText(v, d.frozenAmount, d.currency)}</dd>
      {d.resolutionNote && (
        <>
          <dt>{v.t('note')}</dt>
          <dd>
            {d.resolutionNote} {d.refundAmount !== null && `(${amountText(v, d.refundAmount, d.currency)})`}
          </dd>
        </>
      )}
      {payout !== null && (
        <>
          <dt>{v.t('protectionPayout')}</dt>
          <dd id="protection-payout">{amountText(v, payout, d.currency)}</dd>
        </>
      )}
    </dl>
  </div>
);

const Message: FC<{ who: string; at: string; body: string }> = ({ who, at, body }) => (
  <div class="msg">
    <div class="meta">
      {who} · {shortDate(at)}
    </div>
    <div>{body}</div>
  </div>
);

/** The messages of the dispute, then the conversation of the reservation's parties. */
const DisputeThreads: FC<{ v: View; d: Dispute; labels: Labels }> = ({ v, d, labels }) => (
  <>
    <div class="card" id="dispute-messages">
      <h2>{v.t('disputeMessages')}</h2>
      {d.messages.length === 0 && <p class="muted">{v.t('noMessages')}</p>}
      {d.messages.map((m) => (
        <Message who={labels.get(m.authorId)?.name ?? `#${m.authorId}`} at={m.createdAt} body={m.body} />
      ))}
    </div>
    <div class="card" id="conversation">
      <h2>{v.t('conversation')}</h2>
      {d.conversation.length === 0 && <p class="muted">{v.t('noMessages')}</p>}
      {d.conversation.map((m) => (
        <Message who={m.authorName} at={m.createdAt} body={m.body} />
      ))}
    </div>
  </>
);

const Evidence: FC<{ v: View; d: Dispute }> = ({ v, d }) => (
  <div class="card">
    <h2>{v.t('evidence')}</h2>
    {d.evidenceFileIds.length === 0 && <p class="muted">{v.t('noDocuments')}</p>}
    {d.evidenceFileIds.map((id) => (
      <figure class="doc">
        <a href={`/console/files/${id}`}>
          <img src={`/console/files/${id}`} alt={`${v.t('evidence')} ${id}`} loading="lazy" />
        </a>
      </figure>
    ))}
  </div>
);

/** `coverage`: the protected reservation's coverage, formatted; null when not protected (no PROTECTION_PAYOUT). */
const ResolveForm: FC<{ v: View; d: Dispute; coverage: string | null; state?: FormState }> = ({ v, d, coverage, state }) => {
  const chosen = state?.values.resolution ?? 'REFUND_SENDER';
  const resolutions = coverage === null ? (['REFUND_SENDER', 'RELEASE_TO_CARRIER', 'PARTIAL_REFUND'] as const) : (['REFUND_SENDER', 'RELEASE_TO_CARRIER', 'PARTIAL_REFUND', 'PROTECTION_PAYOUT'] as const);
  return (
    <form class="card" method="post" action={`/console/disputes/${d.id}/resolve`} novalidate>
      <h2>{v.t('resolve')}</h2>
      <Csrf v={v} action={`/console/disputes/${d.id}/resolve`} />
      <fieldset style="border:0;padding:0;margin:0 0 12px">
        <legend style="font-weight:600;font-size:13.5px;margin-bottom:6px">{v.t('resolution')}</legend>
        {resolutions.map((res) => (
          <div>
            <input type="radio" name="resolution" id={`res-${res}`} value={res} checked={chosen === res} />{' '}
            <label for={`res-${res}`} style="font-weight:400">
              {v.t(res)}
            </label>
          </div>
        ))}
        {state?.errors.resolution && <span class="error-text">{state.errors.resolution}</span>}
      </fieldset>
      <Field
        name="amount"
        type="text"
        label={v.t('amount')}
        state={state}
        help={coverage === null ? v.t('amountHelp') : `${v.t('amountHelp')} ${v.t('protectionHelp', { coverage })}`}
        attrs={{ inputmode: 'decimal' }}
      />
      <Field name="note" label={v.t('note')} state={state} multiline required attrs={{ maxlength: 2000 }} />
      <button type="submit" class="primary">
        {v.t('resolve')}
      </button>
    </form>
  );
};

async function disputePage(c: ConsoleContext, state?: FormState) {
  const op = c.get('operator');
  const deps = c.get('deps');
  const d = await disputeDetail(deps, op.auth, pathId(c));
  const [r, labels] = await Promise.all([getReservationView(deps.db, d.reservationId), userLabels(deps, [d.openedBy, ...d.messages.map((m) => m.authorId)])]);
  // The sender's protection payout is on the claim, not the dispute's JSON: read it where the API does.
  const payout = d.resolution === 'PROTECTION_PAYOUT' ? ((await reservationProtection(deps, op.auth, d.reservationId)).claim?.payoutAmount ?? null) : null;
  const v = await view(c, state?.message ? { kind: 'error', text: state.message } : undefined);
  return page(
    c,
    v,
    `${v.t('dispute')} ${d.id}`,
    '/console/disputes',
    <div class="two">
      <section>
        <DisputeFacts v={v} d={d} r={r} labels={labels} payout={payout} />
        <DisputeThreads v={v} d={d} labels={labels} />
      </section>
      <section>
        <Evidence v={v} d={d} />
        {d.status === 'OPEN' && (
          <ResolveForm v={v} d={d} coverage={r.r.protectionCoverageCents === null ? null : money(v, r.r.protectionCoverageCents, r.r.currency)} state={state} />
        )}
      </section>
    </div>,
    (state?.status ?? 200) as 200,
  );
}

disputeRoutes.get('/disputes/:id', (c) => disputePage(c));

disputeRoutes.post('/disputes/:id/resolve', (c) =>
  act(c, {
    back: `/console/disputes/${pathId(c)}`,
    again: (state) => disputePage(c, state),
    run: async (form, op, t) => {
      // The API's body: an empty amount is no amount, anything else must be a number.
      const amount = form.amount?.trim() ? (Number.isFinite(Number(form.amount.replace(',', '.'))) ? Number(form.amount.replace(',', '.')) : form.amount) : undefined;
      const input = parseForm(ResolveSchema, { ...form, amount }, t);
      await resolveDispute(c.get('deps'), op.auth, pathId(c), input, clientIp(c));
      return t('disputeResolved', { id: pathId(c) });
    },
  }),
);
