// `npm run soak`: a mixed workload by concurrent simulated users against the local service
// (served as `npm run bench` serves it), then invariant checks through SQL on its D1. Prints one
// summary line; exits non-zero on any violation.
//
// Settings (environment): SOAK_SECONDS (60), SOAK_USERS (50), SOAK_SCALE (data set, 0.2),
// SOAK_DELIVERY_WAIT_SECONDS (how long the DELIVERIES queue's consumer may take, after the load,
// to take every delivery out of QUEUED; 120), SOAK_OUT (report, docs/BENCHMARKS.md),
// SOAK_INJECT_VIOLATION=1 (self-test: must exit 1), SOAK_FAULT=1 (the fault drill, scripts/soak/fault.mjs:
// workerd killed halfway through the load and restarted on the same state; its own section of
// docs/BENCHMARKS.md).
//
// The delivery pipeline runs as in production: every notification of the money flow writes its
// e-mail row in the batch of the change, the queue's consumer (in the same workerd) sends it
// through the sandbox; at the end every row must have left QUEUED and none been sent twice.
//
// Failures: any 5xx or network error, an error body that is not the specification's, a 2xx API
// answer that is not JSON, a route the build does not have (404/405 ENDPOINT_NOT_FOUND), a
// violated invariant (scripts/soak/checks.mjs; a table it needs that is absent counts as
// violated), a flow problem (scripts/soak/actions.mjs), or a money flow that did not happen
// (no booking paid, deposited, delivered, or no withdrawal).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { unstable_readConfig } from 'wrangler';
import { ACCESS_TOKEN_TTL_SECONDS, signToken } from '../../src/lib/jwt.ts';
import { responseProblems } from '../../test/helpers/openapi-fuzz.ts';
import { BENCH_JWT_KEYS, ROOT, buildBundles, cleanupAll, hardDeadline, startService } from '../bench/lib/serve.mjs';
import { insertRows, seed, sqlBatcher } from '../bench/lib/seed.mjs';
import { ACTIONS } from './actions.mjs';
import { compared, DELIVERY_CHECKS, runChecks } from './checks.mjs';
import { answeredFound, deliveriesExactlyOnce, faultLog, faultState, killAndRestart, observe, reconcileAcrossKill, recoverDeliveries } from './fault.mjs';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 60);
const USERS = Number(process.env.SOAK_USERS ?? 50);
const SCALE = Number(process.env.SOAK_SCALE ?? 0.2);
const DELIVERY_WAIT_SECONDS = Number(process.env.SOAK_DELIVERY_WAIT_SECONDS ?? 120);
const fault = process.env.SOAK_FAULT === '1' ? faultState() : null;
hardDeadline(SECONDS + DELIVERY_WAIT_SECONDS + (fault ? 420 : 180), 'npm run soak');

const HOT_TRIPS = 3;
const HOT_CAPACITY_G = 5_000;
const ROOMY_CAPACITY_G = 200_000;

/**
 * Payouts wait for the 72 h dispute window (CONTRACT section 19); a soak lasts a minute. Every
 * WINDOW_TICK_MS the held shares are made due (their release_after moved to now) and the worker's
 * cron runs, as production runs it every 5 minutes: the shares become available and carriers can
 * withdraw them. A cron that cannot be fired is a flow problem, never a silent skip.
 */
