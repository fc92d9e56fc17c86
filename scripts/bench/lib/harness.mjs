// Shared by run.mjs and profile.mjs: the load process (scripts/bench/load.mjs, one job per line)
// and the request context (tokens minted with the JWT_KEYS the served worker verifies with).
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { unstable_readConfig } from 'wrangler';
import { signToken } from '../../../src/lib/jwt.ts';
import { BENCH_JWT_KEYS, ROOT, onCleanup } from './serve.mjs';

// ---------------------------------------------------------------------------------------------
// The load process

export function startLoadProcess() {
  const ticks = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;
  const child = spawn(process.execPath, [path.join(ROOT, 'scripts/bench/load.mjs')], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, CLK_TCK: String(ticks) },
  });
  onCleanup(() => {
    if (child.exitCode === null && child.signalCode === null) process.kill(child.pid, 'SIGKILL');
  });
  const waiting = new Map();
  let next = 0;
  createInterface({ input: child.stdout }).on('line', (line) => {
    const msg = JSON.parse(line);
    waiting.get(msg.id)?.(msg);
    waiting.delete(msg.id);
  });
  child.on('exit', (code) => {
    for (const resolve of waiting.values()) resolve({ error: `load process exited (${code})` });
  });
  return {
    pid: child.pid,
    run(job) {
      const id = ++next;
      return new Promise((resolve) => {
        waiting.set(id, resolve);
        child.stdin.write(`${JSON.stringify({ id, ...job })}\n`);
      });
    },
    stop() {
      child.stdin.end();
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Context: tokens minted with the same JWT_KEYS the served worker verifies with

/** Tokens and inputs the request generators of endpoints.mjs read; `seconds` sizes the single-use pools. */
export async function buildContext(dataset, db, roundCount, seconds, extraConfirmed = 0) {
  const cfg = unstable_readConfig({ config: path.join(ROOT, 'wrangler.toml') }, { hideWarnings: true });
  const jwt = { JWT_KEYS: BENCH_JWT_KEYS, JWT_ISSUER: cfg.vars.JWT_ISSUER, JWT_AUDIENCE: cfg.vars.JWT_AUDIENCE };
  const cache = new Map();
  // Minted for the whole run, not the app's 15 minutes: a size's wall-clock rounds and callgrind
  // phase together outlast an access token, and a 401 batch would be counted as the endpoint's.
  const BENCH_TOKEN_TTL_SECONDS = 4 * 3600;
  const token = async (userId, roles = userId <= dataset.carriers ? ['ROLE_CLIENT', 'ROLE_VERIFIED_USER'] : ['ROLE_CLIENT']) => {
    if (!cache.has(userId)) cache.set(userId, (await signToken(jwt, { sub: String(userId), typ: 'access', roles }, BENCH_TOKEN_TTL_SECONDS)).token);
    return cache.get(userId);
  };
  const withTokens = async (ids, cap = 300) =>
    Promise.all(
      ids
        .filter((id) => dataset.parties[id])
        .slice(0, cap)
        .map(async (id) => {
          const [senderId, carrierId] = dataset.parties[id];
          return { id, senderId, carrierId, senderToken: await token(senderId), carrierToken: await token(carrierId) };
        }),
    );
  const spread = (n, max, offset = 0) => Array.from({ length: n }, (_, k) => offset + 1 + ((k * 7919) % max));
  const s = dataset.reservationsByStatus;
  return {
    password: dataset.password,
    userCount: dataset.userCount,
    carriers: dataset.carriers,
    // Single-use inputs (deposit QR payloads) per round: enough for a run at ~100 req/s.
    poolSize: Math.max(150, Math.round(seconds * 250)),
    routes: dataset.routes,
    // Default categories come from migration 0004; any allowed one will do.
    categoryId: await db.prepare("SELECT id FROM categories WHERE code = 'BOOKS'").first('id'),
    openAnnouncements: dataset.openAnnouncements,
    carrierTokens: await Promise.all(spread(200, dataset.carriers).map(async (id) => ({ id, token: await token(id) }))),
    senderTokens: await Promise.all(spread(200, dataset.userCount - dataset.carriers, dataset.carriers).map(async (id) => ({ id, token: await token(id) }))),
    userTokens: await Promise.all(spread(300, dataset.userCount).map(async (id) => ({ id, token: await token(id) }))),
    reservations: await withTokens(Object.keys(dataset.parties).map(Number).filter((_, k) => k % 13 === 0)),
    // The throughput rounds' slices first, then `extraConfirmed` more (the instruction count's).
    confirmedReservations: await withTokens(s.CONFIRMED ?? [], Math.max(150, Math.round(seconds * 250)) * roundCount + extraConfirmed),
    // Tracking ingest in its steady state: the parcel is on its way (the first point's transition is a one-off).
    inTransitReservations: await withTokens(s.IN_TRANSIT ?? []),
  };
}

