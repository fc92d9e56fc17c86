// Builds the application: cross-cutting middleware, the one error handler, the one not-found
// handler, one app.route() per feature, and the OpenAPI document. Production gets its own build
// without the sandbox and development routes (not mounted, so absent from its document too).
import { OpenAPIHono } from '@hono/zod-openapi';
import type { ErrorHandler } from 'hono';
import { methodNotAllowed } from 'hono/method-not-allowed';
import { requestId } from 'hono/request-id';
import { secureHeaders } from 'hono/secure-headers';
import { requestDeps } from './db/session';
import type { AppEnv } from './env';
import { endpointNotFound, noEndpoint, toErrorResponse, msg } from './errors';
import { favicon } from './lib/favicon';
import { analyticsRouter } from './features/analytics/analytics.routes';
import { dashboardsRouter } from './features/dashboards/dashboards.routes';
import { superadminRouter } from './features/superadmin/superadmin.routes';
import { countRefusedWebhooks } from './middleware/webhook-refusals';
import { watchdogRouter } from './features/watchdog/watchdog.routes';
import { metricsRouter } from './features/superadmin/metrics.routes';
import { pausesRouter } from './features/superadmin/pauses.routes';
import { storageRestoreRouter } from './features/superadmin/storage-restore.routes';
import { reconciliationRouter } from './features/superadmin/reconciliation.routes';
import { alertsRouter } from './features/alerts/alerts.routes';
import { announcementsRouter } from './features/announcements/announcements.routes';
import { travelProofRouter } from './features/announcements/travel-proof.routes';
import { categoriesRouter } from './features/categories/categories.routes';
import { bookingsRouter, superadminReservationsRouter } from './features/bookings/bookings.routes';
import { customsRouter } from './features/customs/customs.routes';
import { offersRouter } from './features/offers/offers.routes';
import { protectionRouter } from './features/protection/protection.routes';
import { adminUsersRouter } from './features/admin-users/admin-users.routes';
import { authRouter } from './features/auth/auth.routes';
import { agenciesRouter } from './features/agencies/agencies.routes';
import { agencyDocumentsRouter } from './features/agencies/agency-documents.routes';
import { devRouter } from './features/dev/dev.routes';
import { handoverRouter } from './features/handover/handover.routes';
import { recipientPageRouter } from './features/handover/recipient-page.routes';
import { accountPagesRouter } from './features/auth/account-pages.routes';
import { appLinksRouter } from './features/auth/app-links.routes';
import { registerDocs } from './features/docs/docs.routes';
import { filesRouter } from './features/files/files.routes';
import { healthRouter } from './features/health/health.routes';
import { reportsRouter } from './features/reports/reports.routes';
import { reviewsRouter } from './features/reviews/reviews.routes';
import { notificationsRouter } from './features/notifications/notifications.routes';
import { devicesRouter } from './features/devices/devices.routes';
import { referenceRouter } from './features/reference/reference.routes';
import { prohibitedItemsRouter } from './features/reference/prohibited-items.routes';
import { trackingRouter } from './features/tracking/tracking.routes';
import { conversationsRouter } from './features/conversations/conversations.routes';
import { usersRouter } from './features/users/users.routes';
import { privacyRouter } from './features/privacy/privacy.routes';
import { phoneVerificationRouter } from './features/users/phone-verification.routes';
import { kycSandboxRouter } from './features/kyc/kyc-sandbox.routes';
import { kycRouter } from './features/kyc/kyc.routes';
import { consoleRouter } from './features/console/console.routes';
import { bodySizeLimit } from './middleware/body-size';
import { apiCors } from './middleware/cors';
import { pageSecurityPolicy } from './middleware/content-security-policy';
import { rateLimits } from './middleware/rate-limit';
import { chain, under } from './middleware/chain';
import { httpCache, publicCaching } from './middleware/http-cache';
import { configurationGate } from './middleware/configuration';
import { isProduction } from './config';
import { reportUnexpected } from './error-tracking';
import { socialSandboxRouter } from './features/auth/social-sandbox.routes';
import { requestLog } from './middleware/request-log';
import { validationHook } from './validation';
import { disputesRouter } from './features/disputes/disputes.routes';
import { API_PREFIX } from './lib/urls';
import { agencyMoneyRouter, pawapayRouter, pawapaySandboxRouter, payConnectRouter, paymentsRouter, payoutAccountsRouter, sandboxRouter, walletRouter, waveRouter, waveSandboxRouter, withdrawalsRouter } from './features/money';
import { devOutboxPageRouter, devOutboxRouter } from './features/deliveries/dev-outbox.routes';
import { enqueuePendingDeliveries } from './features/deliveries/outbox';
import { publishStatusChanges } from './features/reservations/status-feed';
import { statusFeedRouter } from './features/reservations/status-feed.routes';
import { afterUnitOfWork } from './middleware/unit-of-work';
import { unsubscribePageRouter, unsubscribeRouter } from './features/deliveries/unsubscribe.routes';
import { deliveriesAdminRouter } from './features/deliveries/deliveries.admin.routes';
import { preferencesRouter } from './features/deliveries/preferences.routes';


