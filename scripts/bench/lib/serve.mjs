// Serves the production bundle the way PERFORMANCE.md says works on this machine: built with
// `wrangler deploy --dry-run`, run by Miniflare directly (one workerd process on 127.0.0.1, no
// wrangler dev proxy), bindings taken from wrangler.toml, state in a directory wiped per run.
// Every process started here is tracked by PID and stopped by PID, also on failure.
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, rmSync, mkdirSync, existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { Miniflare } from 'miniflare';
import { unstable_readConfig, unstable_splitSqlQuery } from 'wrangler';

export const ROOT = path.resolve(import.meta.dirname, '../../..');
// Run wrangler with this Node (22, from the `node` devDependency), whatever node is first on PATH.
const WRANGLER = path.join(ROOT, 'node_modules/wrangler/bin/wrangler.js');

// ---------------------------------------------------------------------------------------------
// Cleanup: everything this process starts registers a stop function; signals and crashes run them.
const cleanups = [];
let cleaning = false;
export function onCleanup(fn) {
  cleanups.push(fn);
}
export async function cleanupAll() {
  if (cleaning) return;
  cleaning = true;
  for (const fn of cleanups.reverse()) {
    try {
      await fn();
    } catch (err) {
      console.error('cleanup failed:', err?.message ?? err);
    }
  }
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, async () => {
    console.error(`\n${signal}: stopping the processes this run started`);
    await cleanupAll();
    process.exit(130);
  });
}
process.on('uncaughtException', async (err) => {
  console.error(err);
  await cleanupAll();
  process.exit(1);
});
process.on('unhandledRejection', async (err) => {
  console.error(err);
  await cleanupAll();
  process.exit(1);
});

/** A wall-clock guard: past `seconds`, stop everything and exit non-zero. */
export function hardDeadline(seconds, what) {
  const timer = setTimeout(async () => {
    console.error(`${what} exceeded its ${seconds} s bound: stopping`);
    await cleanupAll();
    process.exit(124);
  }, seconds * 1000);
  timer.unref();
}

// ---------------------------------------------------------------------------------------------
// Build

function wrangler(args, { timeoutMs = 120_000 } = {}) {
  const res = spawnSync(process.execPath, [WRANGLER, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: timeoutMs,
    killSignal: 'SIGKILL',
    env: { ...process.env, CI: 'true', WRANGLER_SEND_METRICS: 'false', NO_COLOR: '1' },
  });
  const output = `${res.stdout ?? ''}${res.stderr ?? ''}`;
  if (res.status !== 0) throw new Error(`wrangler ${args.join(' ')} failed (${res.status ?? res.signal}):\n${output}`);
  return output;
}

/** `wrangler deploy --dry-run --outdir`: the exact bundle a deploy would upload. */
export function buildWorker({ config, outdir, minify = false, env, script }) {
  rmSync(outdir, { recursive: true, force: true });
  const output = wrangler(['deploy', ...(script ? [script] : []), '--dry-run', '--config', config, '--outdir', outdir, ...(minify ? ['--minify'] : []), ...(env ? ['--env', env] : [])]);
  const modules = {};
  let mainModule;
  for (const name of readdirSync(outdir, { recursive: true })) {
    const file = path.join(outdir, name);
    if (statSync(file).isDirectory() || name.endsWith('.map') || name === 'README.md') continue;
    const ext = path.extname(name);
    const type = ext === '.wasm' ? 'wasm' : ext === '.json' ? 'json' : ext === '.txt' ? 'text' : ext === '.bin' ? 'data' : 'esm';
    modules[name] = { type, contents: type === 'esm' || type === 'text' || type === 'json' ? readFileSync(file, 'utf8') : new Uint8Array(readFileSync(file)) };
    if (!mainModule && type === 'esm' && (name === 'index.js' || name === path.basename(name))) mainModule = name;
  }
  if (!modules['index.js'] && !mainModule) throw new Error(`no bundle in ${outdir}`);
  return { mainModule: modules['index.js'] ? 'index.js' : mainModule, modules, output };
}

