// Error tracking: unexpected errors (500 answers, failed cron jobs, a crashing queue consumer) go to Sentry through its
// Cloudflare SDK when SENTRY_DSN is configured, and nowhere when it is not: without a DSN no Sentry
// code runs at all, so nothing can leave the worker. Events never carry a secret: no default PII,
// no header, no request body, recipient tokens and token parameters
// masked wherever they appear.
import { captureException, withSentry, type CloudflareOptions, type ErrorEvent } from '@sentry/cloudflare';
import { checkConfig } from './config';
import { redactUrlSecrets } from './lib/urls';

/** Headers that authenticate a caller or a provider: never sent. */
const SECRET_HEADERS = new Set(['authorization', 'cookie', 'stripe-signature', 'x-kyc-signature', 'idempotency-key']);

const trackingOf = (env: Env) => {
  const result = checkConfig(env);
  return result.ok ? result.config.errorTracking : null;
};

/** The event as sent: secret headers and bodies dropped, every string with its URL secrets masked. */
export function scrubEvent<E extends ErrorEvent>(event: E): E {
  const request = event.request;
  if (request) {
    for (const name of Object.keys(request.headers ?? {})) if (SECRET_HEADERS.has(name.toLowerCase())) delete request.headers?.[name];
    delete request.cookies;
    delete request.data;
  }
  // Error events are rare: one pass over the serialised event reaches messages, breadcrumbs and URLs alike.
  return JSON.parse(redactUrlSecrets(JSON.stringify(event))) as E;
}

const sentryOptions = (env: Env): CloudflareOptions => ({
  dsn: trackingOf(env)?.dsn,
  environment: env.ENVIRONMENT,
  // SDK 11's replacement for `sendDefaultPii: false`: no user, cookie, header, body, query or local variable.
  dataCollection: {
    userInfo: false,
    cookies: false,
    httpHeaders: false,
    httpBodies: [],
    urlQueryParams: false,
    databaseQueryData: false,
    stackFrameVariables: false,
    queues: false,
    genAI: { inputs: false, outputs: false },
  },
  // Errors only: no performance tracing, and no trace headers added to calls to Stripe or the KYC provider.
  tracesSampleRate: 0,
  tracePropagationTargets: [],
  beforeSend: scrubEvent,
  beforeBreadcrumb: (breadcrumb) => JSON.parse(redactUrlSecrets(JSON.stringify(breadcrumb))),
});

/** Reports an unexpected error of this request or job; does nothing without a DSN. */
export function reportUnexpected(env: Env, err: unknown, tags?: Record<string, string>) {
  if (!trackingOf(env)) return;
  captureException(err, tags ? { tags } : undefined);
}

type Handler<Message> = Required<Pick<ExportedHandler<Env, Message>, 'fetch' | 'scheduled' | 'queue'>>;

/**
 * The worker entry with Sentry around it when a DSN is configured. The wrapped handler is given
 * the runtime's own env rather than the SDK's per-request proxy of it, so the configuration is
 * still validated once per isolate (config.ts caches by env object).
 */
export function withErrorTracking<Message>(handler: Handler<Message>): Handler<Message> {
  const envs = new WeakMap<object, Env>();
  const tracked = withSentry(sentryOptions, {
    fetch: (request, env, ctx) => handler.fetch(request, envs.get(request) ?? env, ctx),
    scheduled: (controller, env, ctx) => handler.scheduled(controller, envs.get(controller) ?? env, ctx),
    queue: (batch, env, ctx) => handler.queue(batch, envs.get(batch) ?? env, ctx),
  } satisfies Handler<Message>) as Handler<Message>;
  return {
    fetch(request, env, ctx) {
      if (!trackingOf(env)) return handler.fetch(request, env, ctx);
      envs.set(request, env);
      return tracked.fetch(request, env, ctx);
    },
    scheduled(controller, env, ctx) {
      if (!trackingOf(env)) return handler.scheduled(controller, env, ctx);
      envs.set(controller, env);
      return tracked.scheduled(controller, env, ctx);
    },
    queue(batch, env, ctx) {
      if (!trackingOf(env)) return handler.queue(batch, env, ctx);
      envs.set(batch, env);
      return tracked.queue(batch, env, ctx);
    },
  };
}
