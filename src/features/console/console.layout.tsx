// The console's one layout (header, navigation, flash message, main) and the small pieces every
// page uses: form fields with their error next to them, the CSRF field, tables, the pager, and how
// money, dates and names are written.
import type { Child, FC } from 'hono/jsx';
import type { UserRow } from '../../db/schema';
import { amountOf } from '../../lib/money';
import { codeLabel, type CodeKind, type Locale, type Translate, type WordKey } from './console.i18n';

export interface View {
  t: Translate;
  locale: Locale;
  /** CSP nonce of the page's one script. */
  nonce: string;
  operator?: { email: string; name: string; superAdmin: boolean };
  /** A fresh CSRF token for a form of this page, bound to the path it posts to. */
  csrf?: (action: string) => Promise<string>;
  flash?: Flash | null;
}

export interface Flash {
  kind: 'ok' | 'error';
  text: string;
}

/** Field errors (name -> message) and the values typed, to show a refused form again. */
export interface FormState {
  values: Record<string, string>;
  errors: Record<string, string>;
  /** The refusal not tied to one field (a rule of the service). */
  message?: string;
  /** Which form of the page the state belongs to. */
  form?: string;
  /** The HTTP status of the refusal (the API's for the same error). */
  status?: number;
}

const STYLE = `
:root { --ink:#1d2433; --muted:#5b6475; --line:#dde2ea; --bg:#f4f6f9; --card:#fff; --accent:#1f5eff; --accent-ink:#fff;
  --ok:#0f7a3d; --ok-bg:#e6f5ec; --err:#b42318; --err-bg:#fdecea; --warn:#8a5a00; --warn-bg:#fff4d6; }
* { box-sizing: border-box; }
body { margin:0; font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif; color:var(--ink); background:var(--bg); }
a { color:var(--accent); }
.skip { position:absolute; left:-999px; } .skip:focus { left:8px; top:8px; background:#fff; padding:6px 10px; z-index:10; }
header.top { background:#141b2d; color:#fff; display:flex; align-items:center; gap:12px; padding:10px 16px; flex-wrap:wrap; }
header.top .brand { font-weight:700; letter-spacing:.2px; margin-right:auto; color:#fff; text-decoration:none; }
header.top .who { font-size:13px; color:#c9d1e3; overflow-wrap:anywhere; }
header.top form { margin:0; }
header.top button { background:transparent; color:#fff; border:1px solid #56607a; border-radius:6px; padding:5px 10px; font:inherit; font-size:13px; cursor:pointer; }
nav.main { background:#1c2540; overflow-x:auto; white-space:nowrap; }
/* A desktop shows every entry (they wrap to a second row); a phone scrolls the row. */
@media (min-width:900px) { nav.main { display:flex; flex-wrap:wrap; overflow-x:visible; white-space:normal; } }
nav.main a { display:inline-block; color:#d7def0; text-decoration:none; padding:10px 14px; font-size:14px; border-bottom:3px solid transparent; }
nav.main a[aria-current=page] { color:#fff; border-bottom-color:#6f9bff; font-weight:600; }
nav.main a:hover { color:#fff; background:#26305a; }
main { max-width:1200px; margin:0 auto; padding:20px 16px 48px; }
h1 { font-size:22px; margin:4px 0 16px; } h2 { font-size:17px; margin:0 0 12px; }
.card { background:var(--card); border:1px solid var(--line); border-radius:10px; padding:16px; margin-bottom:16px; }
.grid { display:grid; gap:12px; grid-template-columns:repeat(auto-fill,minmax(150px,1fr)); margin-bottom:16px; }
.figure { background:var(--card); border:1px solid var(--line); border-radius:10px; padding:12px 14px; }
.figure .label { color:var(--muted); font-size:13px; } .figure .value { font-size:22px; font-weight:650; margin-top:2px; }
.two { display:grid; gap:16px; grid-template-columns:1fr; } @media (min-width:900px) { .two { grid-template-columns:3fr 2fr; } }
.table-wrap { overflow-x:auto; }
table { width:100%; border-collapse:collapse; font-size:14px; }
th, td { text-align:left; padding:8px 10px; border-bottom:1px solid var(--line); vertical-align:top; }
th { color:var(--muted); font-weight:600; font-size:12.5px; text-transform:uppercase; letter-spacing:.3px; background:#fafbfd; }
td.num, th.num { text-align:right; font-variant-numeric:tabular-nums; white-space:nowrap; }
.when { white-space:nowrap; }
.ref { white-space:nowrap; font-variant-numeric:tabular-nums; }
.badge { display:inline-block; padding:1px 8px; border-radius:999px; font-size:12px; font-weight:600; background:#eef1f6; color:#394257; }
.badge.ok { background:var(--ok-bg); color:var(--ok); } .badge.err { background:var(--err-bg); color:var(--err); } .badge.warn { background:var(--warn-bg); color:var(--warn); }
.flash { border-radius:8px; padding:10px 14px; margin-bottom:16px; border:1px solid; }
.flash.ok { background:var(--ok-bg); color:var(--ok); border-color:#b7e2c7; } .flash.error { background:var(--err-bg); color:var(--err); border-color:#f5c2bd; }
form.filters { display:flex; flex-wrap:wrap; gap:10px; align-items:flex-end; margin-bottom:12px; }
.field { display:flex; flex-direction:column; gap:4px; margin-bottom:12px; min-width:0; }
form.filters .field { margin-bottom:0; }
label { font-weight:600; font-size:13.5px; }
input, select, textarea { font:inherit; padding:8px 10px; border:1px solid #b9c1cf; border-radius:7px; background:#fff; color:var(--ink); max-width:100%; }
textarea { min-height:80px; width:100%; }
input:focus, select:focus, textarea:focus, button:focus, a:focus { outline:3px solid #9db8ff; outline-offset:1px; }
[aria-invalid=true] { border-color:var(--err); background:#fffafa; }
.error-text { color:var(--err); font-size:13px; font-weight:500; }
.help { color:var(--muted); font-size:12.5px; }
button.primary, button.danger, button.secondary { font:inherit; font-weight:600; border-radius:7px; padding:8px 16px; cursor:pointer; border:1px solid transparent; }
button.primary { background:var(--accent); color:var(--accent-ink); } button.danger { background:#fff; color:var(--err); border-color:#e4a7a1; }
button.secondary { background:#fff; color:var(--ink); border-color:#b9c1cf; }
button[disabled] { opacity:.6; cursor:progress; }
.actions { display:flex; flex-wrap:wrap; gap:16px; align-items:flex-start; }
.actions > form { flex:1 1 260px; }
.pager { display:flex; gap:12px; align-items:center; justify-content:space-between; margin-top:12px; font-size:14px; color:var(--muted); flex-wrap:wrap; }
dl.facts { display:grid; grid-template-columns:max-content 1fr; gap:6px 14px; margin:0; font-size:14px; }
dl.facts dt { color:var(--muted); } dl.facts dd { margin:0; overflow-wrap:anywhere; }
.doc { border:1px solid var(--line); border-radius:8px; padding:8px; margin:0 0 12px; background:#fafbfd; }
.doc img { max-width:100%; height:auto; display:block; border-radius:4px; } .doc iframe { width:100%; height:420px; border:0; }
.msg { border-left:3px solid var(--line); padding:4px 10px; margin-bottom:10px; } .msg .meta { color:var(--muted); font-size:12.5px; }
.login { max-width:400px; margin:8vh auto; }
.chart svg { width:100%; height:auto; display:block; }
.legend { display:flex; gap:16px; flex-wrap:wrap; font-size:13px; color:var(--muted); margin-top:6px; }
.legend span::before { content:''; display:inline-block; width:12px; height:12px; border-radius:3px; margin-right:6px; vertical-align:-1px; background:var(--c); }
.muted { color:var(--muted); }
.addr { font-family:ui-monospace,SFMono-Regular,Menlo,monospace; font-size:13px; } .reason { overflow-wrap:anywhere; font-size:13.5px; }
@media (max-width:520px) { .grid { grid-template-columns:1fr 1fr; gap:8px; } .figure .value { font-size:19px; } .chart svg text { font-size:20px; } main { padding:14px 10px 40px; } .card { padding:12px; } th, td { padding:7px 6px; } .hide-sm { display:none; } }
`;

