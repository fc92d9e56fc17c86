#!/usr/bin/env node
// `npm run backup:drill`: the restore of docs/OPERATIONS.md rehearsed locally, without a network or a
// Cloudflare account, in the runbook's order ("Restore order"); what cannot run locally is printed
// as not drilled. Every process it starts is stopped by its PID (scripts/bench/lib/serve.mjs's
// cleanup), also on failure; state under .wrangler/backup-drill (wiped per run).
//  1. The source: a local D1 gets the migrations, the demo seed, one full booking lifecycle (`npm run
//     e2e` against a `wrangler dev` this script starts, on 127.0.0.1:8825) and two uploads through
//     POST /files; its local R2 then holds KYC documents, dispute evidence, an avatar, receipts and an
//     export archive.
//  2. The restore point (a night's backup): `wrangler d1 export --local`, reordered, loaded with
//     `wrangler d1 execute --local --file` into a fresh database and checked there (the ledger balanced
//     per entry and per currency, every account equal to its lines, capacities equal to their live
//     reservations: scripts/soak/checks.mjs; every table's rows equal to the source's); the uploads
//     mirrored by the nightly job's own code (scripts/lib/offsite.mjs, SigV4 via aws4fetch) from the
//     source's R2, served through a fake of R2's S3 API, into the second location: a fake S3 store on
//     loopback (scripts/lib/fake-s3.mjs) that checks every signature and refuses a wrong key.
//  3. After the restore point: a user erases their account; the next mirror deletes their uploads
//     from the second location.
//  4. The restore: the erasures since the restore point listed from the source's audit log; the
//     uploads copied back from the second location into the restored environment's empty R2 (missing
//     objects only): each object of the restore point back with the same sha256, the erased ones not;
//     the erasures re-applied from the console as a super-admin (a `wrangler dev` on the restored
//     state); then every R2 key the restored D1 points to present with its bytes, the invariants kept.
//     The Durable Objects' point-in-time restore is called and answers 409 (none locally): not drilled.
// Exit 1 on any difference.
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { convertV4MiniflareOptions, Miniflare } from 'miniflare';
import { unstable_readConfig, unstable_splitSqlQuery } from 'wrangler';
import { applyMigrations, childPids, cleanupAll, hardDeadline, onCleanup, ROOT } from './bench/lib/serve.mjs';
import { importOrder } from './lib/d1-dump-order.mjs';
import { apiLogin, digests, fetchClosing, eraseFromConsole, eraseOwnAccount, listenOnLoopback, r2Store, referencedKeys, uploadPng } from './lib/drill-uploads.mjs';
import { fakeS3, memoryStore } from './lib/fake-s3.mjs';
import { mirror, restoreMissing, s3Bucket } from './lib/offsite.mjs';
import { CHECKS, runChecks } from './soak/checks.mjs';

const PORT = process.env.BACKUP_DRILL_PORT ?? '8825';
const BASE = `http://127.0.0.1:${PORT}`;
const DIR = path.join(ROOT, '.wrangler/backup-drill');
const WRANGLER = path.join(ROOT, 'node_modules/wrangler/bin/wrangler.js');
const DUMP = path.join(DIR, 'backup.sql');
const IMPORT = path.join(DIR, 'backup.import.sql');
const OFFSITE_BUCKET = 'colis-backups';
/** The demo account that erases itself after the restore point (it has a seeded KYC document and uploads an avatar). */
const ERASED_LATER = 'kyc-pending@demo.local';
hardDeadline(300, 'npm run backup:drill');

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
  const toml = unstable_readConfig({ config: path.join(ROOT, 'wrangler.toml') }, { hideWarnings: true });
  const d1 = toml.d1_databases[0];
  const uploads = toml.r2_buckets.find((b) => b.binding === 'UPLOADS').bucket_name;
  const config = path.join(dir, 'wrangler.json');
  const body = { name: `backup-drill-${name}`, compatibility_date: '2026-11-01', d1_databases: [{ binding: d1.binding, database_name: d1.database_name, database_id: d1.database_id, migrations_dir: path.relative(dir, path.join(ROOT, 'migrations')) }] };
  writeFileSync(config, JSON.stringify(body, null, 2));
  return { dir, config, id: d1.database_id, binding: d1.binding, uploads, state: path.join(dir, '.wrangler/state') };
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
      if ((await fetchClosing(`${BASE}/v1/api/health`)).ok) return stop;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`wrangler dev did not become healthy on ${BASE} within 90 s:\n${output}`);
}

