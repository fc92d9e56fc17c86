// Worker entry: HTTP through the Hono app, cron through the scheduled jobs, the DELIVERIES queue
// through its consumer, all inside error tracking (Sentry when SENTRY_DSN is set); exports the
// Durable Object classes.
import { app } from './app';
import { withErrorTracking } from './error-tracking';
import { consumeDeliveries } from './features/deliveries/consumer';
import type { DeliveryMessage } from './features/deliveries/outbox';
import { reservationDocumentPdf } from './features/money';
import { runScheduledJobs } from './scheduled';

export { ReservationQr } from './durable-objects/reservation-qr';
export { ReservationTracking } from './durable-objects/reservation-tracking';
export { Conversation } from './durable-objects/conversation';
export { ReservationStatusFeed } from './durable-objects/reservation-status';

export default withErrorTracking<DeliveryMessage>({
  fetch: app.fetch,
  // Awaited rather than left to waitUntil, so error tracking sends a failed job's report before the invocation ends.
  async scheduled(controller, env) {
    await runScheduledJobs(env, controller.scheduledTime);
  },
  async queue(batch, env) {
    await consumeDeliveries(batch, env, reservationDocumentPdf);
  },
}) satisfies ExportedHandler<Env, DeliveryMessage>;
