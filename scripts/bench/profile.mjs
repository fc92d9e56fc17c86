// `npm run bench:profile -- '<endpoint or primitive>'`: a V8 CPU profile of the API isolate under a
// bounded load of one target, through workerd's own inspector (CDP over a WebSocket on 127.0.0.1).
// Reuses the bench harness: the production bundle, Miniflare direct, a seeded data set, the request
// generators of endpoints.mjs and the load process (scripts/bench/load.mjs). Prints the top
// functions by self time and by total (inclusive) time, and self time by module (hono, drizzle,
// zod, jose, app code per source folder, runtime built-ins, GC, idle).
//
// Target: a substring of an endpoint name of endpoints.mjs ('GET /v1/api/bookings/{id}', 'as-carrier',
// 'floor' for the unknown-endpoint floor), or 'prim:<name>' for a primitive (its isolate is the
// primitives worker). Several targets, comma-separated, are profiled one after the other on the
// same seeded service.
//
// Settings (environment): PROFILE_SECONDS (load per target, default 6), PROFILE_CONNECTIONS (10),
// PROFILE_SCALE (data set size, 0.2 = 1,000 users), PROFILE_INTERVAL_US (sampling interval, 100),
// PROFILE_TOP (rows per table, 25), PROFILE_OUT (directory for the raw .cpuprofile files, loadable
// in Chrome DevTools; default .wrangler/profiles). The whole run is bounded (PROFILE_MAX_SECONDS,
// 600): everything it started (workerd, the load process) is stopped by PID.
//
// What a profile shows: samples of the API isolate's JavaScript thread only. Local D1, KV and
// Durable Object simulators run in other isolates (or natively) of the same workerd: their CPU is
// in the bench's CPU/request but appears here as "(idle)" or "(program)". Shares are given of the
// non-idle samples.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ENDPOINTS, PRIMITIVES } from './endpoints.mjs';
import { buildContext, startLoadProcess } from './lib/harness.mjs';
import { BENCH_PASSWORD, benchPasswordHash, seed, sqlBatcher } from './lib/seed.mjs';
import { ROOT, buildBundles, cleanupAll, hardDeadline, startService } from './lib/serve.mjs';

const num = (name, fallback) => (process.env[name] ? Number(process.env[name]) : fallback);
const SECONDS = num('PROFILE_SECONDS', 6);
const CONNECTIONS = num('PROFILE_CONNECTIONS', 10);
const SCALE = num('PROFILE_SCALE', 0.2);
const INTERVAL_US = num('PROFILE_INTERVAL_US', 100);
const TOP = num('PROFILE_TOP', 25);
const OUT = process.env.PROFILE_OUT ?? path.join(ROOT, '.wrangler/profiles');
const T0 = Date.now();
const log = (...args) => console.log(`[${((Date.now() - T0) / 1000).toFixed(0).padStart(3)} s]`, ...args);
hardDeadline(num('PROFILE_MAX_SECONDS', 600), 'bench:profile');

const args = process.argv.slice(2).join(',');
if (!args) {
  console.error("usage: npm run bench:profile -- '<endpoint substring>|floor|prim:<primitive>'[,...]");
  console.error(`endpoints: ${ENDPOINTS.map((e) => e.name).join(' | ')}`);
  console.error(`primitives: ${Object.keys(PRIMITIVES).join(' ')}`);
  process.exit(2);
}

function resolveTarget(spec) {
  spec = spec.trim();
  if (spec.startsWith('prim:')) {
    const name = spec.slice(5);
    if (!PRIMITIVES[name]) throw new Error(`no primitive ${name}`);
    return { kind: 'primitive', name, worker: 'primitives', expect: [200] };
  }
  if (spec === 'floor') spec = '{unknown}';
  const exact = ENDPOINTS.find((e) => e.name === spec);
  const found = exact ? [exact] : ENDPOINTS.filter((e) => e.name.includes(spec));
  if (found.length !== 1) throw new Error(`'${spec}' matches ${found.length} endpoints: ${found.map((e) => e.name).join(', ') || 'none'}`);
  return { kind: 'endpoint', name: found[0].name, def: found[0], worker: 'api', expect: found[0].expect ?? [200] };
}

// ---------------------------------------------------------------------------------------------
// CDP

async function connect(url) {
  const ws = new WebSocket(url);
  await new Promise((resolve, reject) => {
    ws.addEventListener('open', resolve, { once: true });
    ws.addEventListener('error', () => reject(new Error(`cannot connect to ${url}`)), { once: true });
  });
  let next = 0;
  const waiting = new Map();
  ws.addEventListener('message', (ev) => {
    const msg = JSON.parse(typeof ev.data === 'string' ? ev.data : Buffer.from(ev.data).toString('utf8'));
    if (msg.id === undefined || !waiting.has(msg.id)) return;
    const { resolve, reject } = waiting.get(msg.id);
    waiting.delete(msg.id);
    if (msg.error) reject(new Error(`${msg.error.message} (${msg.error.code})`));
    else resolve(msg.result);
  });
  return {
    send: (method, params = {}) =>
      new Promise((resolve, reject) => {
        const id = ++next;
        waiting.set(id, { resolve, reject });
        ws.send(JSON.stringify({ id, method, params }));
      }),
    close: () => ws.close(),
  };
}