/** The source's activity: the demo seed, then one booking walked from payment to delivery. */
async function activity(source) {
  const seed = await fetchClosing(`${BASE}/v1/api/dev/seed`, { method: 'POST' });
  if (!seed.ok) throw new Error(`seed answered ${seed.status}: ${await seed.text()}`);
  const { password } = await seed.json();
  const e2e = spawnSync(process.execPath, [path.join(ROOT, 'scripts/e2e-lifecycle.mjs')], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, BASE_URL: BASE, E2E_PERSIST_TO: source.state }, timeout: 180_000, killSignal: 'SIGKILL' });
  if (e2e.status !== 0) throw new Error(`npm run e2e against the source failed:\n${e2e.stdout}${e2e.stderr}`);
  return { steps: e2e.stdout.split('\n').filter((l) => l.startsWith('✓')).length, password };
}

/** A D1 handle on a database's persisted state (what `wrangler d1 export --local` opens itself). */
async function open(db) {
  const before = new Set(childPids(process.pid).map((p) => p.pid));
  const mf = new Miniflare(
    convertV4MiniflareOptions({ modules: true, script: 'export default {}', resourcePersistencePath: path.join(db.state, 'v3'), d1Databases: { [db.binding]: db.id }, r2Buckets: { UPLOADS: db.uploads } }),
  );
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
  return { d1: await mf.getD1Database(db.binding), r2: await mf.getR2Bucket('UPLOADS'), close };
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

/** A fresh key pair for a fake store: a store refuses any other. */
const newKeys = (region = 'auto') => ({ accessKeyId: `DRILL${randomBytes(8).toString('hex').toUpperCase()}`, secretAccessKey: randomBytes(24).toString('base64url'), region });

/** A local R2 bucket served through a fake of R2's S3 API, for the time of `use(bucket)`. */
async function r2AsS3(db, use) {
  const { d1, r2, close } = await open(db);
  const keys = newKeys();
  const fake = fakeS3({ ...keys, buckets: { [db.uploads]: r2Store(r2) } });
  const server = await listenOnLoopback((request) => fake.handle(request));
  try {
    return await use({ bucket: s3Bucket({ endpoint: server.url, bucket: db.uploads, ...keys }), d1, r2, requests: fake.requests });
  } finally {
    await server.close();
    await close();
  }
}

/** The second location: a fake S3-compatible store on loopback (objects in memory), checked to refuse a wrong key. */
async function secondLocation(problems) {
  const keys = newKeys('fr-par');
  const store = memoryStore();
  const server = await listenOnLoopback(fakeS3({ ...keys, buckets: { [OFFSITE_BUCKET]: store } }).handle);
  onCleanup(server.close);
  const bucket = s3Bucket({ endpoint: server.url, bucket: OFFSITE_BUCKET, ...keys });
  const refusal = await s3Bucket({ endpoint: server.url, bucket: OFFSITE_BUCKET, ...keys, secretAccessKey: 'not-the-secret' })
    .list()
    .then(() => 'accepted', (err) => String(err.message));
  if (!/: 403 [\s\S]*SignatureDoesNotMatch/.test(refusal)) problems.push(`second location: a wrong secret key was not refused (${refusal.slice(0, 120)})`);
  step(`second location: a fake S3 store on ${server.url} (SigV4 checked: a wrong secret key answered 403 SignatureDoesNotMatch)`);
  return { store, bucket, close: server.close };
}

/** The nightly job's step 3 (scripts/backup-offsite.mjs): the uploads bucket, read through R2's S3 API, mirrored into the second location. */
async function mirrorNightly(db, offsite, which) {
  return r2AsS3(db, async ({ bucket, r2, requests }) => {
    const done = await mirror(bucket, offsite.bucket, { prefix: 'uploads/' });
    step(`${which} nightly mirror into ${offsite.bucket.label}/uploads/: ${done.copied} copied, ${done.deleted} deleted, ${done.unchanged} unchanged (${requests.length} signed requests to R2's S3 API)`);
    return { objects: await digests(r2Store(r2)), done };
  });
}

/** "Before restoring, list them from the database as it is now" (docs/OPERATIONS.md): accounts erased since the restore point. */
async function erasuresSince(db, restorePoint) {
  const { d1, close } = await open(db);
  const sql = "SELECT CAST(target_id AS INTEGER) AS target_id, created_at FROM audit_logs WHERE action = 'ACCOUNT_DELETED' AND created_at >= ? ORDER BY id";
  const rows = (await d1.prepare(sql).bind(restorePoint).all()).results;
  await close();
  return rows;
}

/**
 * Section 2, "Restoring uploads": from the second location into the restored environment's (empty)
 * R2, missing objects only. Every object of the restore point must come back with its bytes, except
 * those erased since (gone from the second location: the erasure reached the backup); every key the
 * restored database points to must be there, except the erased accounts' (re-applying the erasure
 * removes those rows). Returns the erased accounts as the restored database has them.
 */
async function restoreUploads(restored, offsite, atRestorePoint, erasedKeys, erasures, problems) {
  return r2AsS3(restored, async ({ bucket, d1, r2 }) => {
    const done = await restoreMissing(offsite.bucket, bucket, { prefix: 'uploads/' });
    const now = await digests(r2Store(r2));
    let same = 0;
    for (const [key, sum] of atRestorePoint) {
      if (now.get(key) === sum) same += 1;
      if (erasedKeys.includes(key)) {
        if (now.has(key)) problems.push(`uploads: ${key}, erased after the restore point, came back from the second location`);
      } else if (now.get(key) !== sum) problems.push(`uploads: ${key} ${now.has(key) ? 'restored with other bytes' : 'not restored'}`);
    }
    const erased = new Set(erasures.map((e) => e.target_id));
    const refs = await referencedKeys(d1);
    const missing = refs.filter((r) => !now.has(r.key));
    for (const r of missing.filter((m) => !erased.has(m.owner))) problems.push(`uploads: ${r.key}, referenced by the restored D1, is not in the restored R2`);
    step(
      `uploads restored into the fresh R2: ${done.copied} copied from the second location; ${same} of the restore point's ${atRestorePoint.size} objects with the same sha256, ` +
        `${erasedKeys.length} erased since not brought back; ${refs.length} keys referenced by the restored D1, ${missing.length} absent (the erased account's)`,
    );
    const ids = [...erased];
    const accounts = ids.length ? (await d1.prepare(`SELECT id, email FROM users WHERE id IN (${ids.map(() => '?').join(',')})`).bind(...ids).all()).results : [];
    return { accounts, same };
  });
}

/** The runbook's Durable Object restore, as a super-admin calls it (no point-in-time recovery locally: 409 expected). */
async function durableObjectRestore(password, at) {
  const { token } = await apiLogin(BASE, 'superadmin@demo.local', password);
  const res = await fetchClosing(`${BASE}/v1/api/superadmin/reservations/1/storage-restore`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ object: 'CONVERSATION', at }),
  });
  const body = await res.json().catch(() => ({}));
  return `${res.status} ${body.errorCode ?? ''}`.trim();
}