type App = OpenAPIHono<AppEnv>;

export function createApp({ production = false }: { production?: boolean } = {}) {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  useCrossCutting(app, production);
  mountFeatures(app, production);
  registerDocs(app);

  app.notFound((c) => toErrorResponse(c, noEndpoint(c.req.method, c.req.path)));
  app.onError(handleError);
  return app;
}

/** The one error handler: the error's response, and the unexpected ones to error tracking. */
const handleError: ErrorHandler<AppEnv> = (err, c) => {
  const res = toErrorResponse(c, err);
  // Only the unexpected reach error tracking: a 4xx is the client's, a 502/503 a provider's or the configuration's.
  if (res.status === 500) reportUnexpected(c.env, err, { requestId: c.get('requestId') });
  return res;
};

/**
 * The middleware every request passes, in order: id, log, caching, headers, configuration, CSP,
 * CORS, size, deps, 405, rate limits, public caching; registered as one (middleware/chain.ts).
 */
function useCrossCutting(app: App, production: boolean) {
  app.use(
    chain(
      handleError,
      requestId({ headerName: 'X-Request-Id' }),
      requestLog,
      httpCache,
      secureHeaders(SECURE_HEADERS),
      configurationGate(production),
      pageSecurityPolicy,
      under(API_PREFIX, apiCors),
      bodySizeLimit,
      requestDeps(API_PREFIX), // the API's D1 session, the primary for pages outside it
      afterUnitOfWork(enqueuePendingDeliveries, publishStatusChanges), // after the response: the outbox rows and status changes the request committed
      notAllowed(app),
      rateLimits,
      publicCaching,
    ),
  );
}

/**
 * hono's secure headers without the five that no browser in use acts on any more
 * (X-XSS-Protection: the auditor is gone, OWASP advises against it; X-Download-Options: IE8;
 * X-Permitted-Cross-Domain-Policies: Flash and Acrobat; X-DNS-Prefetch-Control and
 * Origin-Agent-Cluster: HTML documents, and the pages are few and link nowhere else). Every header
 * set costs each answer; these bought nothing. Nothing here sets X-Powered-By, so none is removed.
 */
const SECURE_HEADERS = {
  xXssProtection: false,
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  xDnsPrefetchControl: false,
  originAgentCluster: false,
  removePoweredBy: false,
} as const;

/** 405 with `Allow` when the path exists under other methods. */
const notAllowed = (app: App) =>
  methodNotAllowed({
    app,
    onMethodNotAllowed: (c, methods) =>
      toErrorResponse(
        c,
        endpointNotFound('request.methodNotAllowed', { method: c.req.method, path: c.req.path }, {
          status: 405,
          headers: { Allow: methods.join(', ') },
          suggestions: [msg('request.allowedMethods', { methods: methods.join(', ') })],
        }),
      ),
  });