// ---------------------------------------------------------------------------------------------
// Attribution: the bundle is one unminified esbuild file whose modules start with `// <path>` lines.

function moduleMap(bundleText) {
  const marks = [];
  const lines = bundleText.split('\n');
  for (let k = 0; k < lines.length; k++) {
    const m = lines[k].match(/^\/\/ ((?:node_modules|src|\.\.\/)[^\s]*\.(?:[cm]?[jt]sx?|json))$/);
    if (m) marks.push({ line: k, file: m[1] });
  }
  return (line) => {
    let lo = 0;
    let hi = marks.length - 1;
    let found = null;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (marks[mid].line <= line) {
        found = marks[mid];
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found?.file ?? null;
  };
}

function moduleOf(node, fileAt, isRootChild = false) {
  const { functionName, url, lineNumber } = node.callFrame;
  // An unnamed native frame right under the root: workerd's own C++ on the isolate's thread
  // (request and response plumbing, I/O callbacks), not called from any JS frame.
  if (!url && isRootChild && !functionName) return '(workerd native, outside JS)';
  if (!url) {
    if (functionName === '(idle)') return '(idle)';
    if (functionName === '(garbage collector)') return '(GC)';
    if (functionName === '(program)' || functionName === '(root)') return '(program: native, outside JS)';
    return '(native built-in)';
  }
  if (!/index\.js$|\.mjs$|\.js$/.test(url) || url.startsWith('node:') || url.startsWith('cloudflare:') || url.includes('internal')) return `(runtime: ${url.split('/').pop()})`;
  const file = fileAt(lineNumber);
  if (!file) return `(bundle: ${url.split('/').pop()})`;
  const pkg = file.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (pkg) return pkg[1];
  const src = file.match(/^(?:\.\.\/)*src\/(.*)$/);
  if (src) {
    const parts = src[1].split('/');
    return `app: src/${parts.length > 2 ? parts.slice(0, 2).join('/') : parts.join('/')}`;
  }
  return file;
}

function analyse(profile, fileAt) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  // Time per sample from timeDeltas (the delta before sample k+1 is sample k's duration).
  const dt = new Map();
  const deltas = profile.timeDeltas;
  for (let k = 0; k < profile.samples.length; k++) {
    const d = (deltas[k + 1] ?? INTERVAL_US) / 1000;
    dt.set(profile.samples[k], (dt.get(profile.samples[k]) ?? 0) + d);
  }
  const fnKey = (n) => {
    const f = n.callFrame;
    const bundled = f.url && !f.url.includes(':');
    const file = f.url ? `${bundled ? `${fileAt(f.lineNumber) ?? ''} ` : ''}(${f.url.split('/').pop()}:${f.lineNumber + 1})` : '';
    return `${f.functionName || '(anonymous)'} ${file}`.trim();
  };
  const self = new Map();
  const total = new Map();
  const modules = new Map();
  let all = 0;
  let idle = 0;
  for (const [id, ms] of dt) {
    const n = byId.get(id);
    all += ms;
    const mod = moduleOf(n, fileAt, parent.get(id) === profile.nodes[0].id);
    if (mod === '(idle)') {
      idle += ms;
      continue;
    }
    const key = fnKey(n);
    self.set(key, { ms: (self.get(key)?.ms ?? 0) + ms, mod });
    modules.set(mod, (modules.get(mod) ?? 0) + ms);
    // Inclusive: every distinct function on the stack (recursion counted once).
    const seen = new Set();
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
      const c = byId.get(cur);
      if (c.callFrame.functionName === '(root)') break;
      const k = fnKey(c);
      if (seen.has(k)) continue;
      seen.add(k);
      total.set(k, { ms: (total.get(k)?.ms ?? 0) + ms, mod: moduleOf(c, fileAt, parent.get(cur) === profile.nodes[0].id) });
    }
  }
  return { all, idle, busy: all - idle, self, total, modules };
}

