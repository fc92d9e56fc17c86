// Error tracking: unexpected errors (500 answers, failed cron jobs, a crashing queue consumer) go to
// Sentry when SENTRY_DSN is configured, and nowhere when it is not: without a DSN nothing leaves the
// worker. Events never carry a secret: no user, header, cookie or body, and recipient tokens and
// token parameters masked wherever they appear.
//
// Why not Sentry's SDK: with everything but error events turned off, @sentry/cloudflare still put
// 185 KiB (minified) of tracing, breadcrumbs and integrations in the bundle, over a third of the
// 500 KiB gzip budget's room. What is used of it is one documented call: an event posted as an
// envelope to the project's ingest endpoint (https://develop.sentry.dev/sdk/data-model/envelopes/).
import { AsyncLocalStorage } from 'node:async_hooks';
import { checkConfig } from './config';
import { redactUrlSecrets } from './lib/urls';

/** The invocation an error belongs to: its context (to keep the report alive) and its request. */
interface Invocation {
  ctx: Pick<ExecutionContext, 'waitUntil'>;
  request?: { url: string; method: string };
}
const invocation = new AsyncLocalStorage<Invocation>();

const trackingOf = (env: Env) => {
  const result = checkConfig(env);
  return result.ok ? result.config.errorTracking : null;
};

/** `https://<key>@<host>/<project>` -> the envelope endpoint and the key that authenticates it. */
export function ingestOf(dsn: string): { url: string; key: string } | null {
  try {
    const u = new URL(dsn);
    const project = u.pathname.split('/').filter(Boolean).pop();
    if (!u.username || !project) return null;
    const prefix = u.pathname.slice(0, u.pathname.lastIndexOf(project));
    return { url: `${u.protocol}//${u.host}${prefix}api/${project}/envelope/`, key: u.username };
  } catch {
    return null;
  }
}

/** V8's "    at fn (file:line:col)" lines as Sentry frames, oldest call first. */
function framesOf(stack: string | undefined) {
  const frames = [];
  for (const line of (stack ?? '').split('\n')) {
    const m = /^\s*at (?:(.+?) \()?(.+?):(\d+):(\d+)\)?$/.exec(line);
    if (m) frames.push({ function: m[1] ?? '?', filename: m[2], lineno: Number(m[3]), colno: Number(m[4]), in_app: !m[2].includes('node_modules') });
  }
  return frames.reverse();
}

/** The event as sent: only what names the error and where it happened, every URL secret masked. */
export function errorEvent(err: unknown, environment: string | undefined, request: Invocation['request'], tags?: Record<string, string>) {
  const error = err instanceof Error ? err : new Error(String(err));
  const event = {
    event_id: crypto.randomUUID().replaceAll('-', ''),
    timestamp: Date.now() / 1000,
    platform: 'javascript',
    level: 'error',
    environment,
    exception: { values: [{ type: error.name, value: error.message, stacktrace: { frames: framesOf(error.stack) } }] },
    ...(request ? { request: { url: request.url.split('?')[0], method: request.method } } : {}),
    ...(tags ? { tags } : {}),
  };
  // One pass over the serialised event reaches the message, the frames and the URL alike.
  return JSON.parse(redactUrlSecrets(JSON.stringify(event))) as typeof event;
}

async function send(dsn: string, event: ReturnType<typeof errorEvent>) {
  const ingest = ingestOf(dsn);
  if (!ingest) return;
  const body = [JSON.stringify({ event_id: event.event_id, sent_at: new Date().toISOString() }), JSON.stringify({ type: 'event' }), JSON.stringify(event)].join('\n');
  try {
    const res = await fetch(ingest.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-sentry-envelope', 'X-Sentry-Auth': `Sentry sentry_version=7, sentry_key=${ingest.key}, sentry_client=parcel-marketplace/1` },
      body,
    });
    await res.body?.cancel();
  } catch (err) {
    // Reporting must never take the request or the job down with it.
    console.error(JSON.stringify({ level: 'error', msg: 'error report not sent', error: String(err) }));
  }
}

/** Reports an unexpected error of this request or job; does nothing without a DSN. */
export function reportUnexpected(env: Env, err: unknown, tags?: Record<string, string>) {
  const tracking = trackingOf(env);
  if (!tracking) return;
  const current = invocation.getStore();
  const sending = send(tracking.dsn, errorEvent(err, env.ENVIRONMENT, current?.request, tags));
  // The report outlives the answer: the invocation waits for it.
  current?.ctx.waitUntil(sending);
}

/**
 * An error a job or a best-effort step catches so the others carry on (the next run retries):
 * logged as one JSON line with `context`, and reported like an uncaught one, so a money job that
 * keeps failing reaches a person rather than only the logs.
 */
export function reportCaught(env: Env, err: unknown, context: { msg: string } & Record<string, string | number | null>) {
  console.error(JSON.stringify({ level: 'error', ...context, error: err instanceof Error ? err.message : String(err) }));
  const tags = Object.fromEntries(Object.entries(context).filter(([, v]) => v !== null).map(([k, v]) => [k, String(v)]));
  reportUnexpected(env, err, tags);
}

type Handler<Message> = Required<Pick<ExportedHandler<Env, Message>, 'fetch' | 'scheduled' | 'queue'>>;

/** Runs one invocation with its context known to reportUnexpected; a thrown error is reported, then rethrown. */
async function tracked<T>(env: Env, at: Invocation, run: () => Promise<T>, tags?: Record<string, string>): Promise<T> {
  if (!trackingOf(env)) return run();
  return invocation.run(at, async () => {
    try {
      return await run();
    } catch (err) {
      reportUnexpected(env, err, tags);
      throw err;
    }
  });
}

/** The worker entry inside error tracking when a DSN is configured. */
export function withErrorTracking<Message>(handler: Handler<Message>): Handler<Message> {
  return {
    fetch: (request, env, ctx) => tracked(env, { ctx, request: { url: request.url, method: request.method } }, async () => handler.fetch(request, env, ctx)),
    scheduled: (controller, env, ctx) => tracked(env, { ctx }, async () => handler.scheduled(controller, env, ctx), { cron: controller.cron }),
    queue: (batch, env, ctx) => tracked(env, { ctx }, async () => handler.queue(batch, env, ctx), { queue: batch.queue }),
  };
}
