// Worker entry: HTTP through the Hono app, cron through the scheduled jobs; exports the
// Durable Object classes.
import { app } from './app';
import { getDb } from './db/client';
import { closeDepartedAnnouncements } from './features/announcements/announcements.service';

export { ReservationQr } from './durable-objects/reservation-qr';
export { ReservationTracking } from './durable-objects/reservation-tracking';

export default {
  fetch: app.fetch,
  async scheduled(_controller, env, ctx) {
    // Scheduled jobs are registered here as features land.
    ctx.waitUntil(closeDepartedAnnouncements(getDb(env)));
  },
} satisfies ExportedHandler<Env>;
