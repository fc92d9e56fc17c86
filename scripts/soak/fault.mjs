// The fault drill of `npm run soak` (SOAK_FAULT=1, issue 33): halfway through the write load, right
// after a write that queued notifications, the local workerd is killed (SIGKILL, by its PID) and started again on the same persisted state.
// Afterwards every write answered 2xx (or the sandbox's 303) before the kill must be found, every
// delivery row written before the kill must be sent exactly once, and the soak's invariants hold.
//
// What a kill loses: requests in flight (the client sees a network error; the server may or may not
// have committed) and the local queue's messages not yet consumed (observed: their rows stay QUEUED,
// never tried, after the restart). The outbox
// recovers those: the rows are QUEUED in D1 and the cron's sweep (requeueStaleDeliveries,
// src/features/deliveries/outbox.ts) sends them again once they are 5 minutes old (2 hours for a
// row whose attempt had started). The drill does not wait that long: it moves those rows' created_at
// back by the sweep's thresholds, as the soak moves the dispute window, then fires the cron.
import { compared } from './checks.mjs';

const SWEEP_AGE_MINUTES = 2 * 60 + 1; // LOST_RETRY_AFTER_MS (2 h) and STALE_AFTER_MS (5 min), passed

const NOTIFYING = new Set(['pay: sandbox "Pay" button', 'pay: Wave sandbox "Pay with Wave" button', 'accept a paid booking', 'deliver with the code']);

export function faultState() {
  let release;
  return {
    killedAt: null,
    restartedAt: null,
    /** Resolves when the service answers again; null outside the outage. */
    outage: null,
    answered: [],
    cut: [],
    deliveriesBefore: null,
    recovery: null,
    /** Resolves at the next write answered that queued notifications (or after `ms`): the moment to kill. */
    trigger: null,
    nextNotifyingWrite(ms) {
      return new Promise((resolve) => {
        this.trigger = resolve;
        setTimeout(resolve, ms);
      });
    },
    begin() {
      this.outage = new Promise((r) => (release = r));
      this.killedAt = Date.now();
    },
    end() {
      this.restartedAt = Date.now();
      this.outage = null;
      release();
    },
  };
}

/** Records a write answered before the kill, or a request the kill cut. Returns true when it was cut. */
export function observe(fault, name, req, res, startedAt) {
  if (!fault) return false;
  if (res === null) {
    const cut = fault.killedAt !== null && (fault.restartedAt === null || startedAt < fault.restartedAt);
    if (cut) fault.cut.push({ name, method: req.method, path: req.path });
    return cut;
  }
  if (fault.killedAt === null && req.method !== 'GET' && ((res.status >= 200 && res.status < 300) || res.status === 303)) {
    fault.answered.push({ name, method: req.method, path: req.path, status: res.status, body: res.body });
    // A payment's notifications were just committed and handed to the queue: kill before they are consumed.
    if (NOTIFYING.has(name)) fault.trigger?.();
  }
  return false;
}

/** The restarted worker's error lines, kept for the report (the first few of each event). */
export function faultLog(fault, entry) {
  const text = typeof entry?.message === 'string' ? entry.message : JSON.stringify(entry);
  if (!/"level":"error"|error/i.test(text)) return;
  fault.errors ??= [];
  if (fault.errors.length < 20) fault.errors.push(text.slice(0, 300));
}

/**
 * The kill: calls held, workerd SIGKILLed by its PID, restarted on the same state; before any call
 * is let through, the deliveries the dead process left behind are noted (every row there was written
 * before the kill, including those of requests the kill cut after their commit).
 */
export async function killAndRestart(fault, service, restart) {
  await fault.nextNotifyingWrite(10_000);
  fault.begin();
  process.kill(service.workerdPid, 'SIGKILL');
  // Miniflare's side of the dead process is disposed in the background (bounded in stop()).
  service.stop().catch(() => {});
  const started = Date.now();
  const next = await restart();
  fault.downSeconds = (Date.now() - started) / 1000;
  const [before] = (await next.db.prepare("SELECT COALESCE(MAX(id), 0) AS maxId, SUM(status = 'SENT') AS sent, SUM(status = 'QUEUED') AS queued FROM deliveries").all()).results;
  fault.deliveriesBefore = before;
  fault.end();
  return next;
}

const idOf = (path, verb) => Number(path.match(new RegExp(`/bookings/(\\d+)/${verb}$`))?.[1]);