/** After the erasures are re-applied: the accounts erased again, nothing the restored D1 points to missing or changed, the invariants kept. */
async function checkAfterErasures(restored, accounts, atRestorePoint, problems) {
  const { d1, r2, close } = await open(restored);
  for (const a of accounts) {
    const user = await d1.prepare('SELECT deleted_at FROM users WHERE id = ?').bind(a.id).first();
    const files = await d1.prepare("SELECT COUNT(*) AS n FROM files WHERE owner_id = ? AND purpose != 'AGENCY_DOCUMENT'").bind(a.id).first('n');
    const audited = await d1.prepare("SELECT COUNT(*) AS n FROM audit_logs WHERE action = 'ACCOUNT_DELETED' AND target_id = ? AND json_extract(details, '$.erasedBy') = 'SUPERADMIN'").bind(String(a.id)).first('n');
    if (!user?.deleted_at || files !== 0 || audited !== 1) problems.push(`erasure: user ${a.id} not erased again in the restored database (deleted_at ${user?.deleted_at}, ${files} uploads left, ${audited} audit rows)`);
  }
  const now = await digests(r2Store(r2));
  const refs = await referencedKeys(d1);
  for (const r of refs) if (now.get(r.key) !== atRestorePoint.get(r.key)) problems.push(`uploads: ${r.key}, referenced by the restored D1, ${now.has(r.key) ? 'differs from the restore point' : 'is missing'} after the erasures`);
  const violated = (await runChecks(d1, CHECKS)).filter((c) => c.outcome !== 'passed');
  problems.push(...violated.map((c) => `violated after the erasures: ${c.name} (${c.detail})`));
  step(`restored after the erasures: ${refs.length} keys referenced by D1, all present with the restore point's bytes${violated.length ? '' : '; invariants still hold'}`);
  await close();
}

