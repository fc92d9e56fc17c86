// The one table the benchmark reads: the primitives measured alone, and the API endpoints with
// the primitives each needs. When a feature lands, its endpoint is already declared here; an
// endpoint whose route answers 404/405 ENDPOINT_NOT_FOUND at run time is reported as pending.
//
// An endpoint:
//   name        'METHOD /path' as in the OpenAPI document
//   primitives  names from PRIMITIVES, one per use (two KV gets = 'kv_get' twice)
//   request     (ctx, i) => { method, path, headers?, body? }: the i-th request; runs in the load
//               process, so it may only use `ctx` (plain JSON built by the harness)
//   prepare     optional async (ctx, api, round, apiUrl) => JSON, run by the harness before each measured run
//               (for single-use inputs such as QR payloads); its result is `ctx.prepared`, and a
//               `pool` array in it bounds the run to that many requests
//   hot         a hot endpoint (issue 9): `npm run bench:quick` counts the instructions of these only
//   notCounted  why the instruction count skips the endpoint (reported in its row)
//   singleUse   the prepared inputs are consumed (taken from ctx.confirmedReservations by round):
//               the instruction count prepares them per batch from a slice of its own
//   expect      statuses that count as success (others are reported as errors)
//   spreadInputs the instruction count sends requests over all the target's reservations rather than
//               the captured requests' again and again (a per-user rate limit would refuse those)
//   overTarget  what the endpoint does beyond its primitives (printed when over the CPU target)
//   roundTrips  the most D1 round trips a successful request may make (issue 9's targets: reads
//               one, booking creation a read then one write batch, deposit at most two)
//   d1Uncounted why the app's x-d1-* headers do not cover the endpoint's D1 use (reported as
//               "not counted" rather than 0)

const pickOf = (list, i) => list[i % list.length];
const bearer = (token) => ({ Authorization: `Bearer ${token}` });
const json = (token) => ({ 'Content-Type': 'application/json', ...(token ? bearer(token) : {}) });

/** Live conversations the broadcast entry holds open, per service (one `api` each): its posts each reach two sockets. */
const liveSockets = new WeakMap();
const LIVE_CONVERSATIONS = 100;

/** Opens the sender's and the carrier's socket on each conversation (the token as the subprotocol, as browsers send it). */
async function openConversations(reservations, apiUrl) {
  const sockets = [];
  for (const r of reservations) {
    for (const token of [r.senderToken, r.carrierToken]) {
      const ws = new WebSocket(`${apiUrl.origin.replace(/^http/, 'ws')}/v1/api/bookings/${r.id}/messages/live`, [`bearer.${token}`]);
      await new Promise((resolve, reject) => {
        ws.addEventListener('open', resolve, { once: true });
        ws.addEventListener('error', () => reject(new Error(`live conversation ${r.id} did not open`)), { once: true });
      });
      sockets.push(ws);
    }
  }
  return sockets;
}

/**
 * Wakes (or creates) Durable Objects before a round: one unmeasured POST per `[path, token, body]`,
 * ten at a time. workerd evicts an object after 10 s without a call, and a round runs every other
 * target between two runs of the same one, so the entries that call one object per reservation
 * post to each of theirs first (a woken object's cost: BENCHMARKS.md).
 */
async function wakeObjects(api, posts) {
  for (let k = 0; k < posts.length; k += 10) {
    await Promise.all(
      posts.slice(k, k + 10).map(([path, token, body]) =>
        api(path, { method: 'POST', headers: json(token), body: JSON.stringify(body) }).then((res) => res.arrayBuffer()),
      ),
    );
  }
}