// ---------------------------------------------------------------------------------------------
// Configuration from wrangler.toml

/** Secrets for local runs come from the committed example (never from .dev.vars). */
function exampleSecrets() {
  const file = path.join(ROOT, '.dev.vars.example');
  if (!existsSync(file)) return {};
  const vars = {};
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const m = line.match(/^\s*([A-Z0-9_]+)\s*=\s*(.*)$/);
    if (m) vars[m[1]] = m[2];
  }
  return vars;
}

export const BENCH_JWT_KEYS = JSON.stringify([{ kid: 'bench-1', secret: 'bench-only-secret-0123456789abcdefghijklmnop' }]);

/** Miniflare 5 worker config (see miniflare's index.d.ts) with the bindings wrangler.toml declares. */
function workerConfig({ name, configPath, build, extraEnv = {}, d1Ids, queueConsumers = true }) {
  const cfg = unstable_readConfig({ config: configPath }, { hideWarnings: true });
  const env = {};
  for (const [key, value] of Object.entries(cfg.vars ?? {})) {
    env[key] = typeof value === 'string' ? { type: 'text', value } : { type: 'json', value };
  }
  for (const d1 of cfg.d1_databases ?? []) {
    const id = d1Ids?.[d1.binding] ?? d1.database_id ?? d1.binding;
    env[d1.binding] = { type: 'd1', id };
  }
  for (const kv of cfg.kv_namespaces ?? []) env[kv.binding] = { type: 'kv', id: kv.id ?? kv.binding };
  for (const r2 of cfg.r2_buckets ?? []) env[r2.binding] = { type: 'r2', name: r2.bucket_name ?? r2.binding };
  // Rate limiters keep wrangler.toml's limits: the load spreads over emails and client IPs instead.
  for (const rl of cfg.ratelimits ?? []) {
    env[rl.name] = { type: 'rate-limit', namespace: String(rl.namespace_id), simple: { limit: rl.simple.limit, period: rl.simple.period ?? 60 } };
  }
  const exportsCfg = {};
  const sqliteClasses = new Set((cfg.migrations ?? []).flatMap((m) => m.new_sqlite_classes ?? []));
  for (const dob of cfg.durable_objects?.bindings ?? []) {
    env[dob.name] = { type: 'durable-object', worker: dob.script_name ?? name, exportName: dob.class_name };
    if (!dob.script_name) {
      exportsCfg[dob.class_name] = { type: 'durable-object', storage: sqliteClasses.has(dob.class_name) ? 'sqlite' : 'legacy-kv' };
    }
  }
  for (const [key, value] of Object.entries(extraEnv)) env[key] = { type: 'text', value: String(value) };
  // The queue producers (DELIVERIES) and, unless the caller measures CPU per request (a consumer is
  // its own invocation in production, not the request's), the consumers as queue triggers.
  for (const q of cfg.queues?.producers ?? []) env[q.binding] = { type: 'queue', name: q.queue };
  const triggers = queueConsumers
    ? (cfg.queues?.consumers ?? []).map((q) => ({
        type: 'queue',
        name: q.queue,
        maxBatchSize: q.max_batch_size,
        maxBatchTimeout: q.max_batch_timeout,
        maxRetries: q.max_retries,
        retryDelay: q.retry_delay,
        deadLetterQueue: q.dead_letter_queue,
      }))
    : [];
  return {
    config: {
      name,
      compatibilityDate: cfg.compatibility_date,
      compatibilityFlags: cfg.compatibility_flags ?? [],
      manifest: { mainModule: build.mainModule, modulesRoot: '/', modules: build.modules },
      env,
      ...(triggers.length ? { triggers } : {}),
      ...(Object.keys(exportsCfg).length ? { exports: exportsCfg } : {}),
    },
    dev: { unsafeDirectSockets: [{ host: '127.0.0.1', port: 0 }] },
  };
}

// ---------------------------------------------------------------------------------------------
// Serving

export function childPids(parent) {
  const pids = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const afterComm = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (Number(afterComm[1]) === parent) pids.push({ pid: Number(entry), comm });
    } catch {
      // the process ended while we listed
    }
  }
  return pids;
}

