// Invariants the soak checks through SQL once the load has stopped. Each names the tables and
// columns it reads; one that is absent is a violation (the schema is src/db/schema/*.ts), never a
// skip. `sql` returns the offending rows: any row is a violation.
//
// Ledger (src/db/schema/money.ts): ledger_entries are journal entries, ledger_lines their signed
// lines (entry_id, account_id, amount_cents), ledger_accounts the accounts (key, kind in
// WALLET/ESCROW/PLATFORM_REVENUE/PAYOUTS/PROVIDER_CLEARING/HELD/RECEIVABLE/PROTECTION_PREMIUMS/
// PROTECTION_RESERVE/PROTECTION_FUNDING, cached balance_cents).
// Posting rules: src/features/money/ledger/posting-rules.ts (payment: clearing -> escrow under key
// `escrow-in:<id>`; delivery: escrow -> held + revenue, or refund: escrow -> clearing + revenue, under
// `escrow-out:<id>`; the dispute window closed: held -> wallet under `held-release:<id>`, with a
// payout_holds row per delivered share; withdrawal: wallet -> payouts). Every account has its
// `currency` (migration 0028): the money checks hold per currency, never summed across currencies.

export const CAPACITY_HOLDING = "('PENDING_PAYMENT','PAID','CONFIRMED','DEPOSITED','IN_TRANSIT','DELIVERED','DISPUTED','REFUNDED')";

const escrowedIn = (r) => `EXISTS (SELECT 1 FROM ledger_entries e WHERE e.key = 'escrow-in:' || ${r}.id)`;
const settledOut = (r) => `EXISTS (SELECT 1 FROM ledger_entries e WHERE e.key = 'escrow-out:' || ${r}.id)`;

