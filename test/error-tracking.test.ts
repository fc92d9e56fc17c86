// Error tracking: an unexpected error reaches Sentry (a fake ingest intercepted by msw) once, without
// secrets; a client's error never does; without a DSN nothing leaves the worker at all.
import { createRoute, z } from '@hono/zod-openapi';
import { createExecutionContext, createMessageBatch, createScheduledController, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../src/app';
import { createRouter } from '../src/env';
import { ingestOf, withErrorTracking } from '../src/error-tracking';
import worker from '../src/index';
import { jsonContent } from '../src/lib/openapi';
import { SCHEDULED_JOBS } from '../src/scheduled';
import { depsOf, type Deps } from '../src/env';
import { runMoneyJobs } from '../src/features/money/money.jobs';
import { runReservationExpiry } from '../src/features/bookings/bookings.jobs';
import { closeCheckout } from '../src/features/money';
import { IdParams } from '../src/validation';

const DSN = 'https://publickey@sentry.test/42';
const INGEST = 'https://sentry.test/api/42/envelope/';
const BEARER = 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI3In0.c2VjcmV0LXNpZ25hdHVyZQ';
const RECIPIENT_TOKEN = 'rcpt_9f8e7d6c5b4a39281706f5e4d3c2b1a0';

/** msw records a request once it has read its body, a little after the worker's fetch settled. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 30));

/** Every outbound request the worker makes, whatever its destination. */
const outbound: { method: string; url: string; body: string }[] = [];
const server = setupServer(http.post(INGEST, () => HttpResponse.json({ id: 'ok' })));
server.events.on('request:start', async ({ request }) => {
  outbound.push({ method: request.method, url: request.url, body: await request.clone().text() });
});
beforeAll(() => server.listen({ onUnhandledRequest: 'bypass' }));
afterEach(() => {
  outbound.length = 0;
  vi.restoreAllMocks();
});
afterAll(() => server.close());

// Probe routes on a fresh app: an unexpected failure (on a recipient link, whose token is a secret)
// and a validated parameter.
const probe = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/public/recipient/{token}/explode',
      request: { params: z.object({ token: z.string() }) },
      responses: { 200: jsonContent(z.any(), 'never') },
    }),
    () => {
      throw new Error('ledger invariant broken for reservation 77');
    },
  )
  .openapi(
    createRoute({ method: 'get', path: '/probe/items/{id}', request: { params: IdParams }, responses: { 200: jsonContent(z.any(), 'ok') } }),
    (c) => c.json({ id: c.req.valid('param').id }, 200),
  );
const probeApp = createApp();
probeApp.route('/v1/api', probe);
const tracked = withErrorTracking({ fetch: probeApp.fetch, scheduled: async () => {}, queue: async () => {} });

const withDsn = { ...env, SENTRY_DSN: DSN } as Env;

async function send(path: string, bindings: Env) {
  const ctx = createExecutionContext();
  const res = await tracked.fetch(new Request(`https://api.example.com${path}`, { headers: { Authorization: BEARER } }), bindings, ctx);
  const body = (await res.json()) as { errorCode: string };
  await waitOnExecutionContext(ctx);
  await settle();
  return { status: res.status, body };
}

async function runCron(bindings: Env) {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: '*/5 * * * *' }), bindings, ctx);
  await waitOnExecutionContext(ctx);
  await settle();
}

/** The event items of the envelopes posted to the fake ingest. */
const reportedEvents = () =>
  outbound
    .filter((r) => r.method === 'POST' && r.url.startsWith(INGEST))
    .flatMap((r) => r.body.split('\n').filter(Boolean).map((line) => JSON.parse(line)))
    .filter((item) => item.exception);

describe('error tracking without a DSN', () => {
  it('an unexpected error is answered 500 and nothing leaves the worker', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const res = await send(`/v1/api/public/recipient/${RECIPIENT_TOKEN}/explode`, env);
    expect(res.status).toBe(500);
    expect(outbound).toEqual([]);
  });

  it('a failing cron job is logged and nothing leaves the worker', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(SCHEDULED_JOBS, 'money').mockRejectedValue(new Error('payout run failed'));
    await runCron(env);
    expect(errors.mock.calls.map((args) => String(args[0]))).toContainEqual(expect.stringContaining('payout run failed'));
    expect(outbound).toEqual([]);
  });
});