/** Primitive routes of scripts/bench/primitives-worker.ts. `bare` is the baseline of every ratio. */
export const PRIMITIVES = {
  bare: { label: 'bare Hono route', method: 'GET', path: '/bare' },
  d1_read: { label: 'D1 read by primary key (drizzle)', method: 'GET', path: '/d1/read' },
  d1_page: { label: 'D1 page of 20 + COUNT (one batch)', method: 'GET', path: '/d1/page' },
  d1_batch: { label: 'D1 batch: insert + update', method: 'POST', path: '/d1/batch' },
  kv_get: { label: 'KV get', method: 'GET', path: '/kv/get' },
  kv_bulk_get: { label: 'KV bulk get of two keys (the token revocation check)', method: 'GET', path: '/kv/bulk-get' },
  hmac_verify: { label: 'signed token HMAC-SHA256 verify (src/lib/signed-claims.ts: the QR payload)', method: 'GET', path: '/hmac/verify' },
  r2_head: { label: 'R2 head', method: 'GET', path: '/r2/head' },
  do_call: { label: 'Durable Object RPC (storage increment)', method: 'GET', path: '/do/call' },
  rate_limit: { label: 'rate limiter: one limit() call (Workers rate-limiting binding)', method: 'GET', path: '/ratelimit' },
  queue_send: { label: 'queue: one sendBatch() of one message (the deliveries queue)', method: 'GET', path: '/queue/send' },
  select_sql: { label: 'drizzle: build one select by id (SQL text only, no I/O)', method: 'GET', path: '/js/select-sql' },
  search_sql: { label: 'drizzle: build the search page + count, uncompiled (SQL text only, no I/O)', method: 'GET', path: '/js/search-sql' },
  jwt_verify: { label: 'JWT HS256 verify (src/lib/jwt.ts)', method: 'GET', path: '/jwt/verify' },
  jwt_sign: { label: 'JWT HS256 sign (src/lib/jwt.ts)', method: 'GET', path: '/jwt/sign' },
  pbkdf2: { label: 'PBKDF2-SHA256 100,000 iterations (src/lib/password.ts)', method: 'GET', path: '/pbkdf2' },
};

/** requireAuth: verify the bearer token, then one KV bulk read (blacklist and per-user cut-off). */
// rate_limit: one limit() per guarded route (middleware/rate-limit.ts GUARDED_ROUTES, the login's two
// in features/auth/rate-limit.ts, the messages' per conversation), as the load sends CF-Connecting-IP.
// queue_send: one sendBatch() after the response of a request whose batch committed deliveries.
const AUTH = ['jwt_verify', 'kv_bulk_get'];

