// The operator console (CONTRACT section 18): HTML pages at (root) /console, outside the API and
// its OpenAPI document (a plain Hono router). Every action calls the service the API calls, with
// its rules and errors, through `act` (CSRF, one-time form token, audit by the service with the IP).
import { Hono } from 'hono';
import { z } from 'zod';
import type { Context } from 'hono';
import { DELIVERY_CHANNELS, DELIVERY_STATUSES, DISPUTE_STATUSES, KYC_STATUSES, RESERVATION_STATUSES, WITHDRAWAL_STATUSES, type KycStatus, type UserRow } from '../../db/schema';
import type { AppEnv } from '../../env';
import { AppError, accessDenied, notFound } from '../../errors';
import { fromCents } from '../../lib/money';
import { pageQuery } from '../../lib/pagination';
import { ROLES, type Role } from '../../middleware/auth';
import { activateUser, changeRolesAsSuperAdmin, getUser, listUsers, suspendUser, USER_SEARCH_MAX_LENGTH, USER_SORT_FIELDS } from '../admin-users/admin-users.service';
import { SuspendSchema } from '../admin-users/admin-users.schemas';
import { listAgencies, setAgencySuspended } from '../agencies/agencies.service';
import { listAllAgencyDocuments, reviewAgencyDocument } from '../agencies/agency-documents.service';
import { overview, timeseries } from '../analytics/analytics.service';
import { period, rangeDays, MAX_RANGE_DAYS } from '../analytics/analytics.rules';
import { audit, clientIp } from '../audit/audit';
import { enforceAuthRateLimit } from '../auth/rate-limit';
import { checkCredentials } from '../auth/auth.service';
import { listDeliveries, RETRYABLE_STATUSES, retryDelivery } from '../deliveries/deliveries.admin.service';
import { disputeDetail, listDisputes, resolveDispute } from '../disputes/disputes.service';
import { ResolveSchema } from '../disputes/disputes.schemas';
import { fileResponse, openFile } from '../files/files.service';
import { getKycRecord, listKycRecords, reviewKyc } from '../kyc/kyc.service';
import { ReviewRejectionSchema } from '../kyc/kyc.schemas';
import { getReservationView, listReservationViews, RESERVATION_SORT_COLUMNS } from '../reservations/reservation-views';
import { listAuditLogs } from '../superadmin/superadmin.service';
import { lastPosition } from '../tracking/tracking.service';
import { normalizeEmail } from '../users/profile-fields';
import {
  checkFormToken,
  closeConsoleSession,
  forgetOldFormTokens,
  isOperator,
  loginToken,
  loginTokenMatches,
  openConsoleSession,
  type Operator,
} from './console-sessions';
import { DailyChart } from './console.chart';
import {
  act,
  assertSuperAdmin,
  csrfRefusal,
  errorPage,
  formOf,
  isSuperAdmin,
  page,
  parseForm,
  refusalState,
  redirectWith,
  requireOperator,
  sameOriginPosts,
  view,
  type ConsoleContext,
  type ConsoleEnv,
} from './console.http';
import { codeLabel, localeOf, translator } from './console.i18n';
import { Badge, Csrf, Field, ListCard, pageInfo, Select, shortDate, StatusSelect, Table, type FormState, type View } from './console.layout';
import { kycDocumentsOf, listAllWithdrawals, reservationIdByNumber, reservationLedger, userLabels } from './console.queries';

const pathId = (c: ConsoleContext) => {
  const raw = c.req.param('id') ?? '';
  if (!/^\d{1,9}$/.test(raw)) throw notFound('Page');
  return Number(raw);
};

/**
 * A list's reader of page, size and sort from the query (the API's one schema, built once per
 * list at load); a bad value falls back to the defaults.
 */
function listPage<F extends string>(sortable: readonly F[], defaultSort: `${F},${'asc' | 'desc'}`) {
  const schema = pageQuery({ sortable, defaultSort });
  return (c: ConsoleContext) => {
    const { page: p, size, sort } = c.req.query();
    const parsed = schema.safeParse({ page: p, size, sort });
    return parsed.success ? parsed.data : schema.parse({});
  };
}

const oneOf = <T extends string>(values: readonly T[], raw: string | undefined): T | undefined =>
  raw && (values as readonly string[]).includes(raw) ? (raw as T) : undefined;

const money = (v: View, cents: number, currency = 'EUR') =>
  new Intl.NumberFormat(v.locale, { style: 'currency', currency }).format(fromCents(cents));

