// The load generator: a second process on loopback, started by the harness, taking one job per
// line on stdin and answering one JSON line per job on stdout.
//   throughput: autocannon, bounded in time (and in requests for single-use inputs); workerd CPU
//               time from /proc/<pid>/stat is read right before and after, so CPU per request
//               covers exactly this run.
//   latency:    a one-connection closed loop timed with process.hrtime (autocannon rounds to ms);
//               also collects the D1 round trips and rows read / written the app reports per
//               request in its x-d1-* headers (outside production).
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { findDefinition } from './endpoints.mjs';

let ctx = {};

function cpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / Number(process.env.CLK_TCK || 100);
}

/** Each request from its own client address, as many phones at the edge would be: the service rate-limits per IP. */
const clientIp = (i) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

function materialise(def, i) {
  const r = def.request(ctx, i);
  const headers = { 'CF-Connecting-IP': clientIp(i), ...(r.headers ?? {}) };
  const body = r.body === undefined ? undefined : typeof r.body === 'string' ? r.body : JSON.stringify(r.body);
  if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['Content-Type'] = 'application/json';
  return { method: r.method, path: r.path, headers, body };
}

function throughput(job) {
  const def = findDefinition(job.kind, job.name);
  let i = job.startIndex ?? 0;
  return new Promise((resolve, reject) => {
    const cpuBefore = cpuMs(job.workerdPid);
    const started = process.hrtime.bigint();
    const instance = autocannon(
      {
        url: job.origin,
        connections: job.connections,
        duration: job.seconds,
        // autocannon checks its stop flag once per sample interval (1 s by default), which rounds
        // every run up to whole seconds; sampling every 100 ms keeps runs to their set duration.
        sampleInt: 100,
        ...(job.amount ? { amount: job.amount } : {}),
        timeout: 10,
        requests: [
          {
            setupRequest: (req) => {
              const r = materialise(def, i++);
              return { ...req, method: r.method, path: r.path, headers: r.headers, body: r.body };
            },
          },
        ],
      },
      (err, result) => {
        clearTimeout(guard);
        if (err) return reject(err);
        const elapsedS = Number(process.hrtime.bigint() - started) / 1e9;
        const cpu = cpuMs(job.workerdPid) - cpuBefore;
        const statusCounts = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([s, v]) => [s, Number(v.count)]));
        const completed = Object.values(statusCounts).reduce((a, b) => a + b, 0);
        const ok = Object.entries(statusCounts)
          .filter(([s]) => (job.expect ?? [200]).includes(Number(s)))
          .reduce((a, [, n]) => a + n, 0);
        resolve({
          completed,
          ok,
          statusCounts,
          errors: result.errors,
          timeouts: result.timeouts,
          seconds: elapsedS,
          rps: completed / elapsedS,
          cpuMs: cpu,
          cpuMsPerRequest: completed ? cpu / completed : null,
        });
      },
    );
    // Time bound even when a request budget (`amount`) is set.
    const guard = setTimeout(() => instance.stop(), (job.seconds + 5) * 1000);
  });
}

/** min, max, mean and count of per-request figures (null when there are none). */
const spread = (xs) =>
  xs.length ? { min: Math.min(...xs), max: Math.max(...xs), mean: xs.reduce((a, b) => a + b, 0) / xs.length, n: xs.length } : null;

async function latency(job) {
  const def = findDefinition(job.kind, job.name);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const origin = new URL(job.origin);
  const samples = [];
  const statusCounts = {};
  const roundTrips = [];
  const rowsRead = [];
  const rowsWritten = [];
  const now = process.hrtime.bigint();
  const deadline = now + BigInt(Math.round(job.seconds * 1e9));
  // minRequests: carry on past `seconds` until that many requests (the D1 figures want enough
  // inputs even when the machine is slow), but never past maxSeconds.
  const hardDeadline = now + BigInt(Math.round((job.maxSeconds ?? job.seconds) * 1e9));
  let i = job.startIndex ?? 0;
  const limit = job.maxRequests ?? Infinity;
  const enough = () => process.hrtime.bigint() >= deadline && samples.length >= (job.minRequests ?? 0);
  while (!enough() && process.hrtime.bigint() < hardDeadline && samples.length < limit) {
    const r = materialise(def, i++);
    const t0 = process.hrtime.bigint();
    const status = await new Promise((resolve, reject) => {
      const req = http.request(
        { host: origin.hostname, port: origin.port, method: r.method, path: r.path, headers: r.headers, agent },
        (res) => {
          // D1 round trips and rows of this request, as the app reports them outside production.
          const trips = res.headers['x-d1-round-trips'];
          if (trips !== undefined && res.statusCode < 400) {
            roundTrips.push(Number(trips));
            if (res.headers['x-d1-rows-read'] !== undefined) rowsRead.push(Number(res.headers['x-d1-rows-read']));
            if (res.headers['x-d1-rows-written'] !== undefined) rowsWritten.push(Number(res.headers['x-d1-rows-written']));
          }
          res.resume();
          res.on('end', () => resolve(res.statusCode));
        },
      );
      req.on('error', reject);
      req.setTimeout(10_000, () => req.destroy(new Error('timeout')));
      if (r.body !== undefined) req.write(r.body);
      req.end();
    });
    samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
    statusCounts[status] = (statusCounts[status] ?? 0) + 1;
  }
  agent.destroy();
  samples.sort((a, b) => a - b);
  const at = (q) => (samples.length ? samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] : null);
  return {
    n: samples.length,
    p50: at(0.5),
    p99: at(0.99),
    mean: samples.reduce((a, b) => a + b, 0) / (samples.length || 1),
    statusCounts,
    roundTrips: spread(roundTrips),
    rowsRead: spread(rowsRead),
    rowsWritten: spread(rowsWritten),
  };
}

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (!line.trim()) continue;
  const job = JSON.parse(line);
  let result;
  try {
    if (job.type === 'context') {
      ctx = job.ctx;
      result = { ok: true };
    } else if (job.type === 'throughput') result = await throughput(job);
    else if (job.type === 'latency') result = await latency(job);
    else throw new Error(`unknown job ${job.type}`);
  } catch (err) {
    result = { error: String(err?.stack ?? err) };
  }
  process.stdout.write(`${JSON.stringify({ id: job.id, ...result })}\n`);
}