export const ENDPOINTS = [
  {
    name: 'GET /v1/api/{unknown}',
    note: 'app floor: the full middleware stack, then 404 ENDPOINT_NOT_FOUND; no I/O',
    primitives: [],
    expect: [404],
    request: (_ctx, i) => ({ method: 'GET', path: `/v1/api/bench-floor-${i % 10}` }),
  },
  {
    name: 'GET /v1/api/health',
    d1Uncounted: 'its D1 probe (SELECT 1) goes through the binding, not the request session the counter wraps',
    overTarget: 'A readiness probe: D1 through the binding, KV and R2 checked concurrently, each under its own time limit, and the answer built from the three outcomes.',
    primitives: ['rate_limit', 'd1_read', 'kv_get', 'r2_head'],
    request: () => ({ method: 'GET', path: '/v1/api/health' }),
  },
  {
    name: 'GET /v1/api/reviews/customers',
    overTarget: "Its page joins each reviewer's name; its total is read from review_totals (kept with each review write), and OFFSET walks the pages before the one asked for.",
    roundTrips: 1,
    primitives: ['rate_limit', 'd1_page'],
    request: (_ctx, i) => ({ method: 'GET', path: `/v1/api/reviews/customers?page=${i % 5}` }),
  },
  {
    name: 'GET /v1/api/users/{id}/reviews',
    overTarget: 'Two statements: the page (joined with reviewer names) carrying its total, and the user with their rating summary.',
    roundTrips: 1,
    note: 'page + count + two indexed reads in one batch',
    primitives: ['rate_limit', 'd1_page'],
    request: (ctx, i) => ({ method: 'GET', path: `/v1/api/users/${1 + ((i * 7919) % ctx.carriers)}/reviews` }),
  },
  // ---- hot endpoints of issue 9; measured as soon as their routes exist ----
  {
    name: 'POST /v1/api/auth/login',
    hot: true,
    // PBKDF2 (100,000 iterations) runs on every login, in the endpoint and in its reference alike:
    // under callgrind on this machine one login took over ten seconds (a quick run spent four
    // minutes without finishing its twenty), so the ratio would be PBKDF2's against itself.
    notCounted: 'PBKDF2-SHA256 at 100,000 iterations dominates it, in the endpoint and in its reference alike, and takes over ten seconds a request under callgrind: see its wall-clock row',
    overTarget: "Besides PBKDF2, the two signatures and the two rate limiters: a write batch of 6 statements (login stamp, audit row, session row, and the three reads of the response's wallet numbers) where the primitive has 2.",
    roundTrips: 2,
    note: 'login is rate limited per IP and per email: requests spread over emails and CF-Connecting-IP values',
    primitives: ['rate_limit', 'rate_limit', 'd1_read', 'pbkdf2', 'jwt_sign', 'jwt_sign', 'd1_batch'],
    request: (ctx, i) => {
      const userId = 1 + ((i * 104729) % ctx.userCount);
      return {
        method: 'POST',
        path: '/v1/api/auth/login',
        headers: { ...json(), 'CF-Connecting-IP': `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` },
        body: { email: `user${userId}@bench.local`, password: ctx.password },
      };
    },
  },
  {
    name: 'GET /v1/api/annonces',
    hot: true,
    overTarget: 'One statement (the primitive runs two): a 3-table join (trip, carrier profile, rating) of up to 20 rows of 30-odd columns, each carrying the count of matching trips; the page primitive reads one table.',
    roundTrips: 1,
    note: 'search by route, departure date order',
    primitives: ['rate_limit', 'd1_page'],
    request: (ctx, i) => {
      const [from, to] = pickOf(ctx.routes, i);
      return { method: 'GET', path: `/v1/api/annonces?departureCity=${from}&arrivalCity=${to}&sort=departureDate,asc` };
    },
  },
  {
    name: 'GET /v1/api/annonces (nearby: radiusKm 150, date ± 3 days)',
    hot: true,
    overTarget: 'Two statements (CONTRACT section 30): the candidates (each pair of cells of the two discs, then the dates, with the carrier rating), then the page of trips by id, joined with the carrier profile like the plain search; between them the exact distance and the score in code.',
    roundTrips: 2,
    note: 'a sender asking "from A to B around day D": radiusKm=150, date D (2 to 90 days ahead), dateFlexDays=3',
    primitives: ['rate_limit', 'd1_page', 'd1_read'],
    request: (ctx, i) => {
      const [from, to] = pickOf(ctx.routes, i);
      const date = new Date(Date.now() + (2 + ((i * 7) % 89)) * 86_400_000).toISOString().slice(0, 10);
      return { method: 'GET', path: `/v1/api/annonces?departureCity=${from}&arrivalCity=${to}&radiusKm=150&date=${date}&dateFlexDays=3` };
    },
  },
  {
    name: 'GET /v1/api/bookings/as-carrier',
    hot: true,
    overTarget: "One statement (the primitive runs two): the page of reservation views (a 4-table join of the 40 columns the Reservation shows, each row's items as one JSON column) carrying its total; then the Reservation DTO of each row.",
    roundTrips: 1,
    primitives: [...AUTH, 'd1_page'],
    request: (ctx, i) => ({ method: 'GET', path: '/v1/api/bookings/as-carrier', headers: bearer(pickOf(ctx.carrierTokens, i).token) }),
  },
  {
    name: 'GET /v1/api/bookings/{id}',
    hot: true,
    overTarget: 'One statement like the primitive, but the reservation view is a 4-table join (the 40 columns the Reservation shows, the items as a JSON column) against a one-table read; then the Reservation DTO (45 fields).',
    roundTrips: 1,
    primitives: [...AUTH, 'd1_read'],
    request: (ctx, i) => {
      const r = pickOf(ctx.reservations, i);
      return { method: 'GET', path: `/v1/api/bookings/${r.id}`, headers: bearer(r.senderToken) };
    },
  },
  {
    name: 'POST /v1/api/bookings',
    hot: true,
    overTarget: "Two round trips as targeted: one read statement (the trip with its carrier and agency, the sender, the categories as a JSON column), then a write batch of 4 plus one per item (a guarded insert into reservations, which carries 9 indexes; the capacity update; the carrier's notification; its e-mail, push and SMS rows in one insert, each reading the carrier's address, locale and preferences; each item), against one read and a 2-statement batch.",
    roundTrips: 2,
    note: 'one conditional capacity update + inserts in one batch',
    primitives: [...AUTH, 'rate_limit', 'd1_read', 'd1_batch', 'queue_send'],
    expect: [201],
    request: (ctx, i) => {
      const a = pickOf(ctx.openAnnouncements, i);
      const sender = pickOf(ctx.senderTokens, i);
      return {
        method: 'POST',
        path: '/v1/api/bookings',
        headers: json(sender.token),
        body: {
          announcementId: a.id,
          reservedWeight: 0.1,
          contentInfo: 'Books',
          items: [{ categoryId: ctx.categoryId, name: 'Books', reservedQuantity: 1, weight: 0.1 }],
          recipient: { firstName: 'Rita', lastName: 'Recipient', phone: '+221700000000', email: 'rita@example.com', city: 'Dakar' },
        },
      };
    },
  },
  {
    name: 'POST /v1/api/qrcode/process/depot',
    hot: true,
    overTarget: "Besides the QR signature (HMAC), the single-use check in the reservation's QR object (one conditional UPDATE) and, after the response, the refresh of its status feed (a second object, which reads the reservation from D1 and tells its sockets: CONTRACT 28): one batch of 4 statements (the sender's notification; one deliveries insert of the sender's e-mail, push and SMS and the recipient's e-mail and SMS, each guarded on the reservation's status and reading its address; the conditional UPDATE; the response view, a 4-table join with its items), against a 2-statement batch.",
    roundTrips: 2,
    note: 'payloads are single-use: fetched by each sender just before the run; one batch (transition, notification, the view); no capture (seeded bookings are unpaid)',
    // Two object calls: the QR object's single-use check, then the status feed's refresh (its own
    // D1 read is not captured, so the reference still leaves that out).
    primitives: [...AUTH, 'hmac_verify', 'do_call', 'do_call', 'd1_batch', 'queue_send'],
    singleUse: true,
    async prepare(ctx, api, round = 1) {
      const pool = [];
      for (const r of ctx.confirmedReservations.slice((round - 1) * ctx.poolSize, round * ctx.poolSize)) {
        const res = await api(`/v1/api/bookings/${r.id}/qrcode/deposit`, { headers: bearer(r.senderToken) });
        if (res.status !== 200) continue;
        pool.push({ payload: (await res.json()).payload, carrierToken: r.carrierToken });
      }
      return { pool };
    },
    request: (ctx, i) => {
      const p = ctx.prepared.pool[i % ctx.prepared.pool.length];
      return { method: 'POST', path: '/v1/api/qrcode/process/depot', headers: json(p.carrierToken), body: { payload: p.payload } };
    },
  },
  {
    name: 'POST /v1/api/tracking/{reservationId}/positions',
    hot: true,
    overTarget: 'The Durable Object call (its argument the validated batch of points, structured-cloned) inserts each point into the indexed history (the trim runs only past 1,000 points), where the primitive increments one stored value; the body is parsed and validated (zod) first.',
    roundTrips: 1,
    note: 'tracking ingest: one point per request into the reservation Durable Object',
    primitives: [...AUTH, 'd1_read', 'do_call'],
    expect: [200, 201, 202],
    // Steady state: every reservation's tracking object exists (its first point creates its
    // SQLite storage, a one-off per parcel) and is awake, as when a parcel posts every few seconds.
    async prepare(ctx, api) {
      const point = () => ({ lat: 14.69, lng: -17.44, recordedAt: new Date().toISOString() });
      await wakeObjects(api, ctx.inTransitReservations.map((r) => [`/v1/api/tracking/${r.id}/positions`, r.carrierToken, point()]));
      return {};
    },
    request: (ctx, i) => {
      const r = pickOf(ctx.inTransitReservations, i);
      return {
        method: 'POST',
        path: `/v1/api/tracking/${r.id}/positions`,
        headers: json(r.carrierToken),
        body: { lat: 14.69 + (i % 100) / 1000, lng: -17.44, accuracy: 10, recordedAt: new Date().toISOString() },
      };
    },
  },
  {
    name: 'POST /v1/api/bookings/{id}/messages',
    hot: true,
    overTarget:
      "Besides its primitives: one read statement (the reservation, the caller's name, an agency trip's staff), the masking rule, the conversation object's two SQLite statements (store the message, its counters kept in memory) and the index upsert with the notification when one is due, where the primitive increments one stored value.",
    roundTrips: 2,
    note: 'message posting: sender and carrier take turns over the in-transit reservations (30 messages a minute per user and conversation)',
    primitives: [...AUTH, 'rate_limit', 'd1_read', 'do_call', 'd1_batch'],
    expect: [201],
    // Counted over all its reservations, not the ten captured requests again and again: those are
    // five conversations, whose 30 messages a minute per user a fast enough count exceeds (429).
    spreadInputs: true,
    // Steady state: every conversation object exists (its first message creates its SQLite tables,
    // a one-off per reservation), is awake as during an exchange, and its counterpart was already
    // notified (one per 10 minutes).
    async prepare(ctx, api) {
      const hello = { body: 'Bonjour' };
      await wakeObjects(
        api,
        ctx.inTransitReservations.flatMap((r) => [r.senderToken, r.carrierToken].map((token) => [`/v1/api/bookings/${r.id}/messages`, token, hello])),
      );
      return {};
    },
    request: (ctx, i) => {
      const r = pickOf(ctx.inTransitReservations, Math.floor(i / 2));
      return {
        method: 'POST',
        path: `/v1/api/bookings/${r.id}/messages`,
        headers: json(i % 2 ? r.senderToken : r.carrierToken),
        body: { body: `Rendez-vous devant la gare à ${8 + (i % 10)}h, colis n°${i % 1000}` },
      };
    },
  },
  {
    name: 'POST /v1/api/bookings/{id}/messages (to open sockets)',
    hot: true,
    overTarget:
      'Message posting as above, while both parties hold the conversation open: the object also pushes the message to two sockets (one JSON frame each), and nobody is notified.',
    roundTrips: 2,
    note: `message posting and its broadcast: ${LIVE_CONVERSATIONS} conversations, each with the sender's and the carrier's socket open`,
    primitives: [...AUTH, 'rate_limit', 'd1_read', 'do_call', 'd1_batch'],
    expect: [201],
    spreadInputs: true,
    // The sockets stay open across rounds; an object holding only hibernated sockets is evicted
    // like any other, so each round wakes its conversations with one message each first.
    async prepare(ctx, api, _round, apiUrl) {
      const live = ctx.inTransitReservations.slice(0, LIVE_CONVERSATIONS);
      if (!liveSockets.has(api)) liveSockets.set(api, await openConversations(live, apiUrl));
      await wakeObjects(api, live.map((r) => [`/v1/api/bookings/${r.id}/messages`, r.senderToken, { body: 'Bonjour' }]));
      return {};
    },
    request: (ctx, i) => {
      const r = pickOf(ctx.inTransitReservations.slice(0, LIVE_CONVERSATIONS), Math.floor(i / 2));
      return {
        method: 'POST',
        path: `/v1/api/bookings/${r.id}/messages`,
        headers: json(i % 2 ? r.senderToken : r.carrierToken),
        body: { body: `Je suis devant la gare, quai ${i % 10}` },
      };
    },
  },
  {
    name: 'GET /v1/api/notifications',
    hot: true,
    overTarget: "Page and count of the caller's notifications, like the page primitive: near the target, within it in other runs of the same code.",
    roundTrips: 1,
    primitives: [...AUTH, 'd1_page'],
    request: (ctx, i) => ({ method: 'GET', path: '/v1/api/notifications', headers: bearer(pickOf(ctx.userTokens, i).token) }),
  },
];

export function findDefinition(kind, name) {
  if (kind === 'primitive') {
    const p = PRIMITIVES[name];
    return { name, expect: [200], request: () => ({ method: p.method, path: p.path }) };
  }
  return ENDPOINTS.find((e) => e.name === name);
}
