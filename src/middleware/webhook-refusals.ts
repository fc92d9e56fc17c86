// Every provider webhook refused for its signature (a 401 from /webhooks/*: Stripe, Wave, KYC, and
// any provider added later) is one row of webhook_refusals, which the watchdog counts per five
// minutes (CONTRACT section 27). Counted here, where every webhook answers, and in D1, because
// the local metrics live in one isolate's memory. Written after the answer; a lost row is a count
// one short, never a refused request slowed.
import { createMiddleware } from 'hono/factory';
import { webhookRefusals } from '../db/schema';
import type { AppEnv } from '../env';

export const countRefusedWebhooks = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  if (c.res.status !== 401) return;
  const provider = c.req.path.split('/webhooks/')[1]?.split('/')[0] || 'unknown';
  const write = c
    .get('deps')
    .db.insert(webhookRefusals)
    .values({ provider })
    .run()
    .catch((err: unknown) => console.error(JSON.stringify({ level: 'error', event: 'webhook_refusal.not_counted', provider, error: String(err) })));
  try {
    c.executionCtx.waitUntil(write);
  } catch {
    await write; // no execution context (app.request() in a test)
  }
});
