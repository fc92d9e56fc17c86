// Benchmark-only entry: the API itself, with every D1 round trip it makes recorded, so that the
// raw reference of an endpoint (scripts/bench/primitives-worker.ts, route /ref) can replay the very
// statements, with the very parameters, through the D1 binding. Served beside the API in the same
// workerd on the same D1 during the bench's capture step, never measured.
//
// D1's session sends each round trip through one of two methods of its prototype: `_send`
// (statements' all/first/run/raw and batch()) or `_queryOrThrow` (the same under d1_binding_jsrpc).
// Both are wrapped once, on the prototype, so every session sees them (the app's countingSession
// then wraps the instance on top). Requests are captured one at a time (the harness sends them in
// sequence): each request's round trips are the ones made between its start and the next request.
import api from '../../src/index';

export { ReservationQr, ReservationTracking, Conversation, ReservationStatusFeed } from '../../src/index';

/** One round trip: a single statement (/query returns rows, /execute only changes) or a batch. */
interface RoundTrip {
  batch: boolean;
  endpoint: string;
  statements: { sql: string; params: unknown[] }[];
}

let current: RoundTrip[] | null = null;
const captured: { path: string; status: number; roundTrips: RoundTrip[] }[] = [];
let patched = false;

function instrument(db: D1Database) {
  if (patched) return;
  patched = true;
  let proto = Object.getPrototypeOf(db.withSession('first-unconstrained'));
  while (proto && !Object.prototype.hasOwnProperty.call(proto, '_send')) proto = Object.getPrototypeOf(proto);
  if (!proto) throw new Error('D1 session transport not found: the capture relies on workerd internals');
  const send = proto._send;
  proto._send = function (endpoint: string, query: string | string[], params: unknown[], ...rest: unknown[]) {
    current?.push(
      Array.isArray(query)
        ? { batch: true, endpoint, statements: query.map((sql, k) => ({ sql, params: (params[k] as unknown[]) ?? [] })) }
        : { batch: false, endpoint, statements: [{ sql: query, params: params ?? [] }] },
    );
    return send.call(this, endpoint, query, params, ...rest);
  };
  const queryOrThrow = proto._queryOrThrow;
  if (typeof queryOrThrow === 'function') {
    proto._queryOrThrow = function (request: { queries: { sql: string; params?: unknown[] }[] }, ...rest: unknown[]) {
      const statements = request.queries.map((q) => ({ sql: q.sql, params: q.params ?? [] }));
      // A batch and a single statement look alike here; exec() sends bare lines without params.
      current?.push({ batch: statements.length > 1, endpoint: '/query', statements });
      return queryOrThrow.call(this, request, ...rest);
    };
  }
}

export default {
  async fetch(request, env, ctx) {
    instrument(env.DB);
    const url = new URL(request.url);
    if (url.pathname === '/__capture') {
      const out = JSON.stringify(captured.splice(0));
      current = null;
      return new Response(out, { headers: { 'content-type': 'application/json' } });
    }
    const entry = { path: url.pathname, status: 0, roundTrips: [] as RoundTrip[] };
    current = entry.roundTrips;
    captured.push(entry);
    const response = await api.fetch!(request as never, env, ctx);
    entry.status = response.status;
    return response;
  },
  queue: api.queue,
  scheduled: api.scheduled,
} satisfies ExportedHandler<Env>;
