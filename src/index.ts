// Worker entry: HTTP through the Hono app, cron through the scheduled jobs; exports the
// Durable Object classes.
import { app } from './app';

export { ReservationQr } from './durable-objects/reservation-qr';
export { ReservationTracking } from './durable-objects/reservation-tracking';

export default {
  fetch: app.fetch,
  async scheduled(_controller, _env, _ctx) {
    // Scheduled jobs are registered here as features land.
  },
} satisfies ExportedHandler<Env>;