/** Disables a form's submit button once sent, so a second click sends nothing (the server refuses a replay anyway). */
const SCRIPT = `document.addEventListener('submit', function (e) {
  var f = e.target; if (!(f instanceof HTMLFormElement) || f.method.toLowerCase() !== 'post') return;
  setTimeout(function () { f.querySelectorAll('button[type=submit]').forEach(function (b) { b.disabled = true; }); }, 0);
});`;

/** The pages, and whether only super-administrators may use them (the API's /superadmin/** split). */
const NAV: [string, WordKey, boolean][] = [
  ['/console', 'overview', false],
  ['/console/kyc', 'kyc', true],
  ['/console/travel-proofs', 'travelProofs', false],
  ['/console/disputes', 'disputes', false],
  ['/console/withdrawals', 'withdrawals', true],
  ['/console/users', 'users', false],
  ['/console/agencies', 'agencies', true],
  ['/console/reservations', 'reservations', true],
  ['/console/deliveries', 'deliveries', true],
  ['/console/metrics', 'metrics', true],
  ['/console/incidents', 'incidents', true],
  ['/console/pauses', 'pauses', true],
  ['/console/reconciliation', 'reconciliation', true],
  ['/console/privacy', 'privacy', true],
  ['/console/audit', 'audit', true],
  ['/console/two-factor', 'twoFactor', false],
];

