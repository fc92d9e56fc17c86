// Worker entry: HTTP through the Hono app, cron through the scheduled jobs, the DELIVERIES queue
// through its consumer; exports the Durable Object classes.
import { app } from './app';
import { consumeDeliveries } from './features/deliveries/consumer';
import type { DeliveryMessage } from './features/deliveries/outbox';
import { runScheduledJobs } from './scheduled';

export { ReservationQr } from './durable-objects/reservation-qr';
export { ReservationTracking } from './durable-objects/reservation-tracking';

export default {
  fetch: app.fetch,
  async scheduled(controller, env, ctx) {
    ctx.waitUntil(runScheduledJobs(env, controller.scheduledTime));
  },
  async queue(batch, env, _ctx) {
    await consumeDeliveries(batch, env);
  },
} satisfies ExportedHandler<Env, DeliveryMessage>;
