#!/usr/bin/env node
// `npm run backup:drill`: the restore of docs/OPERATIONS.md rehearsed locally, without a network or a
// Cloudflare account. A local D1 gets the migrations, the demo seed and one full booking lifecycle
// (`npm run e2e` against a `wrangler dev` this script starts, on 127.0.0.1:8825); `wrangler d1 export
// --local` writes it to a .sql file; `wrangler d1 execute --local --file` loads that file into a fresh
// database in another persistence directory. There the script checks what a restore must keep:
// the ledger balanced per entry and per currency, every wallet (every account) equal to its lines,
// announcement capacities equal to their live reservations (the soak's invariants,
// scripts/soak/checks.mjs), and every table's row count and content equal to the source's.
// Exit 1 on any difference. State under .wrangler/backup-drill (wiped per run); every process it
// starts is stopped by its PID (scripts/bench/lib/serve.mjs's cleanup), also on failure.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { convertV4MiniflareOptions, Miniflare } from 'miniflare';
import { unstable_readConfig, unstable_splitSqlQuery } from 'wrangler';
import { applyMigrations, childPids, cleanupAll, hardDeadline, onCleanup, ROOT } from './bench/lib/serve.mjs';
import { importOrder } from './lib/d1-dump-order.mjs';
import { CHECKS, runChecks } from './soak/checks.mjs';

const PORT = process.env.BACKUP_DRILL_PORT ?? '8825';
const BASE = `http://127.0.0.1:${PORT}`;
const DIR = path.join(ROOT, '.wrangler/backup-drill');
const WRANGLER = path.join(ROOT, 'node_modules/wrangler/bin/wrangler.js');
const DUMP = path.join(DIR, 'backup.sql');
const IMPORT = path.join(DIR, 'backup.import.sql');
hardDeadline(240, 'npm run backup:drill');

const started = Date.now();
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
const step = (text) => console.log(`[${elapsed()}] ${text}`);
const wranglerEnv = { ...process.env, CI: 'true', WRANGLER_SEND_METRICS: 'false', NO_COLOR: '1' };

function wrangler(args) {
  const res = spawnSync(process.execPath, [WRANGLER, ...args], { cwd: ROOT, encoding: 'utf8', env: wranglerEnv, timeout: 120_000, killSignal: 'SIGKILL' });
  if (res.status !== 0) throw new Error(`wrangler ${args.join(' ')} failed (${res.status ?? res.signal}):\n${res.stdout}${res.stderr}`);
  return res.stdout;
}

/**
 * A database of its own: a directory with a configuration naming only the D1 binding (same id as
 * wrangler.toml's), so `wrangler d1 export --local`, which has no --persist-to, reads this
 * directory's .wrangler/state and nothing else.
 */
function database(name) {
  const dir = path.join(DIR, name);
  mkdirSync(dir, { recursive: true });
  const d1 = unstable_readConfig({ config: path.join(ROOT, 'wrangler.toml') }, { hideWarnings: true }).d1_databases[0];
  const config = path.join(dir, 'wrangler.json');
  const body = { name: `backup-drill-${name}`, compatibility_date: '2026-11-01', d1_databases: [{ binding: d1.binding, database_name: d1.database_name, database_id: d1.database_id, migrations_dir: path.relative(dir, path.join(ROOT, 'migrations')) }] };
  writeFileSync(config, JSON.stringify(body, null, 2));
  return { dir, config, id: d1.database_id, binding: d1.binding, state: path.join(dir, '.wrangler/state') };
}