export const Layout: FC<{ v: View; title: string; active?: string; children?: Child }> = ({ v, title, active, children }) => (
  <html lang={v.locale}>
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <meta name="robots" content="noindex" />
      <title>{`${title} · ${v.t('appName')}`}</title>
      <style dangerouslySetInnerHTML={{ __html: STYLE }} />
      <script nonce={v.nonce} dangerouslySetInnerHTML={{ __html: SCRIPT }} />
    </head>
    <body>
      <a class="skip" href="#main">
        {v.t('skip')}
      </a>
      <header class="top">
        <a class="brand" href="/console">
          {v.t('appName')}
        </a>
        {v.operator && (
          <>
            <span class="who">
              {v.t('signedInAs')} {v.operator.name} ({v.operator.email})
            </span>
            <form method="post" action="/console/logout">
              <Csrf v={v} action="/console/logout" />
              <button type="submit">{v.t('signOut')}</button>
            </form>
          </>
        )}
      </header>
      {v.operator && (
        <nav class="main" aria-label={v.t('menu')}>
          {NAV.filter(([, , superOnly]) => v.operator?.superAdmin || !superOnly).map(([href, key]) => (
            <a href={href} aria-current={active === href ? 'page' : undefined}>
              {v.t(key)}
            </a>
          ))}
        </nav>
      )}
      <main id="main">
        <h1>{title}</h1>
        {v.flash && (
          <div class={`flash ${v.flash.kind}`} role={v.flash.kind === 'error' ? 'alert' : 'status'}>
            {v.flash.text}
          </div>
        )}
        {children}
      </main>
    </body>
  </html>
);

/** The CSRF field of a form: a token of the session for this form's action only. */
export const Csrf: FC<{ v: View; action: string }> = async ({ v, action }) => <input type="hidden" name="csrf" value={v.csrf ? await v.csrf(action) : ''} />;