const userName = (u: Pick<UserRow, 'firstName' | 'lastName'>) => `${u.firstName} ${u.lastName}`;
const accountState = (u: Pick<UserRow, 'deletedAt' | 'enabled'>) => (u.deletedAt ? 'DELETED' : u.enabled ? 'ACTIVE' : 'SUSPENDED');

export const consoleRouter = new Hono<ConsoleEnv>();

consoleRouter.onError(errorPage);
consoleRouter.use('*', sameOriginPosts);

// ---- sign-in, sign-out

const LoginSchema = z.object({ email: z.string().trim().min(1).email(), password: z.string().min(1).max(128) });

async function loginPage(c: ConsoleContext, state?: FormState, status: 200 | 400 | 401 | 403 | 429 = 200) {
  const v = await view(c);
  const token = await loginToken(c);
  return page(
    c,
    v,
    v.t('signInTitle'),
    '',
    <form method="post" action="/console/login" class="card login" novalidate>
      <p class="muted">{v.t('signInHelp')}</p>
      {state?.message && (
        <div class="flash error" role="alert">
          {state.message}
        </div>
      )}
      <input type="hidden" name="csrf" value={token} />
      <Field name="email" type="email" label={v.t('email')} state={state} required attrs={{ autocomplete: 'username' }} />
      <Field name="password" type="password" label={v.t('password')} state={state && { ...state, values: {} }} required attrs={{ autocomplete: 'current-password' }} />
      <button type="submit" class="primary">
        {v.t('signIn')}
      </button>
    </form>,
    status as 200,
  );
}

consoleRouter.get('/login', async (c) => loginPage(c));

consoleRouter.post('/login', async (c) => {
  const form = await formOf(c);
  if (!(await loginTokenMatches(c, form.csrf))) return csrfRefusal(c);
  const t = translator(localeOf(c));
  const values = { email: form.email ?? '' };
  const parsed = LoginSchema.safeParse(form);
  if (!parsed.success) {
    const errors: Record<string, string> = {};
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0]);
      errors[field] ??= field === 'email' && form.email ? t('invalidEmail') : t('required');
    }
    return loginPage(c, { values, errors }, 400);
  }
  const deps = c.var.deps;
  const ip = clientIp(c);
  try {
    await enforceAuthRateLimit(deps, 'login', ip, normalizeEmail(parsed.data.email));
    const { user } = await checkCredentials(deps, parsed.data, ip);
    if (!isOperator(user.roles)) {
      await audit(deps, { actorId: user.id, action: 'CONSOLE_LOGIN_REFUSED', targetType: 'USER', targetId: user.id, ip, details: { reason: 'not an operator' } });
      return loginPage(c, { values, errors: {}, message: t('notOperator') }, 403);
    }
    await forgetOldFormTokens(deps);
    await openConsoleSession(c, user);
    await audit(deps, { actorId: user.id, action: 'CONSOLE_LOGIN', targetType: 'USER', targetId: user.id, ip });
    return c.redirect('/console', 303);
  } catch (err) {
    if (err instanceof AppError && err.status < 500) {
      // The lockout's 429 says when to come back, as the API's does.
      for (const [name, value] of Object.entries(err.headers ?? {})) c.header(name, value);
      return loginPage(c, refusalState(err, values, localeOf(c)), err.status as 401);
    }
    throw err;
  }
});

consoleRouter.use('*', requireOperator);

consoleRouter.post('/logout', async (c) => {
  const op = c.get('operator');
  const form = await formOf(c);
  if (!(await checkFormToken(op.session, form.csrf, c.req.path))) return csrfRefusal(c);
  await closeConsoleSession(c, op);
  await audit(c.var.deps, { actorId: op.user.id, action: 'CONSOLE_LOGOUT', targetType: 'USER', targetId: op.user.id, ip: clientIp(c) });
  return c.redirect('/console/login', 303);
});

// ---- overview

const isoDate = (raw: string | undefined) => (raw && /^\d{4}-\d{2}-\d{2}$/.test(raw) && !Number.isNaN(Date.parse(raw)) ? raw : undefined);