describe('error tracking with a DSN', () => {
  it('an unexpected error is reported once, with its message and without credentials or the recipient token', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const res = await send(`/v1/api/public/recipient/${RECIPIENT_TOKEN}/explode`, withDsn);
    expect(res.status).toBe(500);
    expect(res.body.errorCode).toBe('INTERNAL_ERROR');

    const posts = outbound.filter((r) => r.url.startsWith(INGEST));
    expect(posts).toHaveLength(1);
    expect(outbound).toHaveLength(1); // nothing else left the worker
    const [event] = reportedEvents();
    expect(event.exception.values[0]).toMatchObject({ type: 'Error', value: 'ledger invariant broken for reservation 77' });
    expect(event.environment).toBe('test');
    const sent = posts[0].body;
    expect(sent).not.toMatch(/authorization/i);
    expect(sent).not.toContain(BEARER.slice(7));
    expect(sent).not.toContain(RECIPIENT_TOKEN);
    expect(event.request?.url).toBe('https://api.example.com/v1/api/public/recipient/:token/explode');
  });

  it('client errors are not reported: 404 and 400', async () => {
    expect((await send('/v1/api/no-such-endpoint', withDsn)).status).toBe(404);
    expect((await send('/v1/api/probe/items/abc', withDsn)).status).toBe(400);
    expect(outbound).toEqual([]);
  });

  it('the worker entry serves as before: a JSON body reaches the handler, a 401 is not reported', async () => {
    const ctx = createExecutionContext();
    const res = await worker.fetch(
      new Request('https://api.example.com/v1/api/auth/login', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: 'nobody@example.com', password: 'Wrong-password-1' }),
      }),
      withDsn,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ errorCode: 'AUTHENTICATION_ERROR' });
    expect(outbound).toEqual([]);
  });

  it('a failing cron job is reported with the job named, the other jobs still run', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(SCHEDULED_JOBS, 'money').mockRejectedValue(new Error('payout run failed'));
    const expiry = vi.spyOn(SCHEDULED_JOBS, 'reservationExpiry');
    await runCron(withDsn);
    expect(expiry).toHaveBeenCalledOnce();
    const events = reportedEvents();
    expect(events).toHaveLength(1);
    expect(events[0].exception.values[0]).toMatchObject({ type: 'Error', value: 'payout run failed' });
    expect(events[0].tags).toMatchObject({ job: 'money' });
  });

  it('a money step, reservation expiry or checkout closing that fails is reported, though the job catches it and carries on', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    // D1 refuses every statement: each step fails on its own and the job still returns.
    const broken = (deps: Deps): Deps => ({
      ...deps,
      db: new Proxy(deps.db, {
        get: (target, key) =>
          ['select', 'update', 'insert', 'delete', 'batch'].includes(String(key))
            ? () => {
                throw new Error('D1_ERROR: database is locked');
              }
            : Reflect.get(target, key),
      }),
    });
    vi.spyOn(SCHEDULED_JOBS, 'money').mockImplementation((deps, at) => runMoneyJobs(broken(deps), at));
    vi.spyOn(SCHEDULED_JOBS, 'reservationExpiry').mockImplementation((deps, at) => runReservationExpiry(broken(deps), at));
    await runCron(withDsn);
    const tags = reportedEvents().map((e) => e.tags);
    expect(tags.filter((t) => t.job === 'money').map((t) => t.step).sort()).toEqual(
      ['autoWithdrawals', 'captured', 'heldReleased', 'payInsChecked', 'settlementsRetried', 'withdrawalsRetried'],
    );
    expect(tags.filter((t) => t.msg === 'reservation job failed').map((t) => t.job).sort()).toEqual(['removed-trip-sweep', 'reservation-expiry', 'suspension-sweep']);
    expect(reportedEvents().every((e) => e.exception.values[0].value === 'D1_ERROR: database is locked')).toBe(true);

    outbound.length = 0;
    const deps = depsOf(withDsn);
    const refusing = { ...deps, providers: { ...deps.providers, payment: { ...deps.providers.payment, expireCheckoutSession: async () => { throw new Error('Stripe is unavailable'); } } } } as Deps;
    await closeCheckout(refusing, { id: 991, paymentId: 'cs_test_unclosed', paymentStatus: 'PENDING' });
    await settle();
    const [closing] = reportedEvents();
    expect(closing.exception.values[0].value).toBe('Stripe is unavailable');
    expect(closing.tags).toEqual({ msg: 'checkout session not closed', reservationId: '991' });
  });

  it('a crashing queue consumer is reported with its queue named, and still fails the batch', async () => {
    const crashing = withErrorTracking({ fetch: probeApp.fetch, scheduled: async () => {}, queue: async () => { throw new Error('consumer crashed'); } });
    const ctx = createExecutionContext();
    const batch = createMessageBatch('deliveries', [{ id: 'm1', timestamp: new Date(), attempts: 1, body: {} }]);
    await expect(crashing.queue(batch, withDsn, ctx)).rejects.toThrow('consumer crashed');
    await waitOnExecutionContext(ctx);
    await settle();
    const events = reportedEvents();
    expect(events).toHaveLength(1);
    expect(events[0].exception.values[0]).toMatchObject({ type: 'Error', value: 'consumer crashed' });
    expect(events[0].tags).toEqual({ queue: 'deliveries' });
  });
});

describe('the DSN', () => {
  it('names the envelope endpoint and its key; a DSN without key or project is refused', () => {
    expect(ingestOf('https://publickey@sentry.test/42')).toEqual({ url: 'https://sentry.test/api/42/envelope/', key: 'publickey' });
    expect(ingestOf('https://k@o1.ingest.example.io/sub/7')).toEqual({ url: 'https://o1.ingest.example.io/sub/api/7/envelope/', key: 'k' });
    expect(ingestOf('https://sentry.test/42')).toBeNull();
    expect(ingestOf('not a url')).toBeNull();
  });
});