/**
 * The API and primitives bundles (`wrangler deploy --dry-run`), built once and reusable by several
 * services. The API's is the deployed one: `--env production` (minified, with its source maps).
 * `withCapture`: also the API with its D1 round trips recorded (scripts/bench/capture-worker.ts).
 * `asDeployed: false`: the API unminified (profiles keep the functions' names).
 */
export function buildBundles({ withPrimitives = true, withCapture = false, asDeployed = true } = {}) {
  const buildRoot = path.join(ROOT, '.wrangler/bench-build');
  const config = path.join(ROOT, 'wrangler.toml');
  return {
    api: buildWorker({ config, outdir: path.join(buildRoot, 'api'), ...(asDeployed ? { env: 'production' } : {}) }),
    primitives: withPrimitives ? buildWorker({ config: path.join(ROOT, 'scripts/bench/primitives.wrangler.toml'), outdir: path.join(buildRoot, 'primitives') }) : undefined,
    capture: withCapture ? buildWorker({ config, outdir: path.join(buildRoot, 'capture'), script: 'scripts/bench/capture-worker.ts' }) : undefined,
  };
}

/** Raw and gzip size of a built bundle, as wrangler reported them (measured when it did not). */
export function sizeOf(build) {
  const match = build.output.match(/Total Upload:\s*([\d.]+)\s*KiB\s*\/\s*gzip:\s*([\d.]+)\s*KiB/);
  const code = Object.values(build.modules)
    .map((m) => m.contents)
    .join('');
  return { rawKiB: match ? Number(match[1]) : Buffer.byteLength(code) / 1024, gzipKiB: match ? Number(match[2]) : gzipSync(code).length / 1024, reportedByWrangler: Boolean(match) };
}

/**
 * Builds the API (and optionally the primitives worker) unless `bundles` are given, starts one
 * workerd through Miniflare, applies migrations/*.sql to its D1 and returns the loopback URLs, the
 * workerd PID, a D1 handle and `stop()` (disposes Miniflare, then stops that workerd by its PID).
 */
