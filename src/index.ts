// Worker entry: HTTP through the Hono app, cron through the scheduled jobs; exports the
// Durable Object classes.
import { app } from './app';
import { runMoneyJobs } from './features/payments/money.cron';

export default {
  fetch: app.fetch,
  async scheduled(controller, env, ctx) {
    // Scheduled jobs are registered here as features land.
    ctx.waitUntil(runMoneyJobs(env, new Date(controller.scheduledTime)));
  },
} satisfies ExportedHandler<Env>;