consoleRouter.get('/', async (c) => {
  const v = await view(c);
  const q = c.req.query();
  let p = period(isoDate(q.from), isoDate(q.to));
  const errors: Record<string, string> = {};
  if (q.from && !isoDate(q.from)) errors.from = v.t('dateFormat');
  if (q.to && !isoDate(q.to)) errors.to = v.t('dateFormat');
  if (p.from > p.to || rangeDays(p.from, p.to) > MAX_RANGE_DAYS.day) {
    errors.to = v.t('periodRange', { n: MAX_RANGE_DAYS.day });
    p = period(undefined, undefined);
  }
  const deps = c.var.deps;
  const [o, reservations, volume] = await Promise.all([
    overview(deps, p),
    timeseries(deps, 'reservations', p, 'day'),
    timeseries(deps, 'grossVolume', p, 'day'),
  ]);
  const currency = c.env.PLATFORM_CURRENCY ?? 'EUR';
  const points = reservations.map((r, i) => ({ day: r.periodStart, reservations: r.value, volumeCents: volume[i]?.value ?? 0 }));
  const figures: [string, string][] = [
    [v.t('reservationsCount'), String(o.reservations.total)],
    [v.t('grossVolume'), money(v, o.grossVolumeCents, currency)],
    [v.t('platformRevenue'), money(v, o.platformRevenueCents, currency)],
    [v.t('refunds'), `${money(v, o.refunds.amountCents, currency)} (${o.refunds.count})`],
    [v.t('openDisputes'), String(o.openDisputes)],
    [v.t('newUsers'), String(o.users.new)],
    [v.t('totalUsers'), String(o.users.total)],
    [v.t('verifiedUsers'), String(o.users.verified)],
    [v.t('newAnnouncements'), String(o.announcements)],
  ];
  const state: FormState = { values: { from: q.from ?? p.from, to: q.to ?? p.to }, errors };
  return page(
    c,
    v,
    v.t('overview'),
    '/console',
    <>
      <form class="filters" method="get" action="/console">
        <Field name="from" type="date" label={v.t('from')} state={state} idPrefix="q" />
        <Field name="to" type="date" label={v.t('to')} state={state} idPrefix="q" />
        <button type="submit" class="secondary">
          {v.t('apply')}
        </button>
      </form>
      <div class="grid" id="figures">
        {figures.map(([label, value]) => (
          <div class="figure">
            <div class="label">{label}</div>
            <div class="value">{value}</div>
          </div>
        ))}
      </div>
      <div class="two">
        <section class="card chart" aria-labelledby="chart-title">
          <h2 id="chart-title">
            {v.t('chartTitle')} <span class="muted">({p.from} → {p.to})</span>
          </h2>
          <DailyChart points={points} title={v.t('chartTitle')} currency={currency} locale={v.locale} />
          <div class="legend">
            <span style="--c:#8fb0ff">{v.t('chartReservations')}</span>
            <span style="--c:#e0701b">{v.t('chartVolume')}</span>
          </div>
        </section>
        <section class="card" aria-labelledby="status-title">
          <h2 id="status-title">{v.t('byStatus')}</h2>
          <div class="table-wrap">
            <table>
              <tbody>
                {Object.entries(o.reservations.byStatus).map(([status, n]) => (
                  <tr>
                    <td>
                      <Badge v={v} kind="reservation" text={status} />
                    </td>
                    <td class="num">{n}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      </div>
    </>,
    Object.keys(errors).length ? 400 : 200,
  );
});

// ---- files: identity documents and evidence streamed to an operator session

consoleRouter.get('/files/:id', async (c) => {
  const { row, object } = await openFile(c.var.deps, c.get('operator').auth, pathId(c));
  return fileResponse(row, object, 'private, no-store');
});

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

// ---- KYC queue

const kycPaging = listPage(['submittedAt', 'reviewedAt'] as const, 'submittedAt,asc');

consoleRouter.get('/kyc', async (c) => {
  assertSuperAdmin(c.get('operator'));
  const v = await view(c);
  const status = c.req.query('status') === '' ? undefined : (oneOf(KYC_STATUSES, c.req.query('status')) ?? 'PENDING');
  const p = kycPaging(c);
  const result = await listKycRecords(c.var.deps, { ...p, status });
  const labels = await userLabels(c.var.deps, result.content.map((r) => r.userId));
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

async function kycDetail(c: ConsoleContext, state?: FormState) {
  assertSuperAdmin(c.get('operator'));
  const id = pathId(c);
  const deps = c.var.deps;
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
        <div class="card actions">
          <form method="post" action={`/console/kyc/${record.id}/approve`}>
            <Csrf v={v} action={`/console/kyc/${record.id}/approve`} />
            <button type="submit" class="primary">
              {v.t('approve')}
            </button>
          </form>
          <form method="post" action={`/console/kyc/${record.id}/reject`}>
            <Csrf v={v} action={`/console/kyc/${record.id}/reject`} />
            <Field name="reason" label={v.t('reason')} state={state} multiline required attrs={{ maxlength: 500 }} />
            <button type="submit" class="danger">
              {v.t('reject')}
            </button>
          </form>
        </div>
      </section>
    </div>,
    (state?.status ?? 200) as 200,
  );
}

consoleRouter.get('/kyc/:id', (c) => kycDetail(c));

consoleRouter.post('/kyc/:id/approve', (c) =>
  act(c, {
    back: `/console/kyc/${pathId(c)}`,
    again: (state) => kycDetail(c, state),
    run: async (_form, op, t) => {
      assertSuperAdmin(op);
      await reviewKyc(c.var.deps, pathId(c), op.user.id, 'APPROVE', clientIp(c));
      return t('kycApproved', { id: pathId(c) });
    },
  }),
);

consoleRouter.post('/kyc/:id/reject', (c) =>
  act(c, {
    back: `/console/kyc/${pathId(c)}`,
    again: (state) => kycDetail(c, state),
    run: async (form, op, t) => {
      assertSuperAdmin(op);
      const { reason } = parseForm(ReviewRejectionSchema, form, t);
      await reviewKyc(c.var.deps, pathId(c), op.user.id, 'REJECT', clientIp(c), reason);
      return t('kycRejected', { id: pathId(c) });
    },
  }),
);

// ---- disputes

const disputesPaging = listPage(['createdAt'] as const, 'createdAt,desc');

consoleRouter.get('/disputes', async (c) => {
  const v = await view(c);
  const status = c.req.query('status') === '' ? undefined : (oneOf(DISPUTE_STATUSES, c.req.query('status')) ?? 'OPEN');
  const p = disputesPaging(c);
  const result = await listDisputes(c.var.deps, p, { status });
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

async function disputePage(c: ConsoleContext, state?: FormState) {
  const op = c.get('operator');
  const deps = c.var.deps;
  const d = await disputeDetail(deps, op.auth, pathId(c));
  const [r, labels] = await Promise.all([getReservationView(deps.db, d.reservationId), userLabels(deps, [d.openedBy, ...d.messages.map((m) => m.authorId)])]);
  const v = await view(c, state?.message ? { kind: 'error', text: state.message } : undefined);
  const chosen = state?.values.resolution ?? 'REFUND_SENDER';
  return page(
    c,
    v,
    `${v.t('dispute')} ${d.id}`,
    '/console/disputes',
    <div class="two">
      <section>
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
            <dd>{money(v, Math.round(d.frozenAmount * 100), d.currency)}</dd>
            {d.resolutionNote && (
              <>
                <dt>{v.t('note')}</dt>
                <dd>
                  {d.resolutionNote} {d.refundAmount !== null && `(${money(v, Math.round(d.refundAmount * 100), d.currency)})`}
                </dd>
              </>
            )}
          </dl>
        </div>
        <div class="card" id="dispute-messages">
          <h2>{v.t('disputeMessages')}</h2>
          {d.messages.length === 0 && <p class="muted">{v.t('noMessages')}</p>}
          {d.messages.map((m) => (
            <div class="msg">
              <div class="meta">
                {labels.get(m.authorId)?.name ?? `#${m.authorId}`} · {shortDate(m.createdAt)}
              </div>
              <div>{m.body}</div>
            </div>
          ))}
        </div>
        <div class="card" id="conversation">
          <h2>{v.t('conversation')}</h2>
          {d.conversation.length === 0 && <p class="muted">{v.t('noMessages')}</p>}
          {d.conversation.map((m) => (
            <div class="msg">
              <div class="meta">
                {m.authorName} · {shortDate(m.createdAt)}
              </div>
              <div>{m.body}</div>
            </div>
          ))}
        </div>
      </section>
      <section>
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
        {d.status === 'OPEN' && (
          <form class="card" method="post" action={`/console/disputes/${d.id}/resolve`} novalidate>
            <h2>{v.t('resolve')}</h2>
            <Csrf v={v} action={`/console/disputes/${d.id}/resolve`} />
            <fieldset style="border:0;padding:0;margin:0 0 12px">
              <legend style="font-weight:600;font-size:13.5px;margin-bottom:6px">{v.t('resolution')}</legend>
              {(['REFUND_SENDER', 'RELEASE_TO_CARRIER', 'PARTIAL_REFUND'] as const).map((res) => (
                <div>
                  <input type="radio" name="resolution" id={`res-${res}`} value={res} checked={chosen === res} />{' '}
                  <label for={`res-${res}`} style="font-weight:400">
                    {v.t(res)}
                  </label>
                </div>
              ))}
              {state?.errors.resolution && <span class="error-text">{state.errors.resolution}</span>}
            </fieldset>
            <Field name="amount" type="text" label={v.t('amount')} state={state} help={v.t('amountHelp')} attrs={{ inputmode: 'decimal' }} />
            <Field name="note" label={v.t('note')} state={state} multiline required attrs={{ maxlength: 2000 }} />
            <button type="submit" class="primary">
              {v.t('resolve')}
            </button>
          </form>
        )}
      </section>
    </div>,
    (state?.status ?? 200) as 200,
  );
}

consoleRouter.get('/disputes/:id', (c) => disputePage(c));

consoleRouter.post('/disputes/:id/resolve', (c) =>
  act(c, {
    back: `/console/disputes/${pathId(c)}`,
    again: (state) => disputePage(c, state),
    run: async (form, op, t) => {
      // The API's body: an empty amount is no amount, anything else must be a number.
      const amount = form.amount?.trim() ? (Number.isFinite(Number(form.amount.replace(',', '.'))) ? Number(form.amount.replace(',', '.')) : form.amount) : undefined;
      const input = parseForm(ResolveSchema, { ...form, amount }, t);
      await resolveDispute(c.var.deps, op.auth, pathId(c), input, clientIp(c));
      return t('disputeResolved', { id: pathId(c) });
    },
  }),
);

// ---- withdrawals and payouts

const withdrawalsPaging = listPage(['createdAt'] as const, 'createdAt,desc');

consoleRouter.get('/withdrawals', async (c) => {
  assertSuperAdmin(c.get('operator'));
  const v = await view(c);
  const status = oneOf(WITHDRAWAL_STATUSES, c.req.query('status'));
  const p = withdrawalsPaging(c);
  const result = await listAllWithdrawals(c.var.deps, { ...p, status });
  const labels = await userLabels(c.var.deps, result.content.filter((w) => w.ownerType === 'USER').map((w) => w.ownerId));
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

// ---- users

const usersPaging = listPage(USER_SORT_FIELDS, 'createdAt,desc');

consoleRouter.get('/users', async (c) => {
  const v = await view(c);
  // The field stops at the search's limit; a longer query string (typed by hand) is cut there, never a 500.
  const q = (c.req.query('q') ?? '').trim().slice(0, USER_SEARCH_MAX_LENGTH);
  if (/^\d{1,9}$/.test(q)) return c.redirect(`/console/users/${q}`, 303);
  const state = c.req.query('state');
  const role = oneOf(ROLES, c.req.query('role'));
  const p = usersPaging(c);
  const filters = { q: q || undefined, role, enabled: state === 'active' ? true : state === 'suspended' ? false : undefined };
  const { rows, total } = await listUsers(c.var.deps, filters, p);
  return page(
    c,
    v,
    v.t('users'),
    '/console/users',
    <ListCard
      v={v}
      path="/console/users"
      search
      filters={
        <>
          <Field name="q" type="search" label={v.t('search')} value={q} idPrefix="q" attrs={{ placeholder: v.t('searchUsers') }} />
          <Select name="state" label={v.t('status')} value={state ?? ''} options={[['', v.t('all')], ['active', v.t('enabled')], ['suspended', v.t('suspended')]]} />
          <Select name="role" label={v.t('roles')} value={role ?? ''} options={[['', v.t('all')], ...ROLES.map((r): [string, string] => [r, r])]} />
        </>
      }
      query={{ q, state, role }}
      page={pageInfo(p, total)}
      columns={[[v.t('id')], [v.t('name')], [v.t('status')], [v.t('roles'), 'wide'], [v.t('kycStatus'), 'wide'], [v.t('lastLogin'), 'wide']]}
      rows={rows.map((u) => [
        u.id,
        <>
          <a href={`/console/users/${u.id}`}>{userName(u)}</a>
          <br />
          <span class="muted">{u.email}</span>
        </>,
        <Badge v={v} kind="account" text={accountState(u)} />,
        u.roles.filter((r) => r !== 'ROLE_CLIENT').join(', ') || 'ROLE_CLIENT',
        <Badge v={v} kind="kyc" text={u.kycStatus} />,
        shortDate(u.lastLoginAt),
      ])}
    />,
  );
});

async function userPage(c: ConsoleContext, state?: FormState) {
  const op = c.get('operator');
  const user = await getUser(c.var.deps, pathId(c));
  const v = await view(c, state?.message ? { kind: 'error', text: state.message } : undefined);
  return page(
    c,
    v,
    `${userName(user)} (#${user.id})`,
    '/console/users',
    <div class="two">
      <section class="card">
        <dl class="facts">
          <dt>{v.t('email')}</dt>
          <dd>{user.email}</dd>
          <dt>{v.t('status')}</dt>
          <dd id="user-status">
            <Badge v={v} kind="account" text={accountState(user)} />
            {user.suspensionReason && ` ${user.suspensionReason}`}
          </dd>
          <dt>{v.t('roles')}</dt>
          <dd>{user.roles.join(', ')}</dd>
          <dt>{v.t('kycStatus')}</dt>
          <dd>
            <Badge v={v} kind="kyc" text={user.kycStatus} />
          </dd>
          <dt>{v.t('created')}</dt>
          <dd>{shortDate(user.createdAt)}</dd>
          <dt>{v.t('lastLogin')}</dt>
          <dd>{shortDate(user.lastLoginAt)}</dd>
        </dl>
      </section>
      <section>
        <div class="card">
          {user.enabled ? (
            <form method="post" action={`/console/users/${user.id}/suspend`}>
              <Csrf v={v} action={`/console/users/${user.id}/suspend`} />
              <Field name="reason" label={v.t('reason')} state={state?.form === 'suspend' ? state : undefined} attrs={{ maxlength: 500 }} />
              <button type="submit" class="danger">
                {v.t('suspend')}
              </button>
            </form>
          ) : (
            <form method="post" action={`/console/users/${user.id}/activate`}>
              <Csrf v={v} action={`/console/users/${user.id}/activate`} />
              <button type="submit" class="primary">
                {v.t('activate')}
              </button>
            </form>
          )}
        </div>
        {isSuperAdmin(op) && (
          <form class="card" method="post" action={`/console/users/${user.id}/roles`}>
            <Csrf v={v} action={`/console/users/${user.id}/roles`} />
            <fieldset style="border:0;padding:0;margin:0 0 12px">
              <legend style="font-weight:600;font-size:13.5px;margin-bottom:6px">{v.t('roles')}</legend>
              {ROLES.map((r) => (
                <div>
                  <input type="checkbox" name="roles" id={`role-${r}`} value={r} checked={user.roles.includes(r)} disabled={r === 'ROLE_CLIENT'} />{' '}
                  <label for={`role-${r}`} style="font-weight:400">
                    {r}
                  </label>
                </div>
              ))}
            </fieldset>
            <button type="submit" class="secondary">
              {v.t('saveRoles')}
            </button>
          </form>
        )}
      </section>
    </div>,
    (state?.status ?? 200) as 200,
  );
}

consoleRouter.get('/users/:id', (c) => userPage(c));

consoleRouter.post('/users/:id/suspend', (c) =>
  act(c, {
    back: `/console/users/${pathId(c)}`,
    form: 'suspend',
    again: (state) => userPage(c, state),
    run: async (form, op, t) => {
      const { reason } = parseForm(SuspendSchema, { reason: form.reason?.trim() ? form.reason : undefined }, t);
      await suspendUser(c.var.deps, op.auth, pathId(c), reason ?? null, clientIp(c));
      return t('userSuspended', { id: pathId(c) });
    },
  }),
);

consoleRouter.post('/users/:id/activate', (c) =>
  act(c, {
    back: `/console/users/${pathId(c)}`,
    again: (state) => userPage(c, state),
    run: async (_form, op, t) => {
      await activateUser(c.var.deps, op.auth, pathId(c), clientIp(c));
      return t('userActivated', { id: pathId(c) });
    },
  }),
);

consoleRouter.post('/users/:id/roles', (c) =>
  act(c, {
    back: `/console/users/${pathId(c)}`,
    again: (state) => userPage(c, state),
    run: async (form, op, t) => {
      const roles = (form.roles ?? '').split(',').filter((r): r is Role => (ROLES as readonly string[]).includes(r));
      await changeRolesAsSuperAdmin(c.var.deps, op.auth, pathId(c), roles, clientIp(c));
      return t('rolesSaved', { id: pathId(c) });
    },
  }),
);

// ---- agencies and their documents

const agenciesPaging = listPage(['createdAt', 'name'] as const, 'createdAt,desc');

async function agenciesPage(c: ConsoleContext, state?: FormState) {
  assertSuperAdmin(c.get('operator'));
  const v = await view(c, state?.message ? { kind: 'error', text: state.message } : undefined);
  const status = oneOf(['ACTIVE', 'SUSPENDED'] as const, c.req.query('status'));
  const p = agenciesPaging(c);
  const deps = c.var.deps;
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
    </>,
    (state?.status ?? 200) as 200,
  );
}

consoleRouter.get('/agencies', (c) => agenciesPage(c));

for (const suspend of [true, false]) {
  consoleRouter.post(`/agencies/:id/${suspend ? 'suspend' : 'activate'}`, (c) =>
    act(c, {
      back: '/console/agencies',
      form: `agency-${c.req.param('id')}`,
      again: (state) => agenciesPage(c, state),
      run: async (form, op, t) => {
        assertSuperAdmin(op);
        const reason = suspend ? parseForm(ReviewRejectionSchema, form, t).reason : undefined;
        await setAgencySuspended(c.var.deps, op.user.id, pathId(c), suspend, clientIp(c), reason);
        return t(suspend ? 'agencySuspended' : 'agencyActivated', { id: pathId(c) });
      },
    }),
  );
}

for (const decision of ['APPROVE', 'REJECT'] as const) {
  consoleRouter.post(`/agencies/documents/:id/${decision.toLowerCase()}`, (c) =>
    act(c, {
      back: '/console/agencies',
      form: `doc-${c.req.param('id')}`,
      again: (state) => agenciesPage(c, state),
      run: async (form, op, t) => {
        assertSuperAdmin(op);
        const reason = decision === 'REJECT' ? parseForm(ReviewRejectionSchema, form, t).reason : undefined;
        await reviewAgencyDocument(c.var.deps, { id: op.user.id, ip: clientIp(c) }, pathId(c), decision, reason);
        return t(decision === 'APPROVE' ? 'documentApproved' : 'documentRejected', { id: pathId(c) });
      },
    }),
  );
}

// ---- reservations

const RESERVATION_SORTS = Object.keys(RESERVATION_SORT_COLUMNS) as (keyof typeof RESERVATION_SORT_COLUMNS)[];

const reservationsPaging = listPage(RESERVATION_SORTS, 'createdAt,desc');

consoleRouter.get('/reservations', async (c) => {
  assertSuperAdmin(c.get('operator'));
  const number = (c.req.query('number') ?? '').trim();
  let flash = null;
  if (number) {
    const id = await reservationIdByNumber(c.var.deps, number);
    if (id !== null) return c.redirect(`/console/reservations/${id}`, 303);
  }
  const v = await view(c);
  if (number) flash = { kind: 'error' as const, text: v.t('notFoundNumber') };
  const status = oneOf(RESERVATION_STATUSES, c.req.query('status'));
  const p = reservationsPaging(c);
  const { rows, total } = await listReservationViews(c.var.deps.db, status, p.sort, p);
  const state: FormState = { values: { number }, errors: number ? { number: v.t('notFoundNumber') } : {} };
  return page(
    c,
    { ...v, flash: v.flash ?? flash },
    v.t('reservations'),
    '/console/reservations',
    <ListCard
      v={v}
      path="/console/reservations"
      search
      button={v.t('find')}
      filters={
        <>
          <Field name="number" label={v.t('findByNumber')} state={state} idPrefix="q" />
          <StatusSelect v={v} kind="reservation" values={RESERVATION_STATUSES} value={status} />
        </>
      }
      query={{ status }}
      page={pageInfo(p, total)}
      columns={[[v.t('number')], [v.t('status')], [v.t('sender'), 'wide'], [v.t('carrier'), 'wide'], [v.t('total'), 'num'], [v.t('created'), 'wide']]}
      rows={rows.map((x) => [
        <a class="ref" href={`/console/reservations/${x.r.id}`}>{x.r.reservationNumber}</a>,
        <Badge v={v} kind="reservation" text={x.r.status} />,
        x.sender.email,
        x.carrier.email,
        money(v, x.r.totalAmountCents, x.r.currency),
        shortDate(x.r.createdAt),
      ])}
    />,
    number ? 404 : 200,
  );
});

consoleRouter.get('/reservations/:id', async (c) => {
  assertSuperAdmin(c.get('operator'));
  const id = pathId(c);
  const deps = c.var.deps;
  const x = await getReservationView(deps.db, id);
  const [ledger, position] = await Promise.all([reservationLedger(deps, id), lastPosition(c.env, id).catch(() => null)]);
  const v = await view(c);
  return page(
    c,
    v,
    `${v.t('reservation')} ${x.r.reservationNumber}`,
    '/console/reservations',
    <>
      <div class="two">
        <section class="card">
          <dl class="facts">
            <dt>{v.t('status')}</dt>
            <dd>
              <Badge v={v} kind="reservation" text={x.r.status} />
            </dd>
            <dt>{v.t('reservation')}</dt>
            <dd>
              {x.a.departureCity} → {x.a.arrivalCity} · {x.a.departureDate}
            </dd>
            <dt>{v.t('sender')}</dt>
            <dd>
              <a href={`/console/users/${x.sender.id}`}>{userName(x.sender)}</a> ({x.sender.email})
            </dd>
            <dt>{v.t('carrier')}</dt>
            <dd>
              <a href={`/console/users/${x.carrier.id}`}>{userName(x.carrier)}</a> ({x.carrier.email})
            </dd>
            <dt>{v.t('total')}</dt>
            <dd>{money(v, x.r.totalAmountCents, x.r.currency)}</dd>
            <dt>{v.t('created')}</dt>
            <dd>{shortDate(x.r.createdAt)}</dd>
          </dl>
        </section>
        <section class="card">
          <h2>{v.t('tracking')}</h2>
          {position ? (
            <dl class="facts">
              <dt>{v.t('lastPosition')}</dt>
              <dd>
                {position.lat.toFixed(5)}, {position.lng.toFixed(5)}
              </dd>
              <dt>{v.t('when')}</dt>
              <dd>{shortDate(position.recordedAt)}</dd>
            </dl>
          ) : (
            <p class="muted">{v.t('noPosition')}</p>
          )}
        </section>
      </div>
      <section class="card">
        <h2>{v.t('ledger')}</h2>
        <Table
          v={v}
          id="ledger"
          columns={[['#'], [v.t('action')], [v.t('account')], [v.t('amount'), 'num'], [v.t('when'), 'wide']]}
          rows={ledger.map((l) => [
            l.entryId,
            <>
              {l.type}
              <br />
              <span class="muted">{l.description}</span>
            </>,
            l.account,
            money(v, l.amountCents, l.currency),
            shortDate(l.createdAt),
          ])}
        />
      </section>
    </>,
  );
});

// ---- deliveries: the messages that did not leave (failed, dead), with the provider's reason and a retry

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
  const { content, total } = await listDeliveries(c.var.deps, { status, channel, template: template || undefined }, p);
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

consoleRouter.get('/deliveries', (c) => deliveriesPage(c));

consoleRouter.post('/deliveries/:id/retry', (c) =>
  act(c, {
    back: '/console/deliveries',
    again: (state) => deliveriesPage(c, state),
    run: async (_form, op, t) => {
      assertSuperAdmin(op);
      await retryDelivery(c.var.deps, { id: op.user.id, ip: clientIp(c) }, pathId(c));
      return t('deliveryRetried', { id: pathId(c) });
    },
  }),
);

// ---- audit log

const auditPaging = listPage(['createdAt', 'id'] as const, 'createdAt,desc');

consoleRouter.get('/audit', async (c) => {
  assertSuperAdmin(c.get('operator'));
  const v = await view(c);
  const action = (c.req.query('action') ?? '').trim().toUpperCase();
  const actor = (c.req.query('actorId') ?? '').trim();
  const p = auditPaging(c);
  const filters = { action: action || undefined, actorId: /^\d{1,9}$/.test(actor) ? Number(actor) : undefined };
  const { rows, total } = await listAuditLogs(c.var.deps, filters, p);
  const labels = await userLabels(c.var.deps, rows.flatMap((r) => (r.actorId === null ? [] : [r.actorId])));
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

/** Unknown console paths: the console's 404 page, not the API's JSON. */
consoleRouter.all('*', () => {
  throw notFound('Page');
});
