// Instructions per request, counted by valgrind's callgrind (PERFORMANCE.md, "Counting
// instructions instead of time"): they do not depend on the neighbours of this shared machine.
//
// - captureFixtures(): in the ordinary workerd, each endpoint's requests are sent through
//   scripts/bench/capture-worker.ts (the API with its D1 round trips recorded); the recorded
//   statements become the raw reference the primitives worker replays (/ref).
// - measureInstructions(): in a workerd started under callgrind (wrapper() below, through
//   MINIFLARE_WORKERD_PATH) on the same seeded state, counting off until it is up: then, per
//   target, a few requests warm it and `callgrind_control -d` dumps the counters after each batch
//   of requests from one closed-loop client; a target's figure is the median of its batches (a
//   garbage collection now and then inflates one). Each endpoint is followed by its reference.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PRIMITIVES } from '../endpoints.mjs';
import { ROOT } from './serve.mjs';

const VALGRIND = process.env.BENCH_VALGRIND ?? 'valgrind';
const KEEP = process.env.BENCH_CG_KEEP;
if (KEEP) mkdirSync(KEEP, { recursive: true });
const CALLGRIND_CONTROL = process.env.BENCH_CALLGRIND_CONTROL ?? 'callgrind_control';

/** True when valgrind and callgrind_control run on this machine. */
export function callgrindAvailable() {
  try {
    execFileSync(VALGRIND, ['--version'], { stdio: 'ignore' });
    execFileSync(CALLGRIND_CONTROL, ['-h'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * A script Miniflare runs instead of workerd: the real workerd under callgrind, counting nothing
 * until told to (`--instr-atstart=no`: start-up runs about 3 times faster), without
 * per-instruction or per-line detail (a dump is then small and quick).
 */
export function wrapper(dir) {
  mkdirSync(dir, { recursive: true });
  for (const f of readdirSync(dir)) if (f.startsWith('cg.')) rmSync(path.join(dir, f), { force: true });
  const workerd = createRequire(path.join(ROOT, 'package.json')).resolve('workerd/bin/workerd');
  const file = path.join(dir, 'workerd-callgrind.sh');
  writeFileSync(
    file,
    `#!/bin/sh\nexec ${VALGRIND} --tool=callgrind --callgrind-out-file=${dir}/cg.%p.out --instr-atstart=no --dump-instr=no --dump-line=no --compress-pos=yes ${workerd} "$@"\n`,
  );
  chmodSync(file, 0o755);
  return file;
}

function control(pid, ...args) {
  execFileSync(CALLGRIND_CONTROL, [...args, String(pid)], { stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
}

/**
 * Dumps the counters and returns the instructions since the previous dump (the dump file is removed,
 * or, with BENCH_CG_KEEP=<directory>, moved there as `<keepAs>.out` for callgrind_annotate).
 */
async function dump(pid, dir, keepAs) {
  const before = new Set(readdirSync(dir));
  control(pid, '-d');
  for (let attempt = 0; attempt < 50; attempt++) {
    const fresh = readdirSync(dir).filter((f) => f.startsWith(`cg.${pid}.out.`) && !before.has(f));
    for (const f of fresh) {
      const text = readFileSync(path.join(dir, f), 'utf8');
      const m = text.match(/^totals:\s*(\d+)/m) ?? (text.includes('\ntotals:') ? null : undefined);
      if (m) {
        if (KEEP && keepAs) renameSync(path.join(dir, f), path.join(KEEP, `${keepAs.replace(/[^\w.-]+/g, '_')}.out`));
        else rmSync(path.join(dir, f), { force: true });
        return Number(m[1]);
      }
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('callgrind dump not found');
}

// ---------------------------------------------------------------------------------------------
// Requests from one closed-loop client

const clientIp = (i) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

async function send(origin, r, i) {
  const headers = { 'CF-Connecting-IP': clientIp(i), ...(r.headers ?? {}) };
  const body = r.body === undefined ? undefined : typeof r.body === 'string' ? r.body : JSON.stringify(r.body);
  if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['Content-Type'] = 'application/json';
  const res = await fetch(new URL(r.path, origin), { method: r.method, headers, body, signal: AbortSignal.timeout(120_000) });
  await res.arrayBuffer();
  return res;
}

/** `n` requests in sequence; the D1 figures of the successful ones from the x-d1-* headers. */
async function closedLoop(target, ctx, start, n, sink) {
  for (let k = 0; k < n; k++) {
    const i = start + k;
    const res = await send(target.origin, target.request(ctx, i), i);
    if (!sink) continue;
    sink.statuses[res.status] = (sink.statuses[res.status] ?? 0) + 1;
    const trips = res.headers.get('x-d1-round-trips');
    if (trips !== null && res.status < 400) {
      sink.roundTrips.push(Number(trips));
      sink.rowsRead.push(Number(res.headers.get('x-d1-rows-read') ?? 0));
      sink.rowsWritten.push(Number(res.headers.get('x-d1-rows-written') ?? 0));
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Capture (ordinary workerd)

const D1_PRIMITIVES = new Set(['d1_read', 'd1_page', 'd1_batch']);
/** Reservations the Durable Object targets use (their objects woken first, kept awake by the batches). */
const FEW = 20;

/**
 * The Durable Object targets' reservations: twenty of their own each (the first target the first
 * twenty, the next the twenty after), in the capture as in the count. Sharing them, the second
 * messages target met the first one's rate limit (30 messages a minute per user and conversation)
 * in the same minute.
 */
function fewFor(endpoints, ctx) {
  const windows = new Map(endpoints.filter((e) => e.prepare && !e.singleUse).map((e, k) => [e.name, k]));
  return (e) => ctx.inTransitReservations.slice(FEW * windows.get(e.name), FEW * (windows.get(e.name) + 1));
}
const CAPTURE_START = 900_000;

/**
 * Sends `perEndpoint` requests of each endpoint through the capture worker and returns, per
 * endpoint name, the D1 round trips of each request that got an expected status.
 */
export async function captureFixtures({ endpoints, ctx, captureUrl, perEndpoint, log }) {
  const api = (p, init) => fetch(new URL(p, captureUrl), init);
  const fixtures = {};
  const indices = {};
  const notes = {};
  const few = fewFor(endpoints, ctx);
  for (const e of endpoints) {
    let c = ctx;
    if (e.prepare && !e.singleUse) {
      // The capture worker's own objects (and sockets) for the few reservations the requests use.
      c = { ...ctx, inTransitReservations: few(e) };
      await e.prepare(c, api, 1, captureUrl);
    } else if (e.prepare) {
      // Single-use inputs for the capture from a slice of their own (after the measured rounds').
      const prepared = await e.prepare({ ...ctx, confirmedReservations: ctx.captureReservations ?? [], poolSize: perEndpoint }, api, 1, captureUrl);
      c = { ...ctx, prepared };
      if (prepared.pool && !prepared.pool.length) {
        notes[e.name] = 'no inputs to capture';
        continue;
      }
    }
    await api('/__capture');
    for (let k = 0; k < perEndpoint; k++) {
      const i = CAPTURE_START + k;
      await send(captureUrl, e.request(c, i), i);
    }
    const captured = await (await api('/__capture')).json();
    const ok = captured.map((x, k) => ({ ...x, i: CAPTURE_START + k })).filter((x) => (e.expect ?? [200]).includes(x.status));
    fixtures[e.name] = ok.map((x) => x.roundTrips);
    // The generator indices of the captured requests: the count sends the endpoint these same
    // inputs, request k of both the endpoint and its reference being capture k % n.
    indices[e.name] = ok.map((x) => x.i);
    if (!ok.length) notes[e.name] = `capture got no expected status (${captured.map((x) => x.status).join(', ')})`;
  }
  return { fixtures, indices, notes };
}

// ---------------------------------------------------------------------------------------------
// Counting (workerd under callgrind)

const median = (xs) => {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : null;
};
const spread = (xs) => (xs.length ? { min: Math.min(...xs), max: Math.max(...xs), mean: xs.reduce((a, b) => a + b, 0) / xs.length, n: xs.length } : null);

export const referenceName = (e) => `ref: ${e.name}`;

/** The reference target of an endpoint: its captured statements and its other primitives, on the primitives worker. */
export function referenceOf(e, ctx) {
  const others = e.primitives.filter((p) => !D1_PRIMITIVES.has(p));
  const write = e.request({ ...ctx, prepared: { pool: [{ payload: '' }] } }, 0).method !== 'GET';
  return {
    name: referenceName(e),
    request: (_ctx, i) => ({ method: 'GET', path: `/ref?e=${encodeURIComponent(e.name)}&i=${i}&p=${others.join(',')}&w=${write ? 1 : 0}` }),
  };
}

/**
 * Instructions per request of the bare route, every endpoint and every endpoint's reference.
 * `settings`: { warm, batches, batchSize }.
 */
export async function measureInstructions({ service, dir, endpoints, ctx, fixtures, indices = {}, settings, log }) {
  const { workerdPid: pid } = service;
  const api = (p, init) => fetch(new URL(p, service.apiUrl), init);
  await fetch(new URL('/__ref/load', service.primitivesUrl), { method: 'POST', body: JSON.stringify(fixtures) }).then((r) => r.arrayBuffer());
  const bare = { name: 'bare', origin: service.primitivesUrl, request: () => ({ method: PRIMITIVES.bare.method, path: PRIMITIVES.bare.path }) };
  const targets = [bare];
  for (const e of endpoints) {
    if (e.notCounted) continue;
    // Same inputs as the reference (the captured requests'), except single-use ones and those a
    // per-user rate limit would refuse when repeated (spreadInputs: every reservation of its window).
    const same = !e.singleUse && !e.spreadInputs && indices[e.name]?.length ? indices[e.name] : null;
    targets.push({ name: e.name, e, origin: service.apiUrl, request: same ? (c, k) => e.request(c, same[k % same.length]) : e.request });
    if (e.primitives.length && fixtures[e.name]?.length) targets.push({ ...referenceOf(e, ctx), of: e.name, origin: service.primitivesUrl });
  }
  // Inputs. Single-use ones (deposit payloads) are fetched per batch, just before it (they expire),
  // from reservations of their own. The targets that call one object per reservation (tracking,
  // messages) use 10 reservations, woken before the target: their objects stay awake through its
  // batches, as during an exchange (workerd evicts an object after 10 s without a call).
  // Each target counts its requests from 0: an endpoint and its reference send the same sequence.
  let next = 0;
  let used = 0;
  const few = fewFor(endpoints, ctx);
  const ctxOf = (t) => (t.e?.prepare && !t.e.singleUse ? { ...ctx, inTransitReservations: few(t.e) } : ctx);
  const inputs = async (t, n) => {
    if (!t.e?.singleUse) return ctxOf(t);
    // A tenth more than needed: a few seeded reservations give no payload (their deposit is refused).
    const want = n + Math.ceil(n / 10);
    const slice = ctx.instructionReservations.slice(used, used + want);
    used += want;
    const prepared = await t.e.prepare({ ...ctx, confirmedReservations: slice, poolSize: want }, api, 1, service.apiUrl);
    if (prepared.pool.length < n) throw new Error(`${t.name}: only ${prepared.pool.length} inputs for ${n} requests (seed more CONFIRMED reservations)`);
    return { ...ctx, prepared: { ...prepared, pool: prepared.pool.slice(0, n) } };
  };
  const wake = async (t) => {
    if (t.e?.prepare && !t.e.singleUse) await t.e.prepare(ctxOf(t), api, 1, service.apiUrl);
  };
  const run = async (t, n, sink) => {
    const c = await inputs(t, n);
    const start = c.prepared?.pool ? 0 : next;
    if (!c.prepared?.pool) next += n;
    await closedLoop(t, c, start, n, sink);
  };

  // Counting goes on once (switching it flushes valgrind's translations): each target is then warmed
  // right before its batches, which also keeps its Durable Objects awake through them.
  control(pid, '-i', 'on');
  const results = new Map();
  for (const t of targets) {
    const t0 = Date.now();
    next = 0;
    await wake(t);
    await run(t, settings.warm);
    const sink = { statuses: {}, roundTrips: [], rowsRead: [], rowsWritten: [] };
    const perBatch = [];
    await dump(pid, dir); // everything before the first batch is not counted
    for (let b = 0; b < settings.batches; b++) {
      const c = await inputs(t, settings.batchSize);
      if (t.e?.singleUse) await dump(pid, dir); // preparing the batch's inputs is not counted
      const start = c.prepared?.pool ? 0 : next;
      if (!c.prepared?.pool) next += settings.batchSize;
      await closedLoop(t, c, start, settings.batchSize, sink);
      perBatch.push((await dump(pid, dir, `${t.name}.${b}`)) / settings.batchSize);
    }
    const r = { name: t.name, of: t.of, instructions: median(perBatch), batches: perBatch, ...sink, roundTrips: spread(sink.roundTrips), rowsRead: spread(sink.rowsRead), rowsWritten: spread(sink.rowsWritten) };
    results.set(t.name, r);
    log(`callgrind ${t.name.padEnd(56)} ${(r.instructions / 1e6).toFixed(2).padStart(7)} M instr/req (batches ${perBatch.map((x) => (x / 1e6).toFixed(2)).join(', ')}) in ${((Date.now() - t0) / 1000).toFixed(0)} s, statuses ${JSON.stringify(sink.statuses)}`);
  }
  control(pid, '-i', 'off');
  return results;
}

export function cleanupDumps(dir) {
  if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
}
