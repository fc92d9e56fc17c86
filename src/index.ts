// Worker entry: HTTP through the Hono app, cron through the scheduled jobs; exports the
// Durable Object classes.
import { app } from './app';
import { getDb } from './db/client';
import { purgeExpiredIdentityRecords } from './features/auth/identity-cleanup';

export default {
  fetch: app.fetch,
  async scheduled(_controller, env, _ctx) {
    // Scheduled jobs are registered here as features land.
    await purgeExpiredIdentityRecords(getDb(env));
  },
} satisfies ExportedHandler<Env>;
