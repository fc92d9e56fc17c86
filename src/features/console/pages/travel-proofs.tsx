// Proof of travel review (/console/travel-proofs, CONTRACT 21): the queue, oldest first, and one
// proof beside its trip, approve or reject with a reason (audited, the carrier notified).
import { Hono } from 'hono';
import { TRAVEL_PROOF_STATUSES } from '../../../db/schema';
import { ReviewRejectionSchema } from '../../kyc/kyc.schemas';
import { clientIp } from '../../audit/audit';
import { getTravelProof, listTravelProofs, reviewTravelProof } from '../../announcements/travel-proof.service';
import { act, page, parseForm, view, type ConsoleContext, type ConsoleEnv } from '../console.http';
import { Badge, ListCard, ReviewDecisionForms, shortDate, StatusSelect, type FormState } from '../console.layout';
import { listPage, oneOf, pathId } from '../console.params';

export const travelProofRoutes = new Hono<ConsoleEnv>();

const paging = listPage(['createdAt'] as const, 'createdAt,asc');

travelProofRoutes.get('/travel-proofs', async (c) => {
  const v = await view(c);
  const status = c.req.query('status') === '' ? undefined : (oneOf(TRAVEL_PROOF_STATUSES, c.req.query('status')) ?? 'PENDING');
  const result = await listTravelProofs(c.get('deps'), status, paging(c));
  return page(
    c,
    v,
    v.t('travelProofs'),
    '/console/travel-proofs',
    <ListCard
      v={v}
      path="/console/travel-proofs"
      filters={<StatusSelect v={v} kind="travelProof" values={TRAVEL_PROOF_STATUSES} value={status} />}
      query={{ status: status ?? '' }}
      page={result.page}
      columns={[[v.t('id')], [v.t('user')], [v.t('trip')], [v.t('status')], [v.t('submitted'), 'wide'], ['']]}
      rows={result.content.map((r) => [
        r.proof.id,
        <>
          {`${r.firstName} ${r.lastName}`}
          <br />
          <span class="muted">{r.email}</span>
        </>,
        `${r.departureCity} → ${r.arrivalCity} (${r.departureDate})`,
        <Badge v={v} kind="travelProof" text={r.proof.status} />,
        shortDate(r.proof.createdAt),
        <a href={`/console/travel-proofs/${r.proof.id}`}>{v.t('open')}</a>,
      ])}
    />,
  );
});

async function proofDetail(c: ConsoleContext, state?: FormState) {
  const id = pathId(c);
  const { proof, trip, file } = await getTravelProof(c.get('deps'), id);
  const v = await view(c, state?.message ? { kind: 'error', text: state.message } : undefined);
  const fileUrl = `/console/files/${proof.fileId}`;
  return page(
    c,
    v,
    `${v.t('travelProof')} ${proof.id}`,
    '/console/travel-proofs',
    <div class="two">
      <section class="card" aria-labelledby="docs">
        <h2 id="docs">{v.t('documents')}</h2>
        <figure class="doc">
          {file?.contentType.startsWith('image/') ? (
            <a href={fileUrl}>
              <img src={fileUrl} alt={`${v.t('travelProof')} ${proof.id}`} loading="lazy" />
            </a>
          ) : (
            <a href={fileUrl}>{`${v.t('documents')} #${proof.fileId} (PDF)`}</a>
          )}
        </figure>
      </section>
      <section>
        <div class="card">
          <dl class="facts">
            <dt>{v.t('trip')}</dt>
            <dd>{`#${trip.id} ${trip.departureCity} → ${trip.arrivalCity}, ${trip.departureDate} (${trip.transportMode})`}</dd>
            <dt>{v.t('user')}</dt>
            <dd>
              <a href={`/console/users/${trip.carrierId}`}>#{trip.carrierId}</a>
            </dd>
            <dt>{v.t('status')}</dt>
            <dd>
              <Badge v={v} kind="travelProof" text={proof.status} />
            </dd>
            <dt>{v.t('submitted')}</dt>
            <dd>{shortDate(proof.createdAt)}</dd>
            <dt>{v.t('reviewed')}</dt>
            <dd>{shortDate(proof.reviewedAt)}</dd>
            {proof.rejectionReason && (
              <>
                <dt>{v.t('rejectionReason')}</dt>
                <dd>{proof.rejectionReason}</dd>
              </>
            )}
          </dl>
        </div>
        {proof.status === 'PENDING' && (
          <ReviewDecisionForms v={v} base={`/console/travel-proofs/${proof.id}`} state={state} />
        )}
      </section>
    </div>,
    (state?.status ?? 200) as 200,
  );
}

travelProofRoutes.get('/travel-proofs/:id', (c) => proofDetail(c));

travelProofRoutes.post('/travel-proofs/:id/approve', (c) =>
  act(c, {
    back: `/console/travel-proofs/${pathId(c)}`,
    again: (state) => proofDetail(c, state),
    run: async (_form, op, t) => {
      await reviewTravelProof(c.get('deps'), pathId(c), op.user.id, 'APPROVE', clientIp(c));
      return t('travelProofApproved', { id: pathId(c) });
    },
  }),
);

travelProofRoutes.post('/travel-proofs/:id/reject', (c) =>
  act(c, {
    back: `/console/travel-proofs/${pathId(c)}`,
    again: (state) => proofDetail(c, state),
    run: async (form, op, t) => {
      const { reason } = parseForm(ReviewRejectionSchema, form, t);
      await reviewTravelProof(c.get('deps'), pathId(c), op.user.id, 'REJECT', clientIp(c), reason);
      return t('travelProofRejected', { id: pathId(c) });
    },
  }),
);