/** A labelled input whose error sits right under it, keeping what was typed. */
export const Field: FC<{
  name: string;
  label: string;
  state?: FormState;
  type?: string;
  value?: string;
  required?: boolean;
  help?: string;
  multiline?: boolean;
  idPrefix?: string;
  attrs?: Record<string, string | number | boolean>;
}> = ({ name, label, state, type = 'text', value, required, help, multiline, idPrefix = 'f', attrs = {} }) => {
  const id = `${idPrefix}-${name}`;
  const error = state?.errors[name];
  const typed = state?.values[name] ?? value ?? '';
  const described = [error ? `${id}-error` : '', help ? `${id}-help` : ''].filter(Boolean).join(' ') || undefined;
  const common = { id, name, required, 'aria-invalid': error ? 'true' : undefined, 'aria-describedby': described, autofocus: Boolean(error) || undefined, ...attrs };
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {multiline ? <textarea {...common}>{typed}</textarea> : <input type={type} value={typed} {...common} />}
      {help && (
        <span class="help" id={`${id}-help`}>
          {help}
        </span>
      )}
      {error && (
        <span class="error-text" id={`${id}-error`}>
          {error}
        </span>
      )}
    </div>
  );
};

export const Select: FC<{ name: string; label: string; options: [string, string][]; value?: string; idPrefix?: string }> = ({
  name,
  label,
  options,
  value,
  idPrefix = 'q',
}) => (
  <div class="field">
    <label for={`${idPrefix}-${name}`}>{label}</label>
    <select id={`${idPrefix}-${name}`} name={name}>
      {options.map(([v, text]) => (
        <option value={v} selected={v === (value ?? '')}>
          {text}
        </option>
      ))}
    </select>
  </div>
);

/** A stored code (status, resolution) in the page's language; the colour and `data-code` follow the code itself. */
export const Badge: FC<{ v: View; kind: CodeKind; text: string }> = ({ v, kind, text }) => {
  const tone = /VERIFIED$|^RESOLVED|ACTIVE|COMPLETED|PAID|DELIVERED|^SENT$|^true$/.test(text) && !/NOT_VERIFIED/.test(text)
    ? 'ok'
    : /REJECTED|NOT_VERIFIED|FAILED|SUSPENDED|CANCELLED|^false$|DISPUTED|^DEAD$/.test(text)
      ? 'err'
      : /PENDING|OPEN|PROCESSING|^QUEUED$/.test(text)
        ? 'warn'
        : '';
  return (
    <span class={`badge ${tone}`} data-code={text}>
      {codeLabel(v.locale, kind, text)}
    </span>
  );
};

export interface PageInfo {
  number: number;
  size: number;
  totalElements: number;
  totalPages: number;
}

/** Previous / next links keeping the list's filters. */
export const Pager: FC<{ v: View; page: PageInfo; path: string; query: Record<string, string | undefined> }> = ({ v, page, path, query }) => {
  const link = (n: number) => {
    const q = new URLSearchParams();
    for (const [k, val] of Object.entries(query)) if (val) q.set(k, val);
    q.set('page', String(n));
    return `${path}?${q.toString()}`;
  };
  return (
    <div class="pager">
      {/* An empty list says so in its table; "Page 0 of 0" would only repeat it wrongly. */}
      <span>
        {page.totalElements > 0 &&
          `${v.t('pageOf', { n: page.number + 1, t: Math.max(page.totalPages, 1) })} · ${v.t(page.totalElements === 1 ? 'oneItem' : 'items', { e: page.totalElements })}`}
      </span>
      <span>
        {page.number > 0 && <a href={link(page.number - 1)}>← {v.t('previous')}</a>}{' '}
        {page.number + 1 < page.totalPages && <a href={link(page.number + 1)}>{v.t('next')} →</a>}
      </span>
    </div>
  );
};

export const Empty: FC<{ v: View; cols: number }> = ({ v, cols }) => (
  <tr>
    <td colspan={cols} class="muted">
      {v.t('nothing')}
    </td>
  </tr>
);

export const shortDate = (iso: string | null | undefined) => (iso ? iso.replace('T', ' ').slice(0, 16) : '—');

