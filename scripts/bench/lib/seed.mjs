// A realistic data set inserted with direct SQL batches: thousands of users, trips, reservations
// (every status), items, notifications and reviews. Multi-row INSERTs stay under D1's 100 bound
// parameters per statement. One PBKDF2 hash in the worker's own format is reused for every user.
import { pbkdf2Sync, randomBytes } from 'node:crypto';

export const BENCH_PASSWORD = 'Bench-password-1';

/** `pbkdf2-sha256$100000$<salt b64>$<hash b64>`, as src/lib/password.ts writes it. */
export function benchPasswordHash(password = BENCH_PASSWORD, iterations = 100_000) {
  const salt = randomBytes(16);
  const hash = pbkdf2Sync(password, salt, iterations, 32, 'sha256');
  return `pbkdf2-sha256$${iterations}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

// Deterministic data from run to run.
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const CITIES = [
  ['Paris', 'FR'], ['Lyon', 'FR'], ['Marseille', 'FR'], ['Dakar', 'SN'], ['Abidjan', 'CI'], ['Douala', 'CM'],
  ['Casablanca', 'MA'], ['Tunis', 'TN'], ['Bruxelles', 'BE'], ['Montreal', 'CA'], ['Bamako', 'ML'], ['Lome', 'TG'],
];
const MODES = ['PLANE', 'TRAIN', 'CAR', 'BUS', 'BOAT'];
// Share of each status among seeded reservations.
const STATUS_MIX = [
  ['PENDING_PAYMENT', 0.08], ['PAID', 0.1], ['CONFIRMED', 0.15], ['DEPOSITED', 0.1], ['IN_TRANSIT', 0.1],
  ['DELIVERED', 0.3], ['CANCELLED', 0.1], ['EXPIRED', 0.05], ['REJECTED', 0.02],
];
const CAPACITY_HOLDING = "('PENDING_PAYMENT','PAID','CONFIRMED','DEPOSITED','IN_TRANSIT','DELIVERED','DISPUTED','REFUNDED')";

const day = (offsetDays) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
const instant = (offsetMs) => new Date(Date.now() + offsetMs).toISOString();

/**
 * Runs statements `{sql, params}` as atomic batches through the primitives worker's SQL helper
 * (one HTTP round trip per batch; Miniflare's D1 proxy costs two round trips per statement).
 */
export const sqlBatcher = (primitivesUrl) => async (statements) => {
  const res = await fetch(new URL('/__sql/batch', primitivesUrl), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(statements),
  });
  if (!res.ok) throw new Error(`SQL batch failed: ${res.status} ${(await res.text()).slice(0, 500)}`);
  return res.json();
};

/** Inserts rows with as many rows per statement as 100 bound parameters allow, in batches. */
export async function insertRows(exec, table, columns, rows, statementsPerBatch = 100) {
  const perStatement = Math.max(1, Math.floor(100 / columns.length));
  const tuple = `(${columns.map(() => '?').join(',')})`;
  const sqlFor = (n) => `INSERT INTO ${table} (${columns.join(',')}) VALUES ${Array(n).fill(tuple).join(',')}`;
  const rowsPerBatch = perStatement * statementsPerBatch;
  for (let b = 0; b < rows.length; b += rowsPerBatch) {
    const statements = [];
    for (let i = b; i < Math.min(rows.length, b + rowsPerBatch); i += perStatement) {
      const chunk = rows.slice(i, Math.min(i + perStatement, b + rowsPerBatch));
      statements.push({ sql: sqlFor(chunk.length), params: chunk.flat() });
    }
    await exec(statements);
  }
}

const locate = (side) =>
  `(SELECT latitude, longitude FROM places WHERE name_key = announcements.${side}_city_key AND country_code = announcements.${side}_country ORDER BY population DESC LIMIT 1)`;
const cell = (lat, lng) => `CASE WHEN ${lat} IS NULL THEN NULL ELSE CAST((${lat} + 90) / 2 AS INTEGER) * 180 + CAST((${lng} + 180) / 2 AS INTEGER) END`;
const PLACE_TRIPS = [
  `UPDATE announcements SET (departure_latitude, departure_longitude) = ${locate('departure')}`,
  `UPDATE announcements SET (arrival_latitude, arrival_longitude) = ${locate('arrival')}`,
  `UPDATE announcements SET departure_cell = ${cell('departure_latitude', 'departure_longitude')}, arrival_cell = ${cell('arrival_latitude', 'arrival_longitude')}`,
];

export const emailOf = (userId) => `user${userId}@bench.local`;

export async function seed(exec, { scale = 1, passwordHash = benchPasswordHash(), log = console.log } = {}) {
  const sql = (text) => exec([{ sql: text, params: [] }]);
  const started = Date.now();
  const random = rng(42);
  const pick = (list) => list[Math.floor(random() * list.length)];
  const between = (min, max) => min + Math.floor(random() * (max - min + 1));

  const carriers = Math.round(1000 * scale);
  const userCount = Math.round(5000 * scale);
  const announcementCount = carriers * 3;
  const reservationCount = Math.round(20000 * scale);
  const notificationCount = Math.round(20000 * scale);

  // Users 1..carriers are verified carriers, the rest senders; then one admin and one super-admin.
  const userRows = [];
  for (let id = 1; id <= userCount + 2; id++) {
    const roles =
      id <= carriers ? ['ROLE_CLIENT', 'ROLE_VERIFIED_USER'] : id === userCount + 1 ? ['ROLE_CLIENT', 'ROLE_ADMIN'] : id === userCount + 2 ? ['ROLE_CLIENT', 'ROLE_SUPERADMIN'] : ['ROLE_CLIENT'];
    userRows.push([emailOf(id), passwordHash, `First${id}`, `Last${id}`, JSON.stringify(roles), id <= carriers ? 'VERIFIED' : 'NOT_VERIFIED', 1, instant(-between(1, 365) * 86_400_000)]);
  }
  await insertRows(exec, 'users', ['email', 'password_hash', 'first_name', 'last_name', 'roles', 'kyc_status', 'email_verified', 'created_at'], userRows);

  const announcements = [];
  for (let id = 1; id <= announcementCount; id++) {
    const carrierId = ((id - 1) % carriers) + 1;
    const [from, fromCountry] = pick(CITIES);
    let [to, toCountry] = pick(CITIES);
    if (to === from) [to, toCountry] = CITIES[(CITIES.findIndex((c) => c[0] === from) + 3) % CITIES.length];
    const departs = between(2, 90);
    announcements.push({
      id, carrierId, capacity: between(20, 40) * 1000, reserved: 0, price: between(5, 25) * 100,
      row: [carrierId, from, fromCountry, to, toCountry, from.toLowerCase(), to.toLowerCase(), day(departs), day(departs + between(0, 2)), between(5, 25) * 100, 'EUR', pick(MODES), 'ACTIVE', instant(-between(1, 60) * 86_400_000)],
    });
  }
  // total_weight_g and price follow; reserved_weight_g is computed from the reservations below.
  await insertRows(
    exec,
    'announcements',
    ['carrier_id', 'departure_city', 'departure_country', 'arrival_city', 'arrival_country', 'departure_city_key', 'arrival_city_key', 'departure_date', 'arrival_date', 'price_per_kg_cents', 'currency', 'transport_mode', 'status', 'created_at', 'total_weight_g'],
    announcements.map((a) => {
      a.row[9] = a.price;
      return [...a.row, a.capacity];
    }),
  );

  // Placed on the map as publishing places them (the places come with the migrations; SQL of
  // migrations/0076_corridor_places.sql): the nearby search reads the coordinates and cells.
  await exec(PLACE_TRIPS.map((text) => ({ sql: text, params: [] })));

  const reservationRows = [];
  const byStatus = {};
  const parties = {};
  const cumulative = [];
  let acc = 0;
  for (const [status, share] of STATUS_MIX) cumulative.push([status, (acc += share)]);
  for (let id = 1; id <= reservationCount; id++) {
    const weight = between(5, 30) * 100;
    let a = pick(announcements);
    for (let tries = 0; a.capacity - a.reserved < weight && tries < 20; tries++) a = pick(announcements);
    if (a.capacity - a.reserved < weight) break;
    const r = random();
    const status = cumulative.find(([, c]) => r < c)?.[0] ?? 'DELIVERED';
    if (CAPACITY_HOLDING.includes(`'${status}'`)) a.reserved += weight;
    const senderId = between(carriers + 1, userCount);
    const total = Math.round((weight * a.price) / 1000);
    const commission = Math.round(total * 0.15);
    const listed = (byStatus[status] ??= []).length < 3000;
    if (listed) byStatus[status].push(id);
    const depositCode = String(between(0, 999999)).padStart(6, '0');
    const deliveryCode = String(between(0, 999999)).padStart(6, '0');
    // Parties and handover codes of the first reservations and of every one listed by status, for
    // generators that act as them (the deposit consumes 500 CONFIRMED ones a round: five rounds
    // need 2,500, more than the first 5,000 reservations hold).
    if (id <= 5000 || listed) parties[id] = [senderId, a.carrierId, depositCode, deliveryCode];
    reservationRows.push([
      `BR-${String(id).padStart(8, '0')}`, a.id, senderId, a.carrierId, status, weight, 'Clothes and books',
      depositCode, deliveryCode,
      JSON.stringify({ firstName: 'Rita', lastName: `Recipient${id}`, phone: '+221700000000', city: 'Dakar' }),
      randomBytes(24).toString('base64url'), a.price, total, commission, total - commission, 'EUR',
      instant(30 * 60_000), instant(-between(0, 60 * 24 * 60) * 60_000),
    ]);
  }
  await insertRows(
    exec,
    'reservations',
    ['reservation_number', 'announcement_id', 'sender_id', 'carrier_id', 'status', 'reserved_weight_g', 'content_info', 'deposit_code', 'delivery_code', 'recipient', 'recipient_token', 'price_per_kg_cents', 'total_amount_cents', 'platform_commission_cents', 'carrier_amount_cents', 'currency', 'payment_deadline', 'created_at'],
    reservationRows,
  );
  await sql(
    `UPDATE announcements SET reserved_weight_g = COALESCE((SELECT SUM(r.reserved_weight_g) FROM reservations r
       WHERE r.announcement_id = announcements.id AND r.status IN ${CAPACITY_HOLDING}), 0)`,
  );
  await sql(`UPDATE announcements SET status = 'FULL' WHERE reserved_weight_g >= total_weight_g`);

  await insertRows(
    exec,
    'reservation_items',
    ['reservation_id', 'name', 'reserved_quantity', 'weight'],
    reservationRows.map((_, i) => [i + 1, 'Parcel', 1, reservationRows[i][5] / 1000]),
  );

  const notificationRows = [];
  for (let i = 0; i < notificationCount; i++) {
    notificationRows.push([between(1, userCount), 'RESERVATION_STATUS', 'Reservation updated', 'Your reservation changed status', random() < 0.5 ? instant(-1000) : null, instant(-between(0, 60 * 24 * 60) * 60_000)]);
  }
  await insertRows(exec, 'notifications', ['user_id', 'type', 'title', 'message', 'read_at', 'created_at'], notificationRows);

  // Senders review the carrier of every delivered reservation; rating aggregates follow.
  const reviewRows = reservationRows
    .map((row, i) => ({ id: i + 1, row }))
    .filter(({ row }) => row[4] === 'DELIVERED')
    .map(({ id, row }) => [id, row[2], row[3], 'SENDER', between(3, 5), 'Smooth handover, parcel on time', row[17]]);
  await insertRows(exec, 'reviews', ['reservation_id', 'reviewer_id', 'reviewee_id', 'reviewer_role', 'rating', 'comment', 'created_at'], reviewRows);
  await sql(
    `INSERT INTO user_ratings (user_id, review_count, rating_sum)
       SELECT reviewee_id, COUNT(*), SUM(rating) FROM reviews GROUP BY reviewee_id`,
  );
  await sql(
    `INSERT INTO review_totals (reviewer_role, visible_count)
       SELECT reviewer_role, COUNT(*) FROM reviews WHERE hidden = 0 GROUP BY reviewer_role
       ON CONFLICT (reviewer_role) DO UPDATE SET visible_count = excluded.visible_count`,
  );
  await sql('ANALYZE');

  const counts = {
    users: userRows.length,
    announcements: announcements.length,
    reservations: reservationRows.length,
    reservationItems: reservationRows.length,
    notifications: notificationRows.length,
    reviews: reviewRows.length,
  };
  log(`seeded ${Object.entries(counts).map(([k, v]) => `${v} ${k}`).join(', ')} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return {
    counts,
    password: BENCH_PASSWORD,
    passwordHash,
    carriers,
    userCount,
    adminId: userCount + 1,
    superAdminId: userCount + 2,
    // Open trips with room left, for booking generators.
    openAnnouncements: announcements.filter((a) => a.capacity - a.reserved >= 5000).slice(0, 2000).map((a) => ({ id: a.id, carrierId: a.carrierId })),
    routes: [...new Set(announcements.map((a) => `${a.row[1]}|${a.row[3]}`))].slice(0, 100).map((r) => r.split('|')),
    reservationsByStatus: byStatus,
    parties,
  };
}
