// Confidentialité (/console/privacy, super-admins): the retention job's runs with what each rule
// erased (CONTRACT section 27: each run recorded and shown), and the download of a user's export run
// from their page for a request received by mail (audited like the request).
import { desc } from 'drizzle-orm';
import { Hono } from 'hono';
import { retentionRuns, type DataExportRow } from '../../../db/schema';
import { clientIp } from '../../audit/audit';
import { archiveObject, exportForOperator } from '../../privacy/export.service';
import { notFound } from '../../../errors';
import { assertSuperAdmin, page, view, type ConsoleEnv } from '../console.http';
import { Csrf, shortDate, Table, type View } from '../console.layout';
import { pathId } from '../console.params';

export const privacyRoutes = new Hono<ConsoleEnv>();

const PATH = '/console/privacy';
/** A month of daily runs. */
const RUNS_SHOWN = 31;

const seconds = (from: string, to: string | null) => (to ? `${((Date.parse(to) - Date.parse(from)) / 1000).toFixed(1)} s` : null);

privacyRoutes.get('/privacy', async (c) => {
  assertSuperAdmin(c.get('operator'));
  const v = await view(c);
  const runs = await c.get('deps').db.select().from(retentionRuns).orderBy(desc(retentionRuns.startedAt)).limit(RUNS_SHOWN);
  return page(
    c,
    v,
    v.t('privacy'),
    PATH,
    <section class="card">
      <h2>{v.t('retentionRuns')}</h2>
      <p class="help">{v.t('privacyHelp')}</p>
      {runs.length === 0 ? (
        <p class="muted">{v.t('retentionNone')}</p>
      ) : (
        <Table
          v={v}
          id="retention-runs"
          columns={[[v.t('retentionStarted')], [v.t('retentionDuration')], [v.t('retentionCounts')], [v.t('status')]]}
          rows={runs.map((run) => [
            shortDate(run.startedAt),
            seconds(run.startedAt, run.finishedAt) ?? v.t('retentionRunning'),
            <span class="counts">
              {Object.entries(run.counts ?? {})
                .map(([rule, n]) => `${rule} ${n}`)
                .join(' · ')}
            </span>,
            run.error ? <span class="error-text">{v.t('retentionFailed', { error: run.error })}</span> : run.finishedAt ? <span class="badge ok">OK</span> : '—',
          ])}
        />
      )}
    </section>,
  );
});

/** A ready archive, for the operator answering a request by mail (audited; 404 once expired). */
privacyRoutes.get('/exports/:id/download', async (c) => {
  const op = c.get('operator');
  assertSuperAdmin(op);
  const deps = c.get('deps');
  const row = await exportForOperator(deps, op.user.id, pathId(c), clientIp(c));
  const object = await archiveObject(deps, row);
  if (!object) throw notFound('Data export', row.id);
  return new Response(object.body, {
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Disposition': `attachment; filename="export-user-${row.userId}-${row.id}.json"`,
      'Cache-Control': 'no-store',
    },
  });
});

/** The user page's card: their exports (who asked, state, the download) and the button to run one. */
export function ExportsCard({ v, userId, exports }: { v: View; userId: number; exports: DataExportRow[] }) {
  const action = `/console/users/${userId}/export`;
  return (
    <section class="card" id="exports" aria-labelledby="exports-title">
      <h2 id="exports-title">{v.t('exportsTitle')}</h2>
      <p class="help">{v.t('exportsHelp')}</p>
      {exports.length === 0 ? (
        <p class="muted">{v.t('exportsNone')}</p>
      ) : (
        <ul class="exports">
          {exports.map((e) => (
            <li>
              #{e.id} · {shortDate(e.createdAt)} · {e.requestedBy ? v.t('exportBy', { id: e.requestedBy }) : v.t('exportByUser')} ·{' '}
              <span class={`badge ${e.status === 'READY' ? 'ok' : e.status === 'FAILED' ? 'err' : ''}`}>{e.status}</span>
              {e.status === 'READY' && (
                <>
                  {' '}
                  <a href={`/console/exports/${e.id}/download`}>{v.t('exportDownload')}</a>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      <form method="post" action={action}>
        <Csrf v={v} action={action} />
        <button type="submit" class="secondary">
          {v.t('exportRun')}
        </button>
      </form>
    </section>
  );
}