const WINDOW_TICK_MS = 10_000;
async function windowCloses(current, deadline, problems) {
  while (Date.now() + WINDOW_TICK_MS < deadline) {
    await new Promise((r) => setTimeout(r, WINDOW_TICK_MS));
    if (fault?.outage) await fault.outage;
    const service = current();
    try {
      await service.db.prepare('UPDATE payout_holds SET release_after = ? WHERE released_at IS NULL').bind(new Date().toISOString()).run();
      const worker = await service.mf.getWorker('api');
      await worker.scheduled({ scheduledTime: new Date(), cron: '*/5 * * * *' });
    } catch (err) {
      // The fault drill's kill can cut a run in flight: the next tick runs on the restarted service.
      if (fault?.killedAt) continue;
      problems.push(`window closes: the cron could not run (${String(err?.message ?? err).slice(0, 200)})`);
      return;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Requests

const stats = { requests: 0, statuses: {}, serverErrors: [], invalidBodies: [], missingRoutes: new Set(), byAction: {} };
let SPEC_CODES = [];
let BASE;

async function send(user, req) {
  const headers = {
    // A client address per request, as many phones at the edge: the per-IP rate limits are not what the soak measures.
    'CF-Connecting-IP': `10.${(Math.random() * 256) | 0}.${(Math.random() * 256) | 0}.${(Math.random() * 256) | 0}`,
    ...(req.body ? { 'Content-Type': 'application/json' } : {}),
    ...(user?.token ? { Authorization: `Bearer ${user.token}` } : {}),
  };
  // Never follow a redirect: the sandbox pages redirect to PUBLIC_BASE_URL, which is not this service.
  const res = await fetch(new URL(req.path, BASE), { method: req.method, headers, body: req.body ? JSON.stringify(req.body) : undefined, redirect: 'manual' });
  const text = await res.text();
  let body = text;
  let json = false;
  try {
    body = text ? JSON.parse(text) : undefined;
    json = true;
  } catch {
    // left as text: checked in record()
  }
  return { status: res.status, contentType: res.headers.get('content-type'), body, json };
}

function record(name, req, res) {
  stats.requests += 1;
  stats.statuses[res.status] = (stats.statuses[res.status] ?? 0) + 1;
  const a = (stats.byAction[name] ??= { requests: 0, statuses: {} });
  a.requests += 1;
  // Per action, errors also by their code (a 409 from a lost race and a 409 from a bug look alike otherwise).
  const key = res.status >= 400 && typeof res.body?.errorCode === 'string' ? `${res.status} ${res.body.errorCode}` : String(res.status);
  a.statuses[key] = (a.statuses[key] ?? 0) + 1;
  const pathname = new URL(req.path, 'http://x').pathname;
  if (res.status >= 500) stats.serverErrors.push(`${req.method} ${req.path} -> ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
  if ((res.status === 404 || res.status === 405) && res.body?.errorCode === 'ENDPOINT_NOT_FOUND') stats.missingRoutes.add(`${name}: ${req.method} ${pathname}`);
  if (res.status >= 400) {
    // Every status is acceptable here; the body must be the specification's error body.
    const problems = responseProblems(res, pathname, new Set([res.status]), SPEC_CODES).filter((p) => !p.startsWith('server error'));
    if (problems.length) stats.invalidBodies.push(`${req.method} ${req.path} -> ${res.status}: ${problems.join('; ')}`);
  } else if (res.status < 300 && res.status !== 204 && pathname.startsWith('/v1/api/')) {
    if (!res.contentType?.includes('application/json') || !res.json || typeof res.body !== 'object' || res.body === null) {
      stats.invalidBodies.push(`${req.method} ${req.path} -> ${res.status}: not a JSON body (${res.contentType})`);
    }
  }
}

/** Sends and records one request; a network error is recorded as a server error (status 0). */
async function call(name, user, req) {
  // The fault drill: calls wait while the service is down; one the kill cut is not a server error.
  if (fault?.outage) await fault.outage;
  const startedAt = Date.now();
  try {
    const res = await send(user, req);
    record(name, req, res);
    observe(fault, name, req, res, startedAt);
    return res;
  } catch (err) {
    if (!observe(fault, name, req, null, startedAt)) stats.serverErrors.push(`${req.method} ${req.path} -> network error ${err.message}`);
    return { status: 0, body: undefined };
  }
}

// ---------------------------------------------------------------------------------------------

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const eur = (c) => (c / 100).toFixed(2);
const day = (offset) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

const PARIS_DAKAR = { from: ['Paris', 'FR'], to: ['Dakar', 'SN'], currency: 'EUR' };
/** The corridor in CFA francs (CONTRACT section 20): prices in whole francs, paid with Wave. */
const DAKAR_ABIDJAN = { from: ['Dakar', 'SN'], to: ['Abidjan', 'CI'], currency: 'XOF' };

/**
 * Trips the soak adds on one route: `[carrierId, capacityG, pricePerKg in minor units]` rows, tagged
 * so their ids can be read back (with the route's currency and arrival city, which bookings need).
 */
async function addTrips(exec, db, tag, trips, route = PARIS_DAKAR) {
  const [fromCity, fromCountry] = route.from;
  const [toCity, toCountry] = route.to;
  const rows = trips.map(([carrierId, capacityG, price]) => [carrierId, fromCity, fromCountry, toCity, toCountry, fromCity.toLowerCase(), toCity.toLowerCase(), day(5), day(6), capacityG, price, route.currency, 'PLANE', tag]);
  const columns = ['carrier_id', 'departure_city', 'departure_country', 'arrival_city', 'arrival_country', 'departure_city_key', 'arrival_city_key', 'departure_date', 'arrival_date', 'total_weight_g', 'price_per_kg_cents', 'currency', 'transport_mode', 'description'];
  await insertRows(exec, 'announcements', columns, rows);
  const found = await db.prepare('SELECT id, carrier_id AS carrierId, currency, arrival_city AS arrivalCity FROM announcements WHERE description = ? ORDER BY id').bind(tag).all();
  return found.results;
}

/**
 * Every conversation read back through the API, oldest first: each message answered 201 is there
 * exactly once, ids strictly increase, and nothing else is there (no message lost or duplicated).
 */
async function conversationsIntact(chats, byId) {
  const wrong = [];
  let unanswered = 0;
  for (const chat of chats.filter((c) => c.sent.length > 0)) {
    const reader = [...byId.values()].find((u) => u.chats.includes(chat));
    const seen = [];
    for (let page = 0; ; page++) {
      const res = await call('chat: read back (final)', reader, { method: 'GET', path: `/v1/api/bookings/${chat.id}/messages?sort=id,asc&size=100&page=${page}` });
      if (res.status !== 200) {
        wrong.push(`reservation ${chat.id}: read back answered ${res.status}`);
        break;
      }
      seen.push(...res.body.content);
      if (page + 1 >= res.body.page.totalPages) break;
    }
    const ids = seen.map((m) => m.id);
    const increasing = ids.every((id, k) => k === 0 || id > ids[k - 1]);
    const expected = chat.sent.map((m) => `${m.id}:${m.body}`).sort();
    const found = seen.map((m) => `${m.id}:${m.body}`).sort();
    // The fault drill: a post the kill cut may have been stored without its 201 (counted below).
    const missing = expected.filter((m) => !found.includes(m)).length;
    const extra = found.length - (expected.length - missing);
    const duplicated = new Set(found).size !== found.length || new Set(expected).size !== expected.length;
    if (!increasing || duplicated || missing > 0 || (extra > 0 && !fault)) {
      wrong.push(`reservation ${chat.id}: sent ${chat.sent.length}, read back ${seen.length}${increasing ? '' : ' (ids out of order)'}`);
    }
    unanswered += extra;
  }
  const cutPosts = fault ? fault.cut.filter((c) => c.name === 'chat: post a message').length : 0;
  if (fault && unanswered > cutPosts) wrong.push(`${unanswered} messages read back without a 201, more than the ${cutPosts} posts the kill cut`);
  const checked = chats.filter((c) => c.sent.length > 0).length;
  return compared(`every message of the ${checked} conversations read back once, in order`, wrong.length === 0, wrong.slice(0, 5).join('; '));
}

/**
 * Waits, at most `seconds`, for the DELIVERIES consumer to take every row out of QUEUED (the load
 * has stopped; what it wrote is still being sent). Returns how long it took and what is left; the
 * checks then judge (a table that is absent is their violation to report).
 */
async function deliveriesSettled(db, seconds) {
  const started = Date.now();
  let queued = null;
  for (;;) {
    try {
      queued = await db.prepare("SELECT COUNT(*) AS n FROM deliveries WHERE status = 'QUEUED'").first('n');
    } catch {
      break;
    }
    if (queued === 0 || Date.now() - started >= seconds * 1000) break;
    await sleep(500);
  }
  return { queued, waitedSeconds: (Date.now() - started) / 1000 };
}

/**
 * Each carrier connects a payout account through the API and the sandbox onboarding page, and adds
 * a Wave wallet for its XOF payouts (a Senegalese number of its own; a carrier simulated twice gets
 * 409 the second time, the same number).
 */
async function onboard(u, problems) {
  const phone = `+22177${String(u.id).padStart(7, '0')}`;
  const wallet = await call('payout account: Wave wallet', u, { method: 'POST', path: '/v1/api/payout-accounts', body: { type: 'MOBILE_MONEY', provider: 'WAVE', phone, name: `Carrier ${u.id}` } });
  if (wallet.status !== 201 && wallet.status !== 409) problems.push(`Wave wallet of user ${u.id}: ${wallet.status} ${JSON.stringify(wallet.body).slice(0, 200)}`);
  const link = await call('payout onboarding', u, { method: 'POST', path: '/v1/api/pay-connect/onboarding' });
  const account = link.body?.connectedAccountId;
  if (link.status !== 200 || typeof account !== 'string') return problems.push(`payout onboarding of user ${u.id}: ${link.status} ${JSON.stringify(link.body).slice(0, 200)}`);
  await call('payout onboarding: sandbox "Complete" button', null, { method: 'POST', path: `/sandbox/connect/${encodeURIComponent(account)}/complete` });
  const status = await call('payout account status', u, { method: 'GET', path: '/v1/api/pay-connect/account-status' });
  if (status.body?.payoutsEnabled !== true) problems.push(`payout account of user ${u.id} not enabled after onboarding: ${JSON.stringify(status.body).slice(0, 200)}`);
}

async function userLoop(user, state, deadline) {
  const mine = ACTIONS.filter((a) => a.role === 'any' || a.role === user.role);
  const total = mine.reduce((n, a) => n + a.weight, 0);
  while (Date.now() < deadline) {
    let r = Math.random() * total;
    const action = mine.find((a) => (r -= a.weight) < 0) ?? mine[0];
    const did = await action.run(user, state, call);
    await sleep(did ? Math.random() * 20 : 1);
  }
}

async function main() {
  const started = Date.now();
  const bundles = buildBundles();
  let service = await startService({ stateName: 'soak', log: () => {}, bundles });
  const exec = sqlBatcher(service.primitivesUrl);
  const dataset = await seed(exec, { scale: SCALE, log: () => {} });
  BASE = service.apiUrl.origin;
  SPEC_CODES = (await (await fetch(new URL('/v1/api/openapi.json', BASE))).json()).components.schemas.ErrorResponse.properties.errorCode.enum;

  const cfg = unstable_readConfig({ config: path.join(ROOT, 'wrangler.toml') }, { hideWarnings: true });
  const jwt = { JWT_KEYS: BENCH_JWT_KEYS, JWT_ISSUER: cfg.vars.JWT_ISSUER, JWT_AUDIENCE: cfg.vars.JWT_AUDIENCE };
  const token = async (id, roles) => (await signToken(jwt, { sub: String(id), typ: 'access', roles }, ACCESS_TOKEN_TTL_SECONDS)).token;

  // Half carriers (the first of them own the hot trips), half senders.
  const users = [];
  for (let k = 0; k < USERS; k++) {
    const carrier = k % 2 === 0;
    const id = carrier ? 1 + ((k / 2) % dataset.carriers) : dataset.carriers + 1 + k;
    users.push({
      id,
      role: carrier ? 'carrier' : 'sender',
      token: await token(id, carrier ? ['ROLE_CLIENT', 'ROLE_VERIFIED_USER'] : ['ROLE_CLIENT']),
      // sender: own bookings by stage; carrier: hand-offs from senders, and the wallet it believes it has
      unpaid: [],
      paid: [],
      accepted: [],
      toAccept: [],
      toDeposit: [],
      toDeliver: [],
      // per currency, in minor units (XOF: francs)
      balance: { EUR: 0, XOF: 0 },
      // conversations this user takes part in (both parties hold the same object)
      chats: [],
    });
  }
  const carriers = users.filter((u) => u.role === 'carrier');
  const byId = new Map(users.map((u) => [u.id, u]));

  // A few small trips everyone books at once: the overbooking race. Roomy trips, one per carrier,
  // keep bookings going through once the hot ones are full, so the money flow has material.
  const hotTrips = await addTrips(exec, service.db, 'soak: hot trip', Array.from({ length: HOT_TRIPS }, (_, k) => [carriers[k % carriers.length].id, HOT_CAPACITY_G, 1000]));
  const roomyTrips = await addTrips(exec, service.db, 'soak: roomy trip', carriers.map((c, k) => [c.id, ROOMY_CAPACITY_G, 800 + 100 * (k % 8)]));
  // One roomy XOF trip per carrier too: a share of the bookings is in francs, paid with Wave.
  const xofTrips = await addTrips(exec, service.db, 'soak: XOF trip', carriers.map((c, k) => [c.id, ROOMY_CAPACITY_G, 2_000 + 250 * (k % 8)]), DAKAR_ABIDJAN);
  const categoryId = await service.db.prepare("SELECT id FROM categories WHERE code = 'CLOTHING'").first('id');
  const perCurrency = () => ({ EUR: 0, XOF: 0 });
  const flow = {
    messages: 0,
    booked: 0,
    paid: 0,
    paidBy: { CARD: 0, MOBILE_MONEY: 0 },
    accepted: 0,
    deposited: 0,
    delivered: 0,
    cancelled: 0,
    // per currency, amounts in minor units
    withdrawals: perCurrency(),
    withdrawn: perCurrency(),
    earned: perCurrency(),
  };
  const problems = [];
  const state = {
    categoryId,
    carrierCount: dataset.carriers,
    hotTrips,
    roomyTrips,
    xofTrips,
    flow,
    problems,
    carrier: (id) => byId.get(id),
    sender: (id) => byId.get(id),
    chats: [],
    chatSeq: 0,
  };

  await Promise.all(carriers.map((u) => onboard(u, problems)));

  const runStart = new Date().toISOString();
  const deadline = Date.now() + SECONDS * 1000;
  const restart = async () => {
    const next = await startService({ stateName: 'soak', keepState: true, log: () => {}, bundles, onLog: (entry) => faultLog(fault, entry) });
    BASE = next.apiUrl.origin;
    return next;
  };
  const drill = async () => {
    await sleep((SECONDS * 1000) / 2);
    service = await killAndRestart(fault, service, restart);
  };
  await Promise.all([...users.map((u) => userLoop(u, state, deadline)), windowCloses(() => service, deadline, problems), fault ? drill() : null]);

  // Each carrier reads its wallet once more: the API must answer what the ledger holds, per currency.
  const apiWallets = new Map();
  await Promise.all(
    carriers.map(async (u) => {
      const res = await call('wallet (final read)', u, { method: 'GET', path: '/v1/api/user/me/wallet' });
      for (const b of res.status === 200 ? res.body.balances : []) apiWallets.set(`${u.id}:${b.currency}`, Math.round(b.balance * (b.currency === 'XOF' ? 1 : 100)));
    }),
  );

  if (fault) {
    const fireCron = async () => (await service.mf.getWorker('api')).scheduled({ scheduledTime: new Date(), cron: '*/5 * * * *' });
    await recoverDeliveries(service.db, fault, fireCron, () => deliveriesSettled(service.db, DELIVERY_WAIT_SECONDS));
  }
  const settled = await deliveriesSettled(service.db, DELIVERY_WAIT_SECONDS);

  if (process.env.SOAK_INJECT_VIOLATION) {
    // Self-test of the checks: overbook one trip, move one ledger line by a cent and record one
    // e-mail as sent a second time, behind the API's back; the run must fail.
    await exec([
      { sql: 'UPDATE announcements SET reserved_weight_g = total_weight_g + 1 WHERE id = 1', params: [] },
      { sql: 'UPDATE ledger_lines SET amount_cents = amount_cents + 1 WHERE id = (SELECT MIN(id) FROM ledger_lines)', params: [] },
      {
        sql: `INSERT INTO outbox_messages (delivery_id, channel, "to", template, locale, subject, text, html, links, headers)
              SELECT delivery_id, channel, "to", template, locale, subject, text, html, links, headers FROM outbox_messages ORDER BY id LIMIT 1`,
        params: [],
      },
    ]);
  }
  const checks = await runChecks(service.db);
  checks.push(...(await runChecks(service.db, DELIVERY_CHECKS)));
  checks.push(await conversationsIntact(state.chats, byId));

  // What the database says happened, against what the API answered.
  const all = async (sql, ...params) => (await service.db.prepare(sql).bind(...params).all()).results;
  const entries = Object.fromEntries((await all('SELECT type, COUNT(*) AS n FROM ledger_entries GROUP BY type')).map((r) => [r.type, r.n]));
  // Per currency, never summed across currencies (CONTRACT section 20).
  const byCurrency = (rows) => ({ EUR: { n: 0, cents: 0 }, XOF: { n: 0, cents: 0 }, ...Object.fromEntries(rows.map((r) => [r.currency, r])) });
  const withdrawn = byCurrency(await all("SELECT currency, COUNT(*) AS n, COALESCE(SUM(amount_cents), 0) AS cents FROM withdrawals WHERE status != 'FAILED' GROUP BY currency"));
  // Delivered shares wait in HELD for the dispute window (CONTRACT section 19): wallets and held together.
  const wallets = byCurrency(await all("SELECT currency, COUNT(*) AS n, COALESCE(SUM(balance_cents), 0) AS cents FROM ledger_accounts WHERE kind IN ('WALLET', 'HELD') GROUP BY currency"));
  const ledgerWallets = new Map((await all("SELECT owner_id AS id, currency, balance_cents AS cents FROM ledger_accounts WHERE kind = 'WALLET' AND owner_type = 'USER'")).map((r) => [`${r.id}:${r.currency}`, r.cents]));
  const bookedByStatus = Object.fromEntries((await all('SELECT status, COUNT(*) AS n FROM reservations WHERE created_at >= ? GROUP BY status', runStart)).map((r) => [r.status, r.n]));
  const deliveriesByStatus = Object.fromEntries((await all('SELECT status, COUNT(*) AS n FROM deliveries GROUP BY status').catch(() => [])).map((r) => [r.status, r.n]));
  const deliveryFailures = await all("SELECT status, channel, last_error AS reason, COUNT(*) AS n FROM deliveries WHERE status IN ('FAILED', 'DEAD') GROUP BY 1, 2, 3 ORDER BY n DESC LIMIT 5").catch(() => []);
  // Every (carrier, currency) either side knows of: an API balance missing for a ledger wallet is a mismatch too.
  const walletKeys = [...new Set([...carriers.flatMap((u) => [`${u.id}:EUR`, `${u.id}:XOF`]), ...[...ledgerWallets.keys()].filter((k) => byId.get(Number(k.split(':')[0]))?.role === 'carrier')])];
  const walletMismatch = walletKeys.filter((k) => (apiWallets.get(k) ?? 0) !== (ledgerWallets.get(k) ?? 0)).map((k) => `user:currency ${k}: API ${apiWallets.get(k)} ledger ${ledgerWallets.get(k) ?? 0}`);
  // Across a kill, a request cut in flight may have committed without an answer (fault.mjs).
  const answersAgainstRows = fault
    ? [...(await reconcileAcrossKill(service.db, fault, flow)), await answeredFound(service.db, fault), await deliveriesExactlyOnce(service.db, fault)]
    : [
        compared('one escrow release per delivery answered 200', (entries.ESCROW_RELEASED ?? 0) === flow.delivered, `${entries.ESCROW_RELEASED ?? 0} ESCROW_RELEASED entries, ${flow.delivered} deliveries answered 200`),
        ...['EUR', 'XOF'].flatMap((cur) => [
          compared(
            `withdrawals answered 201 = withdrawal rows not failed (count and amount), ${cur}`,
            withdrawn[cur].n === flow.withdrawals[cur] && withdrawn[cur].cents === flow.withdrawn[cur],
            `rows ${withdrawn[cur].n} / ${withdrawn[cur].cents}, answered ${flow.withdrawals[cur]} / ${flow.withdrawn[cur]} (minor units)`,
          ),
          compared(
            `wallets and held shares hold what deliveries paid in minus what was withdrawn, ${cur}`,
            wallets[cur].cents === flow.earned[cur] - flow.withdrawn[cur],
            `wallets ${wallets[cur].cents}, delivered carrier amounts ${flow.earned[cur]} - withdrawn ${flow.withdrawn[cur]} (minor units)`,
          ),
        ]),
      ];
  checks.push(
    ...answersAgainstRows,
    compared('every carrier wallet read through the API = its ledger account', walletMismatch.length === 0, walletMismatch.slice(0, 5).join('; ')),
  );

  // A soak that silently does nothing is a failure: the money flow must have happened end to end.
  const flowMissing = [
    ['booking paid by card (Pay button)', flow.paidBy.CARD],
    ['booking paid by mobile money (Pay with Wave button)', flow.paidBy.MOBILE_MONEY],
    ['payment escrowed (ledger)', entries.PAYMENT_ESCROWED ?? 0],
    ['booking accepted', flow.accepted],
    ['parcel deposited', flow.deposited],
    ['parcel delivered', flow.delivered],
    ['withdrawal in EUR', flow.withdrawals.EUR],
    ['withdrawal in XOF (Wave payout)', flow.withdrawals.XOF],
    ['message in a conversation', flow.messages],
    ['delivery sent by the DELIVERIES queue', deliveriesByStatus.SENT ?? 0],
  ]
    .filter(([, n]) => n === 0)
    .map(([what]) => `no ${what}`);

  const violated = checks.filter((c) => c.outcome !== 'passed');
  const failed = violated.length > 0 || stats.serverErrors.length > 0 || stats.invalidBodies.length > 0 || stats.missingRoutes.size > 0 || problems.length > 0 || flowMissing.length > 0;
  for (const c of violated) console.error(`  ${c.outcome}: ${c.name}${c.detail ? ` (${c.detail})` : ''}`);
  for (const e of stats.serverErrors.slice(0, 10)) console.error(`  5xx: ${e}`);
  for (const e of stats.invalidBodies.slice(0, 10)) console.error(`  invalid body: ${e}`);
  for (const e of stats.missingRoutes) console.error(`  route not in this build: ${e}`);
  for (const e of problems.slice(0, 10)) console.error(`  flow problem: ${e}`);
  for (const e of flowMissing) console.error(`  flow did not happen: ${e}`);
  for (const [name, a] of Object.entries(stats.byAction)) console.error(`  ${name}: ${a.requests} requests ${JSON.stringify(a.statuses)}`);
  console.error(`  reservations booked during the run, by status now: ${JSON.stringify(bookedByStatus)}`);
  console.error(`  ledger entries by type: ${JSON.stringify(entries)}`);
  console.error(`  deliveries by status: ${JSON.stringify(deliveriesByStatus)}, QUEUED left ${settled.queued} after ${settled.waitedSeconds.toFixed(1)} s of waiting`);
  for (const f of deliveryFailures) console.error(`  deliveries ${f.status} on ${f.channel}: ${f.n} × ${f.reason}`);

  const flowText =
    `flow: ${flow.booked} booked, ${flow.paid} paid (${flow.paidBy.CARD} by card in EUR, ${flow.paidBy.MOBILE_MONEY} by mobile money in XOF), ${flow.accepted} accepted, ${flow.deposited} deposited, ${flow.delivered} delivered, ` +
    `${flow.cancelled} cancelled, ${flow.messages} messages, withdrawals ${flow.withdrawals.EUR} in EUR (${eur(flow.withdrawn.EUR)} EUR) and ${flow.withdrawals.XOF} in XOF (${flow.withdrawn.XOF} XOF), ` +
    `wallets and held shares hold ${eur(wallets.EUR.cents)} EUR and ${wallets.XOF.cents} XOF; ` +
    `deliveries ${Object.entries(deliveriesByStatus).map(([k, n]) => `${n} ${k}`).join(', ') || 'none'} (${settled.waitedSeconds.toFixed(0)} s for the queue to drain after the load)`;
  const summary =
    `soak ${failed ? 'FAILED' : 'OK'}: ${SECONDS} s, ${USERS} users, ${stats.requests} requests (${(stats.requests / SECONDS).toFixed(0)} req/s), ` +
    `statuses ${JSON.stringify(stats.statuses)}, ${stats.serverErrors.length} 5xx, ${stats.invalidBodies.length} invalid bodies, ` +
    `invariants ${checks.length - violated.length} passed / ${violated.length} violated; ${flowText}; ${((Date.now() - started) / 1000).toFixed(0)} s in all`;
  console.log(summary);
  const faultText = fault ? faultSummary(fault, started) : null;
  if (faultText) console.log(faultText);
  for (const e of fault?.errors ?? []) console.error(`  restarted worker logged: ${e}`);
  const mixText =
    `Mixed EUR card / XOF mobile money: of the ${flow.paid} bookings paid, ${flow.paidBy.CARD} were in EUR by card (Stripe sandbox) and ${flow.paidBy.MOBILE_MONEY} in XOF by mobile money (Wave sandbox); ` +
    `${flow.withdrawals.XOF} Wave payouts (${flow.withdrawn.XOF} XOF) beside ${flow.withdrawals.EUR} EUR withdrawals (${eur(flow.withdrawn.EUR)} EUR); ` +
    `the money invariants below are checked per currency (${violated.length === 0 ? 'all held' : `${violated.length} violated`}).`;
  writeSoakSection({
    mixText,
    summary,
    checks,
    flowText,
    bookedByStatus,
    entries,
    failures: [...stats.missingRoutes, ...problems, ...flowMissing, ...deliveryFailures.map((f) => `deliveries ${f.status} on ${f.channel}: ${f.n} × ${f.reason}`)],
    faultText,
  });
  return failed ? 1 : 0;
}

const SOAK_HEADING = '## Soak (npm run soak)';
const FAULT_HEADING = '## Soak fault drill (SOAK_FAULT=1 npm run soak)';

/** What the kill did and what came back (SOAK_FAULT=1). */
function faultSummary(f, started) {
  const d = f.deliveriesBefore;
  const r = f.recovery;
  return (
    `fault: workerd killed (SIGKILL) ${((f.killedAt - started) / 1000).toFixed(0)} s into the run, answering again ${f.downSeconds.toFixed(1)} s later on the same state; ` +
    `${f.answered.length} writes answered before the kill, ${f.cut.length} requests cut in flight (${[...new Set(f.cut.map((c) => c.name))].join(', ') || 'none'}); ` +
    `deliveries written before the kill: ${d.maxId} (${d.sent ?? 0} SENT, ${d.queued ?? 0} QUEUED when it was restarted), ${r.stuckAfterRestart} of them still QUEUED after the load ` +
    `(${r.neverTried} never tried: their queue messages died with workerd), sent by the outbox sweep after its thresholds in ${r.settled.waitedSeconds.toFixed(1)} s`
  );
}

/** Replaces the soak section of docs/BENCHMARKS.md (the benchmark keeps it when it rewrites the file). */
function writeSoakSection({ mixText, summary, checks, flowText, bookedByStatus, entries, failures, faultText }) {
  const file = process.env.SOAK_OUT ?? path.join(ROOT, 'docs/BENCHMARKS.md');
  const lines = [
    fault ? FAULT_HEADING : SOAK_HEADING,
    '',
    `- Date: ${new Date().toISOString()}; ${os.cpus().length} cores; load average at the end ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`,
    `- ${SECONDS} s, ${USERS} simulated users (half senders, half carriers, think time 0-20 ms), data set scale ${SCALE}; ` +
      `${HOT_TRIPS} small trips (${HOT_CAPACITY_G / 1000} kg) everyone books, one roomy trip (${ROOMY_CAPACITY_G / 1000} kg) per simulated carrier`,
    '- Money flow through the API only (scripts/soak/actions.mjs): book, sandbox checkout and "Pay", accept, the sender reads the codes, deposit, deliver, withdraw; carriers connect a payout account through the sandbox onboarding and add a Wave wallet first',
    '- Mixed EUR card / XOF mobile money: besides the EUR trips (Paris -> Dakar, paid by CARD on the Stripe sandbox page), one roomy trip per simulated carrier is priced in CFA francs (Dakar -> Abidjan, XOF): those bookings pay by MOBILE_MONEY on the Wave sandbox page ("Pay with Wave", the signed event through the Wave webhook code), and carriers withdraw XOF to their Wave wallet (Wave sandbox payout). The money invariants hold per currency',
    `- Delivery pipeline as in production: each notification's e-mail row written in the batch of its change, sent by the DELIVERIES queue's consumer through the sandbox; after the load the run waits up to ${DELIVERY_WAIT_SECONDS} s for every row to leave QUEUED, then checks none was sent twice`,
    ...(faultText
      ? [
          '- The fault drill (scripts/soak/fault.mjs): halfway through the load, right after a write that queued notifications (a "Pay", an acceptance or a delivery answered), the workerd serving the API is killed (SIGKILL, by its PID) and started again on the same persisted state (D1, KV, R2, Durable Objects); calls wait while it is down. Then every write answered 2xx (303 for the sandbox "Pay") before the kill is looked up, and every delivery row written before the kill must be SENT with exactly one send',
          "- Local Queues lose the messages a killed workerd had not yet consumed (the figures below: rows still QUEUED and never tried after the restart; the restarted consumer never gets them). The rows stay QUEUED in D1 (the transactional outbox) and the cron's sweep (requeueStaleDeliveries) sends them again once 5 minutes old (2 hours when an attempt had started); the drill moves their created_at back past those thresholds, as the soak moves the dispute window, and fires the cron",
        ]
      : []),
    '',
    '```',
    summary,
    ...(faultText ? [faultText] : []),
    '```',
    '',
    mixText,
    '',
    `- ${flowText}`,
    `- Reservations booked during the run, by status at the end: ${Object.entries(bookedByStatus).map(([k, n]) => `${k} ${n}`).join(', ') || 'none'}`,
    `- Ledger entries by type: ${Object.entries(entries).map(([k, n]) => `${k} ${n}`).join(', ') || 'none'}`,
    ...failures.map((f) => `- Failure: ${f}`),
    '',
    '| action | requests | statuses |',
    '|---|---|---|',
    ...Object.entries(stats.byAction).map(([name, a]) => `| ${name} | ${a.requests} | ${Object.entries(a.statuses).map(([k, n]) => `${k}: ${n}`).join(', ')} |`),
    '',
    '| invariant | outcome |',
    '|---|---|',
    ...checks.map((c) => `| ${c.name} | ${c.outcome}${c.detail ? ` (${c.detail.replaceAll('|', '/')})` : ''} |`),
    '',
  ];
  const current = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n\n';
  // Only this section is replaced (the soak's and the fault drill's live side by side).
  const heading = fault ? FAULT_HEADING : SOAK_HEADING;
  const start = current.indexOf(heading);
  const next = start === -1 ? -1 : current.indexOf('\n## ', start + heading.length);
  const before = start === -1 ? `${current.trimEnd()}\n\n` : current.slice(0, start);
  const after = next === -1 ? '' : `\n${current.slice(next + 1)}`;
  writeFileSync(file, `${before}${lines.join('\n')}${after}`);
}

let code = 1;
try {
  code = await main();
} finally {
  await cleanupAll();
}
process.exit(code);
