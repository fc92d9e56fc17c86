// One KYC record (/console/kyc/:id): the user's identity documents beside the record, approve or
// reject with a reason.
import { Hono } from 'hono';
import { getUser } from '../../admin-users/admin-users.service';
import { clientIp } from '../../audit/audit';
import { getKycRecord, reviewKyc } from '../../kyc/kyc.service';
import { ReviewRejectionSchema } from '../../kyc/kyc.schemas';
import { act, assertSuperAdmin, page, parseForm, view, type ConsoleContext, type ConsoleEnv } from '../console.http';
import { Badge, ReviewDecisionForms, shortDate, userName, type FormState, type View } from '../console.layout';
import { pathId } from '../console.params';
import { kycDocumentsOf } from '../console.queries';

export const kycRecordRoutes = new Hono<ConsoleEnv>();

const FileView = ({ v, file }: { v: View; file: { id: number; contentType: string; createdAt: string } }) => (
  <figure class="doc">
    {file.contentType.startsWith('image/') ? (
      <a href={`/console/files/${file.id}`}>
        <img src={`/console/files/${file.id}`} alt={`${v.t('documents')} ${file.id}`} loading="lazy" />
      </a>
    ) : (
      <a href={`/console/files/${file.id}`}>{`${v.t('documents')} #${file.id} (PDF)`}</a>
    )}
    <figcaption class="muted">
      #{file.id} · {file.contentType} · {shortDate(file.createdAt)}
    </figcaption>
  </figure>
);

async function kycDetail(c: ConsoleContext, state?: FormState) {
  assertSuperAdmin(c.get('operator'));
  const id = pathId(c);
  const deps = c.get('deps');
  const record = await getKycRecord(deps, id);
  const [user, documents] = await Promise.all([getUser(deps, record.userId), kycDocumentsOf(deps, record.userId)]);
  const v = await view(c, state?.message ? { kind: 'error', text: state.message } : undefined);
  return page(
    c,
    v,
    `${v.t('kycRecord')} ${record.id}`,
    '/console/kyc',
    <div class="two">
      <section class="card" aria-labelledby="docs">
        <h2 id="docs">{v.t('documents')}</h2>
        {documents.length === 0 ? <p class="muted">{v.t('noDocuments')}</p> : documents.map((f) => <FileView v={v} file={f} />)}
      </section>
      <section>
        <div class="card">
          <dl class="facts">
            <dt>{v.t('user')}</dt>
            <dd>
              <a href={`/console/users/${user.id}`}>{userName(user)}</a> ({user.email})
            </dd>
            <dt>{v.t('status')}</dt>
            <dd>
              <Badge v={v} kind="kyc" text={record.status} />
            </dd>
            <dt>{v.t('roles')}</dt>
            <dd id="user-roles">{user.roles.join(', ')}</dd>
            <dt>{v.t('documentType')}</dt>
            <dd>{record.documentType ?? '—'}</dd>
            <dt>{v.t('submitted')}</dt>
            <dd>{shortDate(record.submittedAt)}</dd>
            <dt>{v.t('reviewed')}</dt>
            <dd>{shortDate(record.reviewedAt)}</dd>
            {record.rejectionReason && (
              <>
                <dt>{v.t('rejectionReason')}</dt>
                <dd>{record.rejectionReason}</dd>
              </>
            )}
          </dl>
        </div>
        <ReviewDecisionForms v={v} base={`/console/kyc/${record.id}`} state={state} />
      </section>
    </div>,
    (state?.status ?? 200) as 200,
  );
}

kycRecordRoutes.get('/kyc/:id', (c) => kycDetail(c));

kycRecordRoutes.post('/kyc/:id/approve', (c) =>
  act(c, {
    back: `/console/kyc/${pathId(c)}`,
    again: (state) => kycDetail(c, state),
    run: async (_form, op, t) => {
      assertSuperAdmin(op);
      await reviewKyc(c.get('deps'), pathId(c), op.user.id, 'APPROVE', clientIp(c));
      return t('kycApproved', { id: pathId(c) });
    },
  }),
);

kycRecordRoutes.post('/kyc/:id/reject', (c) =>
  act(c, {
    back: `/console/kyc/${pathId(c)}`,
    again: (state) => kycDetail(c, state),
    run: async (form, op, t) => {
      assertSuperAdmin(op);
      const { reason } = parseForm(ReviewRejectionSchema, form, t);
      await reviewKyc(c.get('deps'), pathId(c), op.user.id, 'REJECT', clientIp(c), reason);
      return t('kycRejected', { id: pathId(c) });
    },
  }),
);