export const CHECKS = [
  {
    name: 'no announcement overbooked',
    needs: { announcements: ['reserved_weight_g', 'total_weight_g'] },
    sql: 'SELECT id, reserved_weight_g, total_weight_g FROM announcements WHERE reserved_weight_g > total_weight_g OR reserved_weight_g < 0 LIMIT 5',
  },
  {
    name: 'reserved weight = sum of capacity-holding reservations',
    needs: { announcements: ['reserved_weight_g'], reservations: ['announcement_id', 'status', 'reserved_weight_g'] },
    sql: `SELECT a.id, a.reserved_weight_g, COALESCE(SUM(r.reserved_weight_g), 0) AS held FROM announcements a
            LEFT JOIN reservations r ON r.announcement_id = a.id AND r.status IN ${CAPACITY_HOLDING}
           GROUP BY a.id HAVING a.reserved_weight_g != COALESCE(SUM(r.reserved_weight_g), 0) LIMIT 5`,
  },
  {
    // The route search's total (migration 0078): kept by triggers, it must equal the trips it counts.
    name: 'route day totals = the listed trips (ACTIVE, publisher not suspended) of each route and day',
    needs: {
      announcements: ['status', 'publisher_suspended', 'departure_city_key', 'arrival_city_key', 'departure_date'],
      route_day_trips: ['departure_city_key', 'arrival_city_key', 'departure_date', 'trips'],
    },
    sql: `SELECT * FROM (SELECT k.departure_city_key, k.arrival_city_key, k.departure_date, k.trips,
              (SELECT COUNT(*) FROM announcements a WHERE a.departure_city_key = k.departure_city_key AND a.arrival_city_key = k.arrival_city_key
                 AND a.departure_date = k.departure_date AND a.status = 'ACTIVE' AND a.publisher_suspended = 0) AS listed
            FROM route_day_trips k) WHERE trips != listed
          UNION ALL
          SELECT a.departure_city_key, a.arrival_city_key, a.departure_date, 0, COUNT(*) FROM announcements a
            WHERE a.status = 'ACTIVE' AND a.publisher_suspended = 0 AND NOT EXISTS (SELECT 1 FROM route_day_trips k
              WHERE k.departure_city_key = a.departure_city_key AND k.arrival_city_key = a.arrival_city_key AND k.departure_date = a.departure_date)
            GROUP BY 1, 2, 3
          LIMIT 5`,
  },
  {
    // The route totals (migration 0080): the sum of their days, kept by triggers; no day kept at 0.
    name: 'route totals = the sum of their day totals, and no day total is 0',
    needs: {
      route_trips: ['departure_city_key', 'arrival_city_key', 'trips'],
      route_day_trips: ['departure_city_key', 'arrival_city_key', 'departure_date', 'trips'],
    },
    sql: `SELECT r.departure_city_key, r.arrival_city_key, r.trips, COALESCE((SELECT SUM(d.trips) FROM route_day_trips d
              WHERE d.departure_city_key = r.departure_city_key AND d.arrival_city_key = r.arrival_city_key), 0) AS days
            FROM route_trips r WHERE r.trips != days
          UNION ALL
          SELECT d.departure_city_key, d.arrival_city_key, NULL, SUM(d.trips) FROM route_day_trips d
           WHERE NOT EXISTS (SELECT 1 FROM route_trips r WHERE r.departure_city_key = d.departure_city_key AND r.arrival_city_key = d.arrival_city_key)
           GROUP BY 1, 2
          UNION ALL
          SELECT departure_city_key, arrival_city_key, departure_date, trips FROM route_day_trips WHERE trips = 0
          LIMIT 5`,
  },
  {
    // The carrier's cancellationRate counts (migration 0079): kept by triggers, they must equal the
    // recount of its reservations (CONTRACT 22's rule) after the soak's cancellations.
    name: "carrier cancellation counts = the recount of each carrier's reservations",
    needs: {
      reservations: ['carrier_id', 'sender_id', 'status', 'paid_at', 'confirmed_at', 'cancelled_by'],
      carrier_cancellation_counts: ['carrier_id', 'cancelled', 'counted'],
    },
    sql: `WITH recount AS (
            SELECT carrier_id, SUM(CASE WHEN carrier_cancelled THEN 1 ELSE 0 END) AS cancelled, COUNT(*) AS counted FROM (
              SELECT carrier_id, confirmed_at,
                     status = 'CANCELLED' AND paid_at IS NOT NULL AND cancelled_by IS NOT NULL AND cancelled_by <> sender_id AS carrier_cancelled
                FROM reservations)
             WHERE confirmed_at IS NOT NULL OR carrier_cancelled GROUP BY carrier_id)
          SELECT k.carrier_id, k.cancelled, k.counted, r.cancelled AS recounted_cancelled, r.counted AS recounted FROM carrier_cancellation_counts k
            LEFT JOIN recount r ON r.carrier_id = k.carrier_id
           WHERE k.cancelled != COALESCE(r.cancelled, 0) OR k.counted != COALESCE(r.counted, 0)
          UNION ALL
          SELECT r.carrier_id, 0, 0, r.cancelled, r.counted FROM recount r
           WHERE NOT EXISTS (SELECT 1 FROM carrier_cancellation_counts k WHERE k.carrier_id = r.carrier_id)
          LIMIT 5`,
  },
  {
    // CONTRACT section 19: carrierAmount and platformCommission follow refunds (what each side keeps).
    name: 'reservation amounts split exactly (total = commission + carrier amount + what went back to the sender)',
    needs: {
      reservations: ['total_amount_cents', 'platform_commission_cents', 'carrier_amount_cents', 'sender_id'],
      transactions: ['reservation_id', 'type', 'owner_type', 'owner_id', 'amount_cents'],
    },
    sql: `SELECT r.id FROM reservations r WHERE r.total_amount_cents != r.platform_commission_cents + r.carrier_amount_cents
            + (SELECT COALESCE(SUM(t.amount_cents), 0) FROM transactions t WHERE t.reservation_id = r.id AND t.owner_type = 'USER'
                 AND t.owner_id = r.sender_id AND t.type IN ('REFUND', 'HOLD_RELEASE')) LIMIT 5`,
  },
  {
    name: 'ledger balanced: the lines of every entry sum to zero',
    needs: { ledger_lines: ['entry_id', 'amount_cents'] },
    sql: 'SELECT entry_id, SUM(amount_cents) AS total FROM ledger_lines GROUP BY entry_id HAVING SUM(amount_cents) != 0 LIMIT 5',
  },
  {
    name: 'ledger complete: every entry has at least two lines',
    needs: { ledger_entries: ['id', 'type'], ledger_lines: ['entry_id'] },
    sql: `SELECT e.id, e.type, COUNT(l.id) AS lines FROM ledger_entries e LEFT JOIN ledger_lines l ON l.entry_id = e.id
           GROUP BY e.id HAVING COUNT(l.id) < 2 LIMIT 5`,
  },
  {
    name: 'ledger balanced: all lines sum to zero (per currency)',
    needs: { ledger_lines: ['account_id', 'amount_cents'], ledger_accounts: ['id', 'currency'] },
    sql: `SELECT a.currency, SUM(l.amount_cents) AS total FROM ledger_lines l JOIN ledger_accounts a ON a.id = l.account_id
           GROUP BY a.currency HAVING SUM(l.amount_cents) != 0`,
  },
  {
    // CONTRACT section 20: money never changes currency inside the ledger (no conversion): one entry, one currency,
    // and an entry of a reservation moves that reservation's currency.
    name: "no entry mixes currencies; a reservation's entries are in its currency",
    needs: { ledger_lines: ['entry_id', 'account_id'], ledger_accounts: ['id', 'currency'], ledger_entries: ['id', 'reservation_id'], reservations: ['id', 'currency'] },
    sql: `SELECT 'mixed' AS problem, l.entry_id AS id FROM ledger_lines l JOIN ledger_accounts a ON a.id = l.account_id
           GROUP BY l.entry_id HAVING COUNT(DISTINCT a.currency) > 1
          UNION ALL
          SELECT 'not the reservation currency' AS problem, e.id FROM ledger_entries e JOIN reservations r ON r.id = e.reservation_id
            JOIN ledger_lines l ON l.entry_id = e.id JOIN ledger_accounts a ON a.id = l.account_id WHERE a.currency != r.currency
          LIMIT 5`,
  },
  {
    name: "every account's cached balance = the sum of its lines",
    needs: { ledger_accounts: ['id', 'key', 'balance_cents'], ledger_lines: ['account_id', 'amount_cents'] },
    sql: `SELECT a.key, a.balance_cents, COALESCE(SUM(l.amount_cents), 0) AS lines FROM ledger_accounts a
            LEFT JOIN ledger_lines l ON l.account_id = a.id
           GROUP BY a.id HAVING a.balance_cents != COALESCE(SUM(l.amount_cents), 0) LIMIT 5`,
  },
  {
    name: 'no wallet negative (cached balance or sum of lines)',
    needs: { ledger_accounts: ['id', 'key', 'kind', 'balance_cents'], ledger_lines: ['account_id', 'amount_cents'] },
    sql: `SELECT a.key, a.balance_cents, COALESCE(SUM(l.amount_cents), 0) AS lines FROM ledger_accounts a
            LEFT JOIN ledger_lines l ON l.account_id = a.id
           WHERE a.kind = 'WALLET' GROUP BY a.id HAVING a.balance_cents < 0 OR COALESCE(SUM(l.amount_cents), 0) < 0 LIMIT 5`,
  },
  {
    // Disputes move money in and out of escrow through their own entries (none in the soak): counted as they are.
    name: 'escrow holds exactly the paid reservations not yet released or refunded (per currency)',
    needs: { ledger_accounts: ['kind', 'currency', 'balance_cents'], ledger_entries: ['key', 'type'], reservations: ['total_amount_cents', 'currency'] },
    sql: `SELECT * FROM (SELECT c.currency,
            (SELECT COALESCE(SUM(balance_cents), 0) FROM ledger_accounts WHERE kind = 'ESCROW' AND currency = c.currency) AS escrow,
            (SELECT COALESCE(SUM(r.total_amount_cents), 0) FROM reservations r WHERE r.currency = c.currency AND ${escrowedIn('r')} AND NOT ${settledOut('r')})
            + (SELECT COALESCE(SUM(l.amount_cents), 0) FROM ledger_lines l JOIN ledger_entries e ON e.id = l.entry_id
                 JOIN ledger_accounts a ON a.id = l.account_id WHERE a.kind = 'ESCROW' AND a.currency = c.currency AND e.type LIKE 'DISPUTE%'
                 -- A dispute settled before the release takes the reservation's escrow-out key: counted above.
                 AND e.key NOT LIKE 'escrow-out:%') AS expected
            FROM (SELECT currency FROM ledger_accounts UNION SELECT currency FROM reservations) c)
           WHERE escrow != expected`,
  },
  {
    name: 'every delivered paid reservation has its escrow released (once)',
    needs: { reservations: ['status'], ledger_entries: ['key', 'type'] },
    sql: `SELECT r.id, r.status FROM reservations r WHERE r.status = 'DELIVERED' AND ${escrowedIn('r')}
           AND NOT EXISTS (SELECT 1 FROM ledger_entries e WHERE e.key = 'escrow-out:' || r.id AND e.type = 'ESCROW_RELEASED') LIMIT 5`,
  },
  {
    name: 'every paid reservation that left the flow (cancelled, rejected, expired) was refunded',
    needs: { reservations: ['status'], ledger_entries: ['key'] },
    sql: `SELECT r.id, r.status, r.payment_status FROM reservations r WHERE r.status IN ('CANCELLED', 'REJECTED', 'EXPIRED', 'REFUNDED')
           AND ${escrowedIn('r')} AND NOT ${settledOut('r')} LIMIT 5`,
  },
  {
    // CONTRACT section 19: a delivered share waits in HELD for the dispute window; withdrawals debit WALLET only.
    name: 'a held share is never withdrawn (no withdrawal touches HELD; HELD = the open holds of its currency, never negative)',
    needs: {
      ledger_accounts: ['id', 'key', 'kind', 'owner_type', 'owner_id', 'currency', 'balance_cents'],
      ledger_entries: ['id', 'type'],
      ledger_lines: ['entry_id', 'account_id'],
      payout_holds: ['owner_type', 'owner_id', 'currency', 'amount_cents', 'released_at'],
    },
    sql: `SELECT 'withdrawn from held' AS problem, a.key FROM ledger_lines l JOIN ledger_entries e ON e.id = l.entry_id
            JOIN ledger_accounts a ON a.id = l.account_id WHERE a.kind = 'HELD' AND e.type IN ('WITHDRAWAL', 'WITHDRAWAL_REVERSED')
          UNION ALL
          SELECT 'held is not the open holds' AS problem, a.key FROM ledger_accounts a WHERE a.kind = 'HELD' AND (a.balance_cents < 0
            OR a.balance_cents != COALESCE((SELECT SUM(h.amount_cents) FROM payout_holds h WHERE h.owner_type = a.owner_type
              AND h.owner_id = a.owner_id AND h.currency = a.currency AND h.released_at IS NULL), 0))
          LIMIT 5`,
  },
  {
    // The carrier's part of a refund comes from its hold, its wallet or a receivable it owes: revenue only ever
    // gives back the commission it took on that reservation.
    name: 'no refund taken from platform revenue (revenue never negative on a reservation; no receivable above zero)',
    needs: { ledger_accounts: ['id', 'key', 'kind', 'balance_cents'], ledger_entries: ['id', 'reservation_id'], ledger_lines: ['entry_id', 'account_id', 'amount_cents'] },
    sql: `SELECT 'revenue paid out' AS problem, e.reservation_id AS id, SUM(l.amount_cents) AS cents FROM ledger_lines l
            JOIN ledger_entries e ON e.id = l.entry_id JOIN ledger_accounts a ON a.id = l.account_id
           WHERE a.kind = 'PLATFORM_REVENUE' AND e.reservation_id IS NOT NULL GROUP BY e.reservation_id HAVING SUM(l.amount_cents) < 0
          UNION ALL
          SELECT 'receivable above zero' AS problem, a.id, a.balance_cents FROM ledger_accounts a WHERE a.kind = 'RECEIVABLE' AND a.balance_cents > 0
          LIMIT 5`,
  },
  {
    // CONTRACT section 19: money documents say what happened. An invoice exists only for money captured
    // (a capture id on the reservation), for the amount captured: the price, less the part of a hold released
    // at a partial capture.
    name: 'no invoice without a capture; each invoice is for the amount captured; every capture has its invoice',
    needs: {
      money_documents: ['kind', 'reservation_id', 'total_cents'],
      reservations: ['capture_id', 'payment_status', 'total_amount_cents', 'sender_id'],
      transactions: ['reservation_id', 'type', 'owner_type', 'owner_id', 'amount_cents'],
    },
    sql: `SELECT 'invoice without a capture' AS problem, r.id FROM money_documents d JOIN reservations r ON r.id = d.reservation_id
           WHERE d.kind = 'INVOICE' AND r.capture_id IS NULL
          UNION ALL
          SELECT 'invoice is not the amount captured' AS problem, r.id FROM money_documents d JOIN reservations r ON r.id = d.reservation_id
           WHERE d.kind = 'INVOICE' AND d.total_cents != r.total_amount_cents - (SELECT COALESCE(SUM(t.amount_cents), 0) FROM transactions t
             WHERE t.reservation_id = r.id AND t.type = 'HOLD_RELEASE' AND t.owner_type = 'USER' AND t.owner_id = r.sender_id)
          UNION ALL
          SELECT 'capture without an invoice' AS problem, r.id FROM reservations r WHERE r.capture_id IS NOT NULL
             AND NOT EXISTS (SELECT 1 FROM money_documents d WHERE d.reservation_id = r.id AND d.kind = 'INVOICE')
          LIMIT 5`,
  },
  {
    name: 'credit notes add up to what was refunded after capture; numbers run without gaps per series',
    needs: {
      money_documents: ['kind', 'reservation_id', 'total_cents', 'number'],
      reservations: ['sender_id'],
      transactions: ['reservation_id', 'type', 'owner_type', 'owner_id', 'amount_cents'],
    },
    sql: `SELECT 'credited is not refunded' AS problem, r.id AS id FROM reservations r
           WHERE EXISTS (SELECT 1 FROM money_documents d WHERE d.reservation_id = r.id AND d.kind = 'INVOICE')
             AND (SELECT COALESCE(SUM(d.total_cents), 0) FROM money_documents d WHERE d.reservation_id = r.id AND d.kind = 'CREDIT_NOTE')
              != (SELECT COALESCE(SUM(t.amount_cents), 0) FROM transactions t WHERE t.reservation_id = r.id AND t.type = 'REFUND'
                    AND t.owner_type = 'USER' AND t.owner_id = r.sender_id)
          UNION ALL
          SELECT 'gap in ' || substr(number, 1, 6) AS problem, COUNT(*) FROM money_documents GROUP BY substr(number, 1, 6)
           HAVING COUNT(*) != MAX(CAST(substr(number, 8) AS INTEGER))
          LIMIT 5`,
  },
  {
    // CONTRACT section 21 (docs/decisions-protection.md): a premium waits in PROTECTION_PREMIUMS until it can no
    // longer go back, then the reserve earns it; payouts take only what the reserve holds. Neither goes below
    // zero, and a reservation's lines on the unearned premiums sum to its premium (still refundable) or 0.
    name: 'protection reserve and unearned premiums never negative; each premium out of the unearned premiums at most once',
    needs: {
      ledger_accounts: ['id', 'key', 'kind', 'balance_cents'],
      ledger_entries: ['id', 'reservation_id'],
      ledger_lines: ['entry_id', 'account_id', 'amount_cents'],
      reservations: ['protection_premium_cents'],
    },
    sql: `SELECT 'below zero' AS problem, a.key AS id FROM ledger_accounts a
           WHERE a.kind IN ('PROTECTION_RESERVE', 'PROTECTION_PREMIUMS') AND a.balance_cents < 0
          UNION ALL
          SELECT 'unearned premium is neither the premium nor 0' AS problem, e.reservation_id FROM ledger_lines l
            JOIN ledger_entries e ON e.id = l.entry_id JOIN ledger_accounts a ON a.id = l.account_id JOIN reservations r ON r.id = e.reservation_id
           WHERE a.kind = 'PROTECTION_PREMIUMS' GROUP BY e.reservation_id HAVING SUM(l.amount_cents) NOT IN (0, MAX(r.protection_premium_cents))
          LIMIT 5`,
  },
  {
    name: 'every withdrawal is a positive amount',
    needs: { withdrawals: ['amount_cents'] },
    sql: 'SELECT id, amount_cents FROM withdrawals WHERE amount_cents <= 0 LIMIT 5',
  },
  {
    name: 'payouts account = sum of withdrawals not failed (per currency)',
    needs: { ledger_accounts: ['kind', 'currency', 'balance_cents'], withdrawals: ['amount_cents', 'currency', 'status'] },
    sql: `SELECT * FROM (SELECT c.currency,
            (SELECT COALESCE(SUM(balance_cents), 0) FROM ledger_accounts WHERE kind = 'PAYOUTS' AND currency = c.currency) AS payouts,
            (SELECT COALESCE(SUM(amount_cents), 0) FROM withdrawals WHERE status != 'FAILED' AND currency = c.currency) AS withdrawn
            FROM (SELECT currency FROM ledger_accounts UNION SELECT currency FROM withdrawals) c)
           WHERE payouts != withdrawn`,
  },
];