/** One app.route() per feature (this order is the OpenAPI document's); the sandboxes and the seed outside production. */
function mountFeatures(app: App, production: boolean) {
  // Refused provider webhooks counted for the watchdog (before the webhook routes it wraps).
  app.use(`${API_PREFIX}/webhooks/*`, countRefusedWebhooks);
  app.route(API_PREFIX, healthRouter);
  app.route(API_PREFIX, reviewsRouter);
  app.route(API_PREFIX, reportsRouter);
  app.route(API_PREFIX, referenceRouter);
  app.route(API_PREFIX, prohibitedItemsRouter);
  app.route(API_PREFIX, categoriesRouter);
  app.route(API_PREFIX, announcementsRouter);
  app.route(API_PREFIX, travelProofRouter);
  app.route(API_PREFIX, alertsRouter);
  app.route(API_PREFIX, notificationsRouter);
  app.route(API_PREFIX, devicesRouter);
  app.route(API_PREFIX, unsubscribeRouter);
  app.route(API_PREFIX, preferencesRouter);
  app.route(API_PREFIX, handoverRouter);
  app.route(API_PREFIX, trackingRouter);
  app.route(API_PREFIX, conversationsRouter);
  app.route(API_PREFIX, statusFeedRouter);
  app.route('/', recipientPageRouter);
  app.route('/', accountPagesRouter);
  app.route('/', appLinksRouter);
  app.route('/', unsubscribePageRouter);
  app.route(API_PREFIX, bookingsRouter);
  app.route(API_PREFIX, superadminReservationsRouter);
  app.route(API_PREFIX, customsRouter);
  app.route(API_PREFIX, offersRouter);
  app.route(API_PREFIX, protectionRouter);
  app.route(API_PREFIX, authRouter);
  app.route(API_PREFIX, usersRouter);
  app.route(API_PREFIX, privacyRouter);
  app.route(API_PREFIX, phoneVerificationRouter);
  app.route(API_PREFIX, adminUsersRouter);
  app.route(API_PREFIX, kycRouter);
  app.route(API_PREFIX, filesRouter);
  app.route(API_PREFIX, agenciesRouter);
  app.route(API_PREFIX, agencyDocumentsRouter);
  app.route(API_PREFIX, paymentsRouter);
  app.route(API_PREFIX, waveRouter);
  app.route(API_PREFIX, pawapayRouter);
  app.route(API_PREFIX, walletRouter);
  app.route(API_PREFIX, withdrawalsRouter);
  app.route(API_PREFIX, payConnectRouter);
  app.route(API_PREFIX, payoutAccountsRouter);
  app.route(API_PREFIX, agencyMoneyRouter);
  app.route(API_PREFIX, disputesRouter);
  app.route(API_PREFIX, dashboardsRouter);
  app.route(API_PREFIX, analyticsRouter);
  app.route(API_PREFIX, superadminRouter);
  app.route(API_PREFIX, metricsRouter);
  app.route(API_PREFIX, pausesRouter);
  app.route(API_PREFIX, storageRestoreRouter);
  app.route(API_PREFIX, reconciliationRouter);
  app.route(API_PREFIX, watchdogRouter);
  app.route(API_PREFIX, deliveriesAdminRouter);
  app.get('/favicon.ico', favicon);
  app.route('/console', consoleRouter);
  if (!production) {
    // Local runs and tests only: the seed, and the browser pages of the sandbox providers (root paths).
    app.route(API_PREFIX, devRouter);
    app.route(API_PREFIX, devOutboxRouter);
    app.route('/', devOutboxPageRouter);
    app.route('/', sandboxRouter);
    app.route('/', waveSandboxRouter);
    app.route('/', pawapaySandboxRouter);
    app.route('/', kycSandboxRouter);
    app.route('/', socialSandboxRouter);
  }
}

const builds = new Map<boolean, OpenAPIHono<AppEnv>>();

/** The app for this environment, built once per isolate on first use. */
export function appFor(env: Env): OpenAPIHono<AppEnv> {
  const production = isProduction(env);
  let built = builds.get(production);
  if (!built) {
    built = createApp({ production });
    builds.set(production, built);
  }
  return built;
}

/** The worker's HTTP entry: the build that fits the request's environment. */
export const app = {
  fetch: (request: Request, env: Env, ctx: ExecutionContext) => appFor(env).fetch(request, env, ctx),
};