export async function startService({ stateName, withPrimitives = true, extraEnv = {}, log = console.log, bundles, inspectorPort, queueConsumers = true, workerdPath, keepState = false, withCapture = false, onLog }) {
  const stateDir = path.join(ROOT, '.wrangler/bench-state', stateName);
  if (!keepState) {
    rmSync(stateDir, { recursive: true, force: true });
    mkdirSync(stateDir, { recursive: true });
  }

  let t = Date.now();
  const built = bundles ?? buildBundles({ withPrimitives });
  const api = built.api;
  // A local harness on loopback with the sandbox providers, like the test runner: `test`, one of the
  // two environments where sandboxes may stand in (src/config.ts; any other name gets production's
  // rules and fails closed without real providers). Not `development`: its error bodies carry
  // debugInfo, which the soak refuses as outside the specification.
  const secrets = { ...exampleSecrets(), JWT_KEYS: BENCH_JWT_KEYS, ENVIRONMENT: process.env.BENCH_ENVIRONMENT ?? 'test' };
  const workers = [workerConfig({ name: 'api', configPath: path.join(ROOT, 'wrangler.toml'), build: api, extraEnv: { ...secrets, ...extraEnv }, queueConsumers })];
  if (withPrimitives) {
    const prim = built.primitives;
    const apiCfg = unstable_readConfig({ config: path.join(ROOT, 'wrangler.toml') }, { hideWarnings: true });
    const primitives = workerConfig({
      name: 'primitives',
      configPath: path.join(ROOT, 'scripts/bench/primitives.wrangler.toml'),
      build: prim,
      extraEnv: { ...secrets, ...extraEnv, JWT_ISSUER: apiCfg.vars.JWT_ISSUER, JWT_AUDIENCE: apiCfg.vars.JWT_AUDIENCE },
    });
    // The primitives use the API's own storage: same D1 database id, KV namespace and bucket.
    for (const [key, binding] of Object.entries(workers[0].config.env)) {
      if (['d1', 'kv', 'r2'].includes(binding.type)) primitives.config.env[key] = binding;
    }
    workers.push(primitives);
  }
  if (built.capture && withCapture) {
    // The API again, its D1 round trips recorded, on the API's storage; its objects are its own.
    const capture = workerConfig({ name: 'capture', configPath: path.join(ROOT, 'wrangler.toml'), build: built.capture, extraEnv: { ...secrets, ...extraEnv }, queueConsumers: false });
    for (const [key, binding] of Object.entries(workers[0].config.env)) {
      if (['d1', 'kv', 'r2'].includes(binding.type)) capture.config.env[key] = binding;
    }
    workers.push(capture);
  }
  if (!bundles) log(`built in ${((Date.now() - t) / 1000).toFixed(1)} s`);

  t = Date.now();
  const before = new Set(childPids(process.pid).map((p) => p.pid));
  // Miniflare reads MINIFLARE_WORKERD_PATH when it spawns workerd (lib/callgrind.mjs's wrapper).
  const previousWorkerd = process.env.MINIFLARE_WORKERD_PATH;
  if (workerdPath) process.env.MINIFLARE_WORKERD_PATH = workerdPath;
  const mf = new Miniflare({
    host: '127.0.0.1',
    port: 0,
    resourcePersistencePath: stateDir,
    // The API logs one line per request; printing them would cost more than serving them. `onLog`
    // sees each (the soak's fault drill looks for the errors of its restart).
    handleStructuredLogs: onLog ?? (() => {}),
    // scripts/bench/profile.mjs: workerd's own inspector (CDP) on 127.0.0.1, 0 = any free port.
    ...(inspectorPort !== undefined ? { inspectorPort, inspectorHost: '127.0.0.1' } : {}),
    workers,
  });
  let workerdPid;
  let stopped;
  const stop = () =>
    (stopped ??= (async () => {
      await Promise.race([mf.dispose(), new Promise((r) => setTimeout(r, 10_000))]);
      if (workerdPid && existsSync(`/proc/${workerdPid}`)) {
        try {
          process.kill(workerdPid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    })());
  onCleanup(stop);
  try {
    await mf.ready;
  } finally {
    if (workerdPath) {
      if (previousWorkerd === undefined) delete process.env.MINIFLARE_WORKERD_PATH;
      else process.env.MINIFLARE_WORKERD_PATH = previousWorkerd;
    }
  }
  // Under the callgrind wrapper the process is valgrind's tool ('callgrind-amd64-linux'), same PID.
  const started = childPids(process.pid).filter((p) => !before.has(p.pid) && /^(workerd|callgrind|valgrind)/.test(p.comm));
  if (started.length !== 1) throw new Error(`expected one workerd child, found ${JSON.stringify(started)}`);
  workerdPid = started[0].pid;
  const apiUrl = new URL(await mf.unsafeGetDirectURL('api'));
  const primitivesUrl = withPrimitives ? new URL(await mf.unsafeGetDirectURL('primitives')) : undefined;
  const captureUrl = built.capture && withCapture ? new URL(await mf.unsafeGetDirectURL('capture')) : undefined;
  log(`workerd pid ${workerdPid} ready in ${((Date.now() - t) / 1000).toFixed(1)} s on ${apiUrl.origin}`);

  const db = await mf.getD1Database('DB', 'api');
  if (!keepState) await applyMigrations(db);
  return { mf, db, apiUrl, primitivesUrl, captureUrl, workerdPid, stateDir, stop };
}

/** The same flat migrations/*.sql wrangler applies, in order. */
export async function applyMigrations(db) {
  const dir = path.join(ROOT, 'migrations');
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort();
  for (const file of files) {
    const sql = readFileSync(path.join(dir, file), 'utf8').replaceAll('--> statement-breakpoint', '');
    const statements = unstable_splitSqlQuery(sql).filter((s) => s.trim());
    await db.batch(statements.map((s) => db.prepare(s)));
  }
  return files;
}