function printTables(name, a, requests) {
  const pct = (ms) => `${((100 * ms) / a.busy).toFixed(1).padStart(5)} %`;
  const perReq = (ms) => (requests ? `${((1000 * ms) / requests).toFixed(1).padStart(6)} us/req` : '');
  console.log(`\n=== ${name}: ${(a.all / 1000).toFixed(2)} s sampled, ${(a.busy / 1000).toFixed(2)} s busy in this isolate (${((100 * a.busy) / a.all).toFixed(0)} %), ${requests} requests; shares of busy time`);
  console.log('\n-- by module (self time)');
  for (const [mod, ms] of [...a.modules].sort((x, y) => y[1] - x[1])) console.log(`${pct(ms)} ${perReq(ms)}  ${mod}`);
  console.log(`\n-- top ${TOP} functions by self time`);
  for (const [k, v] of [...a.self].sort((x, y) => y[1].ms - x[1].ms).slice(0, TOP)) console.log(`${pct(v.ms)} ${perReq(v.ms)}  [${v.mod}] ${k}`);
  console.log(`\n-- top ${TOP} functions by total time (app and library frames)`);
  for (const [k, v] of [...a.total].sort((x, y) => y[1].ms - x[1].ms).slice(0, TOP)) console.log(`${pct(v.ms)} ${perReq(v.ms)}  [${v.mod}] ${k}`);
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const targets = args.split(',').filter(Boolean).map(resolveTarget);
  const bundles = buildBundles({ asDeployed: false }); // unminified: the profile names functions
  const fileAt = { api: moduleMap(bundles.api.modules['index.js'].contents), primitives: moduleMap(bundles.primitives.modules[bundles.primitives.mainModule].contents) };
  const passwordHash = benchPasswordHash();
  const service = await startService({
    stateName: 'profile',
    queueConsumers: false,
    bundles,
    log,
    inspectorPort: 0,
    extraEnv: { BENCH_USERS: Math.round(5000 * SCALE), BENCH_PASSWORD, BENCH_PASSWORD_HASH: passwordHash },
  });
  const load = startLoadProcess();
  try {
    const dataset = await seed(sqlBatcher(service.primitivesUrl), { scale: SCALE, passwordHash, log });
    const ctx = await buildContext(dataset, service.db, targets.length, SECONDS);
    const api = (p, init) => fetch(new URL(p, service.apiUrl), init);
    await load.run({ type: 'context', ctx });
    const inspector = await service.mf.getInspectorURL();
    const list = await fetch(new URL('/json', `http://${inspector.host}`)).then((r) => r.json());
    mkdirSync(OUT, { recursive: true });

    for (const [k, tg] of targets.entries()) {
      const origin = (tg.worker === 'api' ? service.apiUrl : service.primitivesUrl).origin;
      const entry = list.find((x) => x.id === `core:user:${tg.worker}`);
      if (!entry) throw new Error(`no inspector target core:user:${tg.worker} in ${JSON.stringify(list.map((x) => x.id))}`);
      let prepared = {};
      if (tg.def?.prepare) {
        // Round 1's inputs: each target is profiled once.
        prepared = await tg.def.prepare(ctx, api, 1, service.apiUrl);
        await load.run({ type: 'context', ctx: { ...ctx, prepared } });
      }
      const pool = prepared.pool?.length;
      if (pool === 0) {
        log(`${tg.name}: prepare produced no inputs at this scale (PROFILE_SCALE=${SCALE}); skipped`);
        continue;
      }
      // Warm-up (JIT, caches), not profiled.
      const warm = await load.run({ type: 'latency', kind: tg.kind, name: tg.name, origin, seconds: 1, maxRequests: pool ? Math.min(50, Math.floor(pool / 5)) : 300 });
      const cdp = await connect(`ws://${inspector.host}/core:user:${tg.worker}`);
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: INTERVAL_US });
      await cdp.send('Profiler.start');
      const run = await load.run({ type: 'throughput', kind: tg.kind, name: tg.name, origin, expect: tg.expect, seconds: SECONDS, connections: CONNECTIONS, workerdPid: service.workerdPid, ...(pool ? { amount: pool - (warm.n ?? 0), startIndex: warm.n ?? 0 } : {}) });
      const { profile } = await cdp.send('Profiler.stop');
      await cdp.send('Profiler.disable');
      cdp.close();
      if (run.error) throw new Error(`${tg.name}: ${run.error}`);
      const file = path.join(OUT, `${tg.name.replace(/[^\w]+/g, '_').replace(/^_|_$/g, '')}.cpuprofile`);
      writeFileSync(file, JSON.stringify(profile));
      log(`${tg.name}: ${run.completed} requests, ${run.rps.toFixed(0)} req/s, ${run.cpuMsPerRequest?.toFixed(3)} ms workerd CPU/req (profiler on), statuses ${JSON.stringify(run.statusCounts)}; profile in ${path.relative(ROOT, file)}`);
      printTables(tg.name, analyse(profile, fileAt[tg.worker]), run.completed);
      if (pool) await load.run({ type: 'context', ctx });
    }
  } finally {
    load.stop();
    await service.stop();
  }
}

try {
  await main();
} finally {
  await cleanupAll();
}