/**
 * The delivery pipeline (src/db/schema/deliveries.ts; docs/decisions-deliveries.md), checked once
 * run.mjs has waited for the DELIVERIES consumer: deliveries rows (status QUEUED/SENT/FAILED/DEAD,
 * provider_message_id, sent_at) and outbox_messages, what the sandbox providers "sent" (one row per
 * send, delivery_id).
 */
export const DELIVERY_CHECKS = [
  {
    name: 'every delivery left QUEUED (SENT, FAILED or DEAD) once the consumer had its time',
    needs: { deliveries: ['id', 'status', 'channel', 'template', 'attempts'] },
    sql: "SELECT id, channel, template, attempts FROM deliveries WHERE status = 'QUEUED' LIMIT 5",
  },
  {
    name: 'no delivery sent twice: at most one sandbox message per delivery',
    needs: { outbox_messages: ['delivery_id'] },
    sql: 'SELECT delivery_id, COUNT(*) AS sends FROM outbox_messages GROUP BY delivery_id HAVING COUNT(*) > 1 LIMIT 5',
  },
  {
    name: 'every SENT delivery has its provider message id and sending time',
    needs: { deliveries: ['id', 'status', 'provider_message_id', 'sent_at'] },
    sql: "SELECT id FROM deliveries WHERE status = 'SENT' AND (provider_message_id IS NULL OR sent_at IS NULL) LIMIT 5",
  },
  {
    name: 'every sandbox message is the send of a SENT delivery, to its address, with its template',
    needs: { outbox_messages: ['id', 'delivery_id', 'to', 'template'], deliveries: ['id', 'status', 'to', 'template'] },
    sql: `SELECT o.id, o.delivery_id, d.status FROM outbox_messages o LEFT JOIN deliveries d ON d.id = o.delivery_id
           WHERE d.id IS NULL OR d.status != 'SENT' OR d."to" != o."to" OR d.template != o.template LIMIT 5`,
  },
];