/** One query per kind of write: the SQL that finds it again, from what the API answered. */
const FINDERS = {
  'book a hot trip': (a) => ['SELECT id FROM reservations WHERE id = ?', a.body?.id],
  'book a roomy trip': (a) => ['SELECT id FROM reservations WHERE id = ?', a.body?.id],
  'book an XOF trip': (a) => ['SELECT id FROM reservations WHERE id = ?', a.body?.id],
  'pay: open the Wave checkout': (a) => ['SELECT id FROM payment_sessions WHERE session_id = ?', a.body?.paymentId],
  'pay: Wave sandbox "Pay with Wave" button': (a) => [
    "SELECT e.id FROM payment_sessions s JOIN ledger_entries e ON e.key = 'escrow-in:' || s.reservation_id WHERE s.session_id = ?",
    decodeURIComponent(a.path.match(/\/sandbox\/wave\/checkout\/([^/]+)\/pay$/)?.[1] ?? ''),
  ],
  'pay: open the checkout': (a) => ['SELECT id FROM payment_sessions WHERE session_id = ?', a.body?.paymentId],
  'pay: sandbox "Pay" button': (a) => [
    "SELECT e.id FROM payment_sessions s JOIN ledger_entries e ON e.key = 'escrow-in:' || s.reservation_id WHERE s.session_id = ?",
    decodeURIComponent(a.path.match(/\/sandbox\/checkout\/([^/]+)\/pay$/)?.[1] ?? ''),
  ],
  'accept a paid booking': (a) => ["SELECT id FROM reservations WHERE id = ? AND status NOT IN ('PENDING_PAYMENT', 'PAID')", idOf(a.path, 'accept')],
  'deposit with the code': (a) => ["SELECT id FROM reservations WHERE id = ? AND deposited_at IS NOT NULL", idOf(a.path, 'deposit')],
  // Bound as text: a bound JS number is a REAL to SQLite, and 'escrow-out:' || 4008.0 is not the key.
  'deliver with the code': (a) => ["SELECT e.id FROM ledger_entries e WHERE e.key = ? AND e.type = 'ESCROW_RELEASED'", `escrow-out:${idOf(a.path, 'deliver')}`],
  'cancel a booking': (a) => ["SELECT id FROM reservations WHERE id = ? AND status IN ('CANCELLED', 'REFUNDED')", idOf(a.path, 'cancel')],
  'withdraw EUR': (a) => ['SELECT id FROM withdrawals WHERE id = ? AND amount_cents = ?', a.body?.id, Math.round(Number(a.body?.amount) * 100)],
  // XOF has no minor unit: the amount is in francs.
  'withdraw XOF': (a) => ['SELECT id FROM withdrawals WHERE id = ? AND amount_cents = ?', a.body?.id, Math.round(Number(a.body?.amount))],
  'report a user': (a) => ['SELECT id FROM reports WHERE id = ?', a.body?.id],
};

/**
 * Every write answered before the kill, looked up after it. Messages are read back through the API
 * by the soak's own conversation check; read markers are not records.
 */
export async function answeredFound(db, fault) {
  const missing = [];
  const byKind = {};
  for (const a of fault.answered) {
    const find = FINDERS[a.name];
    if (!find) continue;
    const [sql, ...params] = find(a);
    const row = await db.prepare(sql).bind(...params).first();
    byKind[a.name] = (byKind[a.name] ?? 0) + 1;
    if (!row) missing.push(`${a.name}: ${a.method} ${a.path} answered ${a.status} ${JSON.stringify(a.body ?? null).slice(0, 120)}`);
  }
  const kinds = Object.entries(byKind).map(([k, n]) => `${n} ${k}`).join(', ');
  return compared(`every write answered before the kill is found after the restart (${kinds})`, missing.length === 0, `${missing.length} not found: ${missing.slice(0, 5).join('; ')}`);
}

/**
 * The deliveries written before the kill: what the restart left QUEUED (lost with the local queue
 * or cut mid-attempt), then the outbox's sweep after its thresholds (the clock moved), then each
 * must be SENT with exactly one send.
 */
