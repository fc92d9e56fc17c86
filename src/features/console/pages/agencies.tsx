// The agencies (/console/agencies): suspend or activate one, and the queue of their pending documents
// to approve or reject.
import { Hono } from 'hono';
import type { FC } from 'hono/jsx';
import { listAgencies, setAgencySuspended } from '../../agencies/agencies.service';
import { listAllAgencyDocuments, reviewAgencyDocument } from '../../agencies/agency-documents.service';
import { clientIp } from '../../audit/audit';
import { ReviewRejectionSchema } from '../../kyc/kyc.schemas';
import { act, assertSuperAdmin, page, parseForm, view, type ConsoleContext, type ConsoleEnv } from '../console.http';
import { Badge, Csrf, Field, ListCard, StatusSelect, Table, type FormState, type View } from '../console.layout';
import { listPage, oneOf, pathId } from '../console.params';

export const agenciesRoutes = new Hono<ConsoleEnv>();

const agenciesPaging = listPage(['createdAt', 'name'] as const, 'createdAt,desc');

type Documents = Awaited<ReturnType<typeof listAllAgencyDocuments>>;

/** The agencies' documents waiting for a decision, oldest first, each with its approve and reject forms. */
const PendingDocuments: FC<{ v: View; documents: Documents; failed: (form: string) => FormState | undefined }> = ({ v, documents, failed }) => (
  <section class="card">
    <h2>{v.t('agencyDocuments')}</h2>
    <Table
      v={v}
      columns={[[v.t('id')], [v.t('agencies')], [v.t('documentType')], [v.t('action')]]}
      rows={documents.content.map((d) => [
        <a href={`/console/files/${d.id}`}>#{d.id}</a>,
        `#${d.agencyId}`,
        d.documentType,
        <div class="actions">
          <form method="post" action={`/console/agencies/documents/${d.id}/approve`}>
            <Csrf v={v} action={`/console/agencies/documents/${d.id}/approve`} />
            <button type="submit" class="primary">
              {v.t('approve')}
            </button>
          </form>
          <form method="post" action={`/console/agencies/documents/${d.id}/reject`}>
            <Csrf v={v} action={`/console/agencies/documents/${d.id}/reject`} />
            <Field name="reason" label={v.t('reason')} idPrefix={`doc-${d.id}`} state={failed(`doc-${d.id}`)} required attrs={{ maxlength: 500 }} />
            <button type="submit" class="danger">
              {v.t('reject')}
            </button>
          </form>
        </div>,
      ])}
    />
  </section>
);

async function agenciesPage(c: ConsoleContext, state?: FormState) {
  assertSuperAdmin(c.get('operator'));
  const v = await view(c, state?.message ? { kind: 'error', text: state.message } : undefined);
  const status = oneOf(['ACTIVE', 'SUSPENDED'] as const, c.req.query('status'));
  const p = agenciesPaging(c);
  const deps = c.get('deps');
  const [result, documents] = await Promise.all([
    listAgencies(deps, { ...p, status }),
    listAllAgencyDocuments(deps, { page: 0, size: 20, sort: { field: 'createdAt', direction: 'asc' }, status: 'PENDING' }),
  ]);
  const failed = (form: string) => (state?.form === form ? state : undefined);
  return page(
    c,
    v,
    v.t('agencies'),
    '/console/agencies',
    <>
      <ListCard
        v={v}
        path="/console/agencies"
        filters={<StatusSelect v={v} kind="agency" values={['ACTIVE', 'SUSPENDED']} value={status} />}
        query={{ status }}
        page={result.page}
        columns={[[v.t('id')], [v.t('name')], [v.t('status')], [v.t('action')]]}
        rows={result.content.map((a) => [
          a.id,
          <>
            {a.name}
            <br />
            <a class="muted" href={`/console/users/${a.ownerId}`}>
              {v.t('owner')} #{a.ownerId}
            </a>
          </>,
          <Badge v={v} kind="agency" text={a.status} />,
          a.status === 'ACTIVE' ? (
            <form method="post" action={`/console/agencies/${a.id}/suspend`}>
              <Csrf v={v} action={`/console/agencies/${a.id}/suspend`} />
              <Field name="reason" label={v.t('reason')} idPrefix={`agency-${a.id}`} state={failed(`agency-${a.id}`)} required attrs={{ maxlength: 500 }} />
              <button type="submit" class="danger">
                {v.t('suspend')}
              </button>
            </form>
          ) : (
            <form method="post" action={`/console/agencies/${a.id}/activate`}>
              <Csrf v={v} action={`/console/agencies/${a.id}/activate`} />
              <button type="submit" class="primary">
                {v.t('activate')}
              </button>
            </form>
          ),
        ])}
      />
      <PendingDocuments v={v} documents={documents} failed={failed} />
    </>,
    (state?.status ?? 200) as 200,
  );
}

agenciesRoutes.get('/agencies', (c) => agenciesPage(c));

for (const suspend of [true, false]) {
  agenciesRoutes.post(`/agencies/:id/${suspend ? 'suspend' : 'activate'}`, (c) =>
    act(c, {
      back: '/console/agencies',
      form: `agency-${c.req.param('id')}`,
      again: (state) => agenciesPage(c, state),
      run: async (form, op, t) => {
        assertSuperAdmin(op);
        const reason = suspend ? parseForm(ReviewRejectionSchema, form, t).reason : undefined;
        await setAgencySuspended(c.get('deps'), op.user.id, pathId(c), suspend, clientIp(c), reason);
        return t(suspend ? 'agencySuspended' : 'agencyActivated', { id: pathId(c) });
      },
    }),
  );
}

for (const decision of ['APPROVE', 'REJECT'] as const) {
  agenciesRoutes.post(`/agencies/documents/:id/${decision.toLowerCase()}`, (c) =>
    act(c, {
      back: '/console/agencies',
      form: `doc-${c.req.param('id')}`,
      again: (state) => agenciesPage(c, state),
      run: async (form, op, t) => {
        assertSuperAdmin(op);
        const reason = decision === 'REJECT' ? parseForm(ReviewRejectionSchema, form, t).reason : undefined;
        await reviewAgencyDocument(c.get('deps'), { id: op.user.id, ip: clientIp(c) }, pathId(c), decision, reason);
        return t(decision === 'APPROVE' ? 'documentApproved' : 'documentRejected', { id: pathId(c) });
      },
    }),
  );
}