/** The restore order of docs/OPERATIONS.md ("The whole restore, in order"), each step said drilled or not. */
function printRunbookOrder(pitr) {
  const order = [
    ['NOT drilled', 'stop the damage: roll the Worker back (wrangler rollback needs a deployed Worker)'],
    ['drilled', 'list the accounts erased after the restore point (audit_logs ACCOUNT_DELETED) from the database as it is now'],
    ['drilled', 'D1 from the nightly export into a new database, reordered, checked (loaded right after the export, to compare it with the source of that time); Time Travel: NOT drilled (none locally)'],
    ['drilled', 'uploads from the second location into the empty R2, missing objects only (npm run backup:restore-uploads\'s code)'],
    ['NOT drilled', `Durable Objects (conversations, tracking) to an instant: no point-in-time recovery locally (the call answered ${pitr}); message bodies and GPS points not restored nor compared`],
    ['drilled', 'the erasures re-applied from the console by a super-admin'],
    ['NOT drilled', 'Stripe and Wave reconciled for the lost window (no provider here)'],
    ['drilled', 'checks before reopening: invariants, every upload the database points to present with its bytes'],
  ];
  console.log('restore order (docs/OPERATIONS.md, "The whole restore, in order"):');
  order.forEach(([state, text], i) => console.log(`  ${i + 1}. [${state}] ${text}`));
}

/** The D1 restore of section 3: the export loaded into a fresh database, compared with the source, its invariants checked. */
async function restoreD1(source, restored, problems) {
  wrangler(['d1', 'export', source.binding, '--local', '--config', source.config, '--output', DUMP]);
  step(`exported: ${path.relative(ROOT, DUMP)} (${(statSync(DUMP).size / 1024).toFixed(0)} KiB)`);
  // The export as written does not load into an empty database: reordered first (docs/OPERATIONS.md).
  const ordered = importOrder(unstable_splitSqlQuery(readFileSync(DUMP, 'utf8')));
  writeFileSync(IMPORT, `${ordered.join('\n')}\n`);
  wrangler(['d1', 'execute', restored.binding, '--local', '--config', restored.config, '--file', IMPORT, '--yes']);
  step(`imported into a fresh database (${ordered.length} statements)`);

  const [from, to] = [await open(source), await open(restored)];
  const [sourceTables, restoredTables] = [await tableDigests(from.d1), await tableDigests(to.d1)];
  problems.push(...compareTables(sourceTables, restoredTables).map((p) => `table: ${p}`));
  const checks = await runChecks(to.d1, CHECKS);
  const figures = (await to.d1.prepare("SELECT currency, COUNT(*) AS accounts, SUM(CASE WHEN kind = 'WALLET' THEN balance_cents ELSE 0 END) AS wallets FROM ledger_accounts GROUP BY currency").all()).results;
  const lines = await to.d1.prepare('SELECT COUNT(*) AS n FROM ledger_lines').first('n');
  const reservations = await to.d1.prepare('SELECT COUNT(*) AS n FROM reservations').first('n');
  const applied = (await to.d1.prepare('SELECT name FROM d1_migrations ORDER BY id').all()).results.map((r) => r.name);
  const files = readdirSync(path.join(ROOT, 'migrations')).filter((f) => f.endsWith('.sql')).sort();
  if (JSON.stringify(applied) !== JSON.stringify(files)) problems.push(`table: d1_migrations restored ${applied.length}, migrations/ has ${files.length}: a restore must know what is applied`);
  if (!lines || !reservations) problems.push(`table: nothing to check: ${lines} ledger lines, ${reservations} reservations in the restored database`);
  const violated = checks.filter((c) => c.outcome !== 'passed');
  problems.push(...violated.map((c) => `violated: ${c.name} (${c.detail})`));
  const rowTotal = [...restoredTables.values()].reduce((n, t) => n + t.rows, 0);
  step(
    `D1: ${restoredTables.size} tables, ${rowTotal} rows restored${problems.length ? '' : ' identical to the source (counts and contents)'}; ${reservations} reservations, ${lines} ledger lines; ` +
      `invariants ${checks.length - violated.length} passed / ${violated.length} violated; per currency ${figures.map((f) => `${f.currency}: ${f.accounts} accounts, wallets ${f.wallets}`).join('; ')}`,
  );
  await Promise.all([from.close(), to.close()]);
}

