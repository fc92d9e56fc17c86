// GET /health: public liveness, reachability of D1, KV and R2, and which providers are real.
import { createRoute, z } from '@hono/zod-openapi';
import { appConfig } from '../../config';
import { createRouter } from '../../env';
import { jsonContent } from '../../lib/openapi';

const CheckSchema = z.object({ status: z.enum(['UP', 'DOWN']), latencyMs: z.number(), error: z.string().optional() });
const Mode = z.enum(['LIVE', 'SANDBOX']);
const ProvidersSchema = z
  .object({
    payment: z.enum(['LIVE', 'TEST', 'SANDBOX']).openapi({ description: "LIVE: Stripe with a live key; TEST: Stripe's test mode (sk_test_, test money; never in production); SANDBOX: the local stand-in" }),
    kyc: z.enum(['LIVE', 'TEST', 'SANDBOX']).openapi({ description: "LIVE: the identity provider's API; TEST: its sandbox or test mode (a key or host naming it; never in production); SANDBOX: the local stand-in" }),
    googleLogin: Mode,
    appleLogin: Mode,
    mailer: Mode,
    push: Mode,
    sms: z.enum(['LIVE', 'TEST', 'SANDBOX']).openapi({ description: "LIVE: Twilio; TEST: Twilio's test credentials (a magic From number, nothing delivered; never in production); SANDBOX: the development outbox" }),
    wave: z.enum(['LIVE', 'SANDBOX', 'OFF']).openapi({ description: 'LIVE: Wave (it has no test mode); SANDBOX: the local stand-in; OFF: a deployed environment without XOF and without a Wave key (staging)' }),
    pawapay: z.enum(['LIVE', 'TEST', 'SANDBOX', 'OFF']).openapi({ description: "LIVE: pawaPay's production; TEST: pawaPay's own sandbox (test money); SANDBOX: the local stand-in; OFF: disabled" }),
  })
  .openapi({ description: 'LIVE: the real provider; TEST: the real provider in its test mode (test money, never in production); SANDBOX: the local stand-in (never in production)' });
const HealthSchema = z
  .object({
    status: z.enum(['UP', 'DOWN']),
    version: z.string(),
    timestamp: z.string(),
    checks: z.object({ d1: CheckSchema, kv: CheckSchema, r2: CheckSchema }),
    providers: ProvidersSchema,
  })
  .openapi('Health');

type Check = z.infer<typeof CheckSchema>;

async function probe(fn: () => Promise<unknown>): Promise<Check> {
  const started = Date.now();
  try {
    await fn();
    return { status: 'UP', latencyMs: Date.now() - started };
  } catch (err) {
    return { status: 'DOWN', latencyMs: Date.now() - started, error: err instanceof Error ? err.name : 'Error' };
  }
}

export const healthRouter = createRouter().openapi(
  createRoute({
    method: 'get',
    operationId: 'getHealth',
    path: '/health',
    tags: ['Service'],
    summary: 'Service health and reachability of its storage',
    description: 'Probes D1 (a SELECT 1), KV (a read) and R2 (a head request) at once and answers 200 with status UP when all three answer, else 503 with status DOWN and the failing check\'s error name; each check carries its latency. Also says, per provider (card payments, KYC, Google and Apple sign-in, e-mail, push, SMS, Wave), whether the real one (LIVE), the real one in its test mode (TEST: Stripe test keys, the pawaPay sandbox, Twilio test credentials, a KYC test key or host; refused in production, the only kind staging accepts) or the local stand-in (SANDBOX) is configured, never its secrets. Public, for load balancers and uptime monitors.',
    security: [],
    responses: {
      200: jsonContent(HealthSchema, 'Every dependency is reachable'),
      503: jsonContent(HealthSchema, 'At least one dependency is down'),
    },
  }),
  async (c) => {
    const [d1, kv, r2] = await Promise.all([
      probe(() => c.env.DB.prepare('SELECT 1').first()),
      probe(() => c.env.KV.get('health:probe')),
      probe(() => c.env.UPLOADS.head('health/probe')),
    ]);
    const status = [d1, kv, r2].every((x) => x.status === 'UP') ? 'UP' : 'DOWN';
    const config = appConfig(c.env);
    const providers = {
      payment: config.payment.mode,
      kyc: config.kyc.mode,
      googleLogin: config.social.google.mode,
      appleLogin: config.social.apple.mode,
      mailer: config.email.mode,
      push: config.push.mode,
      sms: config.sms.mode,
      wave: config.wave.mode,
      pawapay: config.pawapay.mode,
    };
    const body = { status, version: '2.0.0', timestamp: new Date().toISOString(), checks: { d1, kv, r2 }, providers } as const;
    return status === 'UP' ? c.json(body, 200) : c.json(body, 503);
  },
);