/** Minor units of `currency` written with its own decimals (15 000 F CFA has none, 12,50 € two). */
export const money = (v: View, minor: number, currency = 'EUR') => amountText(v, amountOf(minor, currency), currency);

/** A decimal amount as the API shows it (12.5 EUR, 15000 XOF), written for the operator's language. */
export const amountText = (v: View, amount: number, currency = 'EUR') => new Intl.NumberFormat(v.locale, { style: 'currency', currency }).format(amount);

export const userName = (u: Pick<UserRow, 'firstName' | 'lastName'>) => `${u.firstName} ${u.lastName}`;
export const accountState = (u: Pick<UserRow, 'deletedAt' | 'enabled'>) => (u.deletedAt ? 'DELETED' : u.enabled ? 'ACTIVE' : 'SUSPENDED');

/** The page info of a list read as rows and a total. */
export const pageInfo = (p: { page: number; size: number }, total: number): PageInfo => ({
  number: p.page,
  size: p.size,
  totalElements: total,
  totalPages: total === 0 ? 0 : Math.ceil(total / p.size),
});

/** A column: its heading, and `wide` when phones may hide it. */
export type Column = [heading: string, kind?: 'wide' | 'num'];

const columnClass = (kind?: 'wide' | 'num') => (kind === 'wide' ? 'hide-sm' : kind);

/** A table of rows, or one line saying there is nothing; cells of phone-hidden columns are hidden too. */
export const Table: FC<{ v: View; columns: Column[]; rows: Child[][]; id?: string }> = ({ v, columns, rows, id }) => (
  <div class="table-wrap">
    <table id={id}>
      <thead>
        <tr>
          {columns.map(([heading, kind]) => (
            <th class={columnClass(kind)}>{heading}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.length === 0 && <Empty v={v} cols={columns.length} />}
        {rows.map((cells) => (
          <tr>
            {cells.map((cell, i) => (
              <td class={columnClass(columns[i]?.[1])}>{cell}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  </div>
);

/**
 * A paged, filterable list: the filters (a GET form keeping its values in the links), the table
 * and the pager.
 */
export const ListCard: FC<{
  v: View;
  path: string;
  filters: Child;
  query: Record<string, string | undefined>;
  columns: Column[];
  rows: Child[][];
  page: PageInfo;
  button?: string;
  search?: boolean;
}> = ({ v, path, filters, query, columns, rows, page, button, search }) => (
  <section class="card">
    <form class="filters" method="get" action={path} role={search ? 'search' : undefined}>
      {filters}
      <button type="submit" class="secondary">
        {button ?? v.t('filter')}
      </button>
    </form>
    <Table v={v} columns={columns} rows={rows} />
    <Pager v={v} page={page} path={path} query={query} />
  </section>
);

/** The status filter of a list: every value in the page's language, and "all". */
export const StatusSelect: FC<{ v: View; kind: CodeKind; values: readonly string[]; value?: string }> = ({ v, kind, values, value }) => (
  <Select
    name="status"
    label={v.t('status')}
    value={value ?? ''}
    options={[['', v.t('all')], ...values.map((s): [string, string] => [s, codeLabel(v.locale, kind, s)])]}
  />
);

/** A review's two decisions (KYC, proof of travel): approve, or reject with a reason; posted to `${base}/approve|reject`. */
export const ReviewDecisionForms: FC<{ v: View; base: string; state?: FormState }> = ({ v, base, state }) => (
  <div class="card actions">
    <form method="post" action={`${base}/approve`}>
      <Csrf v={v} action={`${base}/approve`} />
      <button type="submit" class="primary">
        {v.t('approve')}
      </button>
    </form>
    <form method="post" action={`${base}/reject`}>
      <Csrf v={v} action={`${base}/reject`} />
      <Field name="reason" label={v.t('reason')} state={state} multiline required attrs={{ maxlength: 500 }} />
      <button type="submit" class="danger">
        {v.t('reject')}
      </button>
    </form>
  </div>
);