async function main() {
  rmSync(DIR, { recursive: true, force: true });
  const source = database('source');
  const restored = database('restored');
  const problems = [];

  step(`source: ${await migrate(source)} migrations applied`);
  let stop = await serve(source);
  step(`source: wrangler dev healthy on ${BASE}`);
  const { steps, password } = await activity(source);
  const kept = await apiLogin(BASE, 'sender@demo.local', password);
  const leaving = await apiLogin(BASE, ERASED_LATER, password);
  await uploadPng(BASE, kept.token, 'KYC_DOCUMENT', 'sender-kyc');
  await uploadPng(BASE, leaving.token, 'AVATAR', 'leaving-avatar');
  step(`source: demo seed, one booking lifecycle (${steps} e2e steps), 2 uploads through POST /files`);
  await stop();

  // The restore point: what last night's backup holds (the D1 export, the uploads mirrored).
  const restorePoint = new Date().toISOString();
  await restoreD1(source, restored, problems);
  const offsite = await secondLocation(problems);
  const { objects: atRestorePoint } = await mirrorNightly(source, offsite, 'first');
  if (atRestorePoint.size < 5) problems.push(`uploads: only ${atRestorePoint.size} objects in the source's R2: nothing much to drill`);

  // After the restore point: an account erased, then the next night's mirror.
  stop = await serve(source);
  await eraseOwnAccount(BASE, leaving.token);
  await stop();
  const erasures = await erasuresSince(source, restorePoint);
  step(`source: ${ERASED_LATER} (user ${leaving.user.id}) erased their account after the restore point; listed before restoring: ${erasures.map((e) => `user ${e.target_id}`).join(', ') || 'none'}`);
  if (!erasures.some((e) => e.target_id === leaving.user.id)) problems.push(`erasure: the audit log of the source does not list user ${leaving.user.id}'s erasure`);
  const next = await mirrorNightly(source, offsite, 'next');
  const erasedKeys = [...atRestorePoint.keys()].filter((k) => !next.objects.has(k));
  if (next.done.deleted !== erasedKeys.length) problems.push(`erasure: the next mirror deleted ${next.done.deleted} objects, the source lost ${erasedKeys.length}`);
  const stillThere = erasedKeys.filter((k) => offsite.store.objects.has(`uploads/${k}`));
  if (erasedKeys.length === 0) problems.push('erasure: no upload of the erased account was deleted from R2');
  if (stillThere.length) problems.push(`erasure: ${stillThere.join(', ')} still in the second location after the next mirror`);

  const { accounts, same } = await restoreUploads(restored, offsite, atRestorePoint, erasedKeys, erasures, problems);
  stop = await serve(restored);
  await eraseFromConsole(BASE, { email: 'superadmin@demo.local', password }, accounts);
  const pitr = await durableObjectRestore(password, restorePoint);
  await stop();
  if (pitr !== '409 INVALID_STATE') problems.push(`durable objects: the point-in-time restore answered ${pitr} locally, not 409 INVALID_STATE (docs/OPERATIONS.md): if it now runs locally, drill it`);
  step(`restored: ${accounts.length} erasure(s) re-applied from the console as superadmin@demo.local; DO point-in-time restore answered ${pitr}`);
  await checkAfterErasures(restored, accounts, atRestorePoint, problems);

  printRunbookOrder(pitr);
  await offsite.close();
  for (const p of problems) console.error(`  ${p}`);
  console.log(
    `backup:drill ${problems.length ? 'FAILED' : 'OK'}: D1 restored and checked; ${atRestorePoint.size} uploads at the restore point, ${same} restored with the same bytes, ` +
      `${erasedKeys.length} erased after it (${accounts.length} account(s) erased again after the restore); ${problems.length} problem(s)${problems.length ? ' (above)' : ''}; ${elapsed()} in all`,
  );
  return problems.length ? 1 : 0;
}

let code = 1;
try {
  code = await main();
} catch (err) {
  console.error(`backup:drill FAILED: ${err?.message ?? err}${err?.cause ? ` (${err.cause.message ?? err.cause})` : ""}`);
  if (process.env.BACKUP_DRILL_DEBUG) console.error(err);
} finally {
  await cleanupAll();
}
process.exit(code);