/** `wrangler dev` on the source's state; resolves once healthy. Stopped by PID (its workerd too). */
async function serve(source) {
  const args = ['dev', '--ip', '127.0.0.1', '--port', PORT, '--persist-to', source.state, '--env-file', path.join(ROOT, '.dev.vars.example'), '--var', `PUBLIC_BASE_URL:${BASE}`, '--show-interactive-dev-session=false'];
  const child = spawn(process.execPath, [WRANGLER, ...args], { cwd: ROOT, env: wranglerEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const stop = async () => {
    // The whole tree this wrangler started, listed before it is signalled, each stopped by its PID.
    const tree = [];
    const walk = (pid) => childPids(pid).forEach((c) => (tree.push(c.pid), walk(c.pid)));
    walk(child.pid);
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await Promise.race([new Promise((r) => child.once('exit', r)), new Promise((r) => setTimeout(r, 5_000))]);
    }
    for (const pid of [child.pid, ...tree]) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  };
  onCleanup(stop);
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited (${child.exitCode}):\n${output}`);
    try {
      if ((await fetch(`${BASE}/v1/api/health`)).ok) return stop;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`wrangler dev did not become healthy on ${BASE} within 90 s:\n${output}`);
}

/** The source's activity: the demo seed, then one booking walked from payment to delivery. */
async function activity(source) {
  const seed = await fetch(`${BASE}/v1/api/dev/seed`, { method: 'POST' });
  if (!seed.ok) throw new Error(`seed answered ${seed.status}: ${await seed.text()}`);
  const e2e = spawnSync(process.execPath, [path.join(ROOT, 'scripts/e2e-lifecycle.mjs')], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, BASE_URL: BASE, E2E_PERSIST_TO: source.state }, timeout: 180_000, killSignal: 'SIGKILL' });
  if (e2e.status !== 0) throw new Error(`npm run e2e against the source failed:\n${e2e.stdout}${e2e.stderr}`);
  return e2e.stdout.split('\n').filter((l) => l.startsWith('✓')).length;
}

/** A D1 handle on a database's persisted state (what `wrangler d1 export --local` opens itself). */
async function open(db) {
  const before = new Set(childPids(process.pid).map((p) => p.pid));
  const mf = new Miniflare(convertV4MiniflareOptions({ modules: true, script: 'export default {}', resourcePersistencePath: path.join(db.state, 'v3'), d1Databases: { [db.binding]: db.id } }));
  await mf.ready;
  const pids = childPids(process.pid).filter((p) => !before.has(p.pid)).map((p) => p.pid);
  let closed;
  const close = () =>
    (closed ??= (async () => {
      await Promise.race([mf.dispose(), new Promise((r) => setTimeout(r, 5_000))]);
      for (const pid of pids) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    })());
  onCleanup(close);
  return { d1: await mf.getD1Database(db.binding), close };
}

/**
 * The migrations, as `wrangler d1 migrations apply --local` applies them (each file, then its row
 * in d1_migrations), in one process: wrangler's own command takes seconds per file here.
 */
async function migrate(db) {
  const { d1, close } = await open(db);
  await d1.exec('CREATE TABLE IF NOT EXISTS d1_migrations(id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL)');
  const files = await applyMigrations(d1);
  await d1.batch(files.map((name) => d1.prepare('INSERT INTO d1_migrations (name) VALUES (?)').bind(name)));
  await close();
  return files.length;
}

/** The order a table's rows are digested in: rowid, or the primary key of a WITHOUT ROWID table (route_day_trips). */
async function rowOrder(d1, name, sql) {
  if (!/WITHOUT\s+ROWID/i.test(sql ?? '')) return 'rowid';
  const columns = (await d1.prepare(`PRAGMA table_info("${name}")`).all()).results.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
  return columns.map((c) => `"${c.name}"`).join(', ');
}

/** Every table's row count and a digest of its rows in rowid (or primary key) order (Cloudflare's own `_cf_` tables aside). */
async function tableDigests(d1) {
  const tables = (await d1.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' ORDER BY name").all()).results;
  const out = new Map();
  for (const { name, sql } of tables) {
    const rows = (await d1.prepare(`SELECT * FROM "${name}" ORDER BY ${await rowOrder(d1, name, sql)}`).raw()) ?? [];
    out.set(name, { rows: rows.length, digest: createHash('sha256').update(JSON.stringify(rows)).digest('hex').slice(0, 16) });
  }
  return out;
}

/** The source's tables against the restored ones: same tables, same counts, same rows. */
function compareTables(source, restored) {
  const problems = [];
  for (const [name, s] of source) {
    const r = restored.get(name);
    if (!r) problems.push(`${name}: absent from the restored database`);
    else if (r.rows !== s.rows) problems.push(`${name}: ${s.rows} rows in the source, ${r.rows} restored`);
    else if (r.digest !== s.digest) problems.push(`${name}: same ${s.rows} rows in number, different content`);
  }
  for (const name of restored.keys()) if (!source.has(name)) problems.push(`${name}: only in the restored database`);
  return problems;
}

async function main() {
  rmSync(DIR, { recursive: true, force: true });
  const source = database('source');
  const restored = database('restored');

  step(`source: ${await migrate(source)} migrations applied`);
  const stop = await serve(source);
  step(`source: wrangler dev healthy on ${BASE}`);
  const steps = await activity(source);
  step(`source: demo seed and one booking lifecycle (${steps} e2e steps)`);
  await stop();

  wrangler(['d1', 'export', source.binding, '--local', '--config', source.config, '--output', DUMP]);
  step(`exported: ${path.relative(ROOT, DUMP)} (${(statSync(DUMP).size / 1024).toFixed(0)} KiB)`);
  // The export as written does not load into an empty database: reordered first (docs/OPERATIONS.md).
  const ordered = importOrder(unstable_splitSqlQuery(readFileSync(DUMP, 'utf8')));
  writeFileSync(IMPORT, `${ordered.join('\n')}\n`);
  wrangler(['d1', 'execute', restored.binding, '--local', '--config', restored.config, '--file', IMPORT, '--yes']);
  step(`imported into a fresh database (${ordered.length} statements)`);

  const [from, to] = [(await open(source)).d1, (await open(restored)).d1];
  const [sourceTables, restoredTables] = [await tableDigests(from), await tableDigests(to)];
  const tableProblems = compareTables(sourceTables, restoredTables);
  const checks = await runChecks(to, CHECKS);
  const figures = (await to.prepare("SELECT currency, COUNT(*) AS accounts, SUM(CASE WHEN kind = 'WALLET' THEN balance_cents ELSE 0 END) AS wallets FROM ledger_accounts GROUP BY currency").all()).results;
  const lines = await to.prepare('SELECT COUNT(*) AS n FROM ledger_lines').first('n');
  const reservations = await to.prepare('SELECT COUNT(*) AS n FROM reservations').first('n');
  const applied = (await to.prepare('SELECT name FROM d1_migrations ORDER BY id').all()).results.map((r) => r.name);
  const files = readdirSync(path.join(ROOT, 'migrations')).filter((f) => f.endsWith('.sql')).sort();
  if (JSON.stringify(applied) !== JSON.stringify(files)) tableProblems.push(`d1_migrations restored ${applied.length}, migrations/ has ${files.length}: a restore must know what is applied`);
  if (!lines || !reservations) tableProblems.push(`nothing to check: ${lines} ledger lines, ${reservations} reservations in the restored database`);

  const violated = checks.filter((c) => c.outcome !== 'passed');
  for (const c of violated) console.error(`  violated: ${c.name} (${c.detail})`);
  for (const p of tableProblems) console.error(`  table: ${p}`);
  const rowTotal = [...restoredTables.values()].reduce((n, t) => n + t.rows, 0);
  const failed = violated.length > 0 || tableProblems.length > 0;
  console.log(
    `backup:drill ${failed ? 'FAILED' : 'OK'}: ${restoredTables.size} tables, ${rowTotal} rows restored identical to the source (counts and contents)` +
      `${tableProblems.length ? ` except ${tableProblems.length}` : ''}; ${reservations} reservations, ${lines} ledger lines; ` +
      `invariants ${checks.length - violated.length} passed / ${violated.length} violated; ` +
      `per currency ${figures.map((f) => `${f.currency}: ${f.accounts} accounts, wallets ${f.wallets}`).join('; ')}; ${elapsed()} in all`,
  );
  return failed ? 1 : 0;
}

let code = 1;
try {
  code = await main();
} catch (err) {
  console.error(`backup:drill FAILED: ${err?.message ?? err}`);
} finally {
  await cleanupAll();
}
process.exit(code);
