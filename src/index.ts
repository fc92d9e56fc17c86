// Worker entry: HTTP through the Hono app, cron through the scheduled jobs; exports the
// Durable Object classes.
import { app } from './app';
import { runScheduledJobs } from './scheduled';

export { ReservationQr } from './durable-objects/reservation-qr';
export { ReservationTracking } from './durable-objects/reservation-tracking';
export { Conversation } from './durable-objects/conversation';

export default {
  fetch: app.fetch,
  async scheduled(controller, env, ctx) {
    ctx.waitUntil(runScheduledJobs(env, controller.scheduledTime));
  },
} satisfies ExportedHandler<Env>;