/** Runs every check; a table or column it needs that does not exist is a violation. */
export async function runChecks(db, checks = CHECKS) {
  const columnsOf = new Map();
  const results = [];
  for (const check of checks) {
    const missing = [];
    for (const [table, columns] of Object.entries(check.needs)) {
      if (!columnsOf.has(table)) {
        const info = await db.prepare(`SELECT name FROM pragma_table_info('${table}')`).all();
        columnsOf.set(table, new Set(info.results.map((r) => r.name)));
      }
      const have = columnsOf.get(table);
      if (have.size === 0) missing.push(table);
      else for (const c of columns) if (!have.has(c)) missing.push(`${table}.${c}`);
    }
    if (missing.length) {
      results.push({ name: check.name, outcome: 'violated', detail: `absent from the schema: ${missing.join(', ')}` });
      continue;
    }
    try {
      const rows = (await db.prepare(check.sql).all()).results;
      results.push({ name: check.name, outcome: rows.length ? 'violated' : 'passed', detail: rows.length ? JSON.stringify(rows).slice(0, 300) : '' });
    } catch (err) {
      results.push({ name: check.name, outcome: 'violated', detail: `query failed: ${String(err?.message ?? err).slice(0, 300)}` });
    }
  }
  return results;
}

/** A check computed in the script (figures the API answered against the database). */
export const compared = (name, ok, detail) => ({ name, outcome: ok ? 'passed' : 'violated', detail: ok ? '' : detail });