export async function recoverDeliveries(db, fault, fireCron, settle) {
  const maxId = fault.deliveriesBefore.maxId;
  const stuck = (await db.prepare("SELECT COUNT(*) AS n, SUM(attempts = 0) AS neverTried FROM deliveries WHERE id <= ? AND status = 'QUEUED'").bind(maxId).all()).results[0];
  await db.prepare(`UPDATE deliveries SET created_at = strftime('%Y-%m-%dT%H:%M:%fZ', created_at, '-${SWEEP_AGE_MINUTES} minutes') WHERE id <= ? AND status = 'QUEUED'`).bind(maxId).run();
  await fireCron();
  const settled = await settle();
  fault.recovery = { stuckAfterRestart: stuck.n ?? 0, neverTried: stuck.neverTried ?? 0, settled };
  return fault.recovery;
}

export async function deliveriesExactlyOnce(db, fault) {
  const maxId = fault.deliveriesBefore.maxId;
  const rows = (
    await db
      .prepare(
        `SELECT d.id, d.status, (SELECT COUNT(*) FROM outbox_messages o WHERE o.delivery_id = d.id) AS sends FROM deliveries d
          WHERE d.id <= ? AND (d.status != 'SENT' OR (SELECT COUNT(*) FROM outbox_messages o WHERE o.delivery_id = d.id) != 1)`,
      )
      .bind(maxId)
      .all()
  ).results;
  return compared(
    `every delivery written before the kill (${maxId}) sent exactly once after the restart`,
    rows.length === 0,
    `${rows.length} not: ${JSON.stringify(rows.slice(0, 5))}`,
  );
}

/**
 * The soak's comparisons of answers with rows, across the kill: a row committed by a request the
 * kill cut has no answer. Rows beyond the answers must be no more than the cut requests of their
 * kind, and the wallets must hold what the released deliveries paid in minus the withdrawal rows.
 */
export async function reconcileAcrossKill(db, fault, flow) {
  const cutOf = (name) => fault.cut.filter((c) => c.name === name).length;
  const all = async (sql, ...params) => (await db.prepare(sql).bind(...params).all()).results;
  const [releases] = await all("SELECT COUNT(*) AS n FROM ledger_entries WHERE type = 'ESCROW_RELEASED'");
  const extraReleases = releases.n - flow.delivered;
  const checks = [
    compared(
      'escrow releases = deliveries answered 200, plus at most the deliveries the kill cut',
      extraReleases >= 0 && extraReleases <= cutOf('deliver with the code'),
      `releases ${releases.n}, answered ${flow.delivered}, cut by the kill ${cutOf('deliver with the code')}`,
    ),
  ];
  // The money per currency (CONTRACT section 20), in minor units: never summed across currencies.
  for (const cur of ['EUR', 'XOF']) {
    const [withdrawn] = await all("SELECT COUNT(*) AS n, COALESCE(SUM(amount_cents), 0) AS cents FROM withdrawals WHERE status != 'FAILED' AND currency = ?", cur);
    const [released] = await all(
      "SELECT COALESCE(SUM(r.carrier_amount_cents), 0) AS cents FROM ledger_entries e JOIN reservations r ON e.key = 'escrow-out:' || r.id WHERE e.type = 'ESCROW_RELEASED' AND r.currency = ?",
      cur,
    );
    const [wallets] = await all("SELECT COALESCE(SUM(balance_cents), 0) AS cents FROM ledger_accounts WHERE kind IN ('WALLET', 'HELD') AND currency = ?", cur);
    const extraWithdrawals = withdrawn.n - flow.withdrawals[cur];
    checks.push(
      compared(
        `withdrawal rows = withdrawals answered 201, plus at most the withdrawals the kill cut, ${cur}`,
        extraWithdrawals >= 0 && extraWithdrawals <= cutOf(`withdraw ${cur}`),
        `rows ${withdrawn.n}, answered ${flow.withdrawals[cur]}, cut by the kill ${cutOf(`withdraw ${cur}`)}`,
      ),
      compared(
        `wallets and held shares = carrier amounts of the released deliveries - withdrawal rows (answered or cut), ${cur}`,
        wallets.cents === released.cents - withdrawn.cents && (extraWithdrawals > 0 || extraReleases > 0 || wallets.cents === flow.earned[cur] - flow.withdrawn[cur]),
        `wallets ${wallets.cents}; released ${released.cents}, withdrawn ${withdrawn.cents}; answered: earned ${flow.earned[cur]}, withdrawn ${flow.withdrawn[cur]}`,
      ),
    );
  }
  return checks;
}
