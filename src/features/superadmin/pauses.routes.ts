// GET /superadmin/pauses and PUT /superadmin/pauses/{provider}/{operation} (CONTRACT 27): the
// switches that pause new checkouts or new payouts of one provider during its outage.
import { createRoute, z } from '@hono/zod-openapi';
import { PAUSE_OPERATIONS } from '../../db/schema';
import { createRouter } from '../../env';
import { authErrorResponses, jsonBody, jsonContent, withRole } from '../../lib/openapi';
import { pauseStates, setPause } from '../money';
import { clientIp } from '../audit/audit';

const PauseSchema = z
  .object({
    provider: z.string().openapi({ description: 'The provider as GET /payments/methods names it', example: 'STRIPE' }),
    operation: z.enum(PAUSE_OPERATIONS).openapi({ description: 'CHECKOUT: new checkouts; PAYOUT: new withdrawals and transfers' }),
    paused: z.boolean(),
    reason: z.string().nullable(),
    pausedAt: z.string().nullable().openapi({ format: 'date-time' }),
    pausedBy: z.number().int().nullable().openapi({ description: 'The super-admin who paused it' }),
  })
  .openapi('ProviderPause');

const PauseChange = z
  .object({
    paused: z.boolean(),
    reason: z.string().trim().min(1).max(300).optional().openapi({ description: 'Why (shown in the console and the audit log)' }),
  })
  .openapi('ProviderPauseChange');

const PauseParams = z.object({
  provider: z.string().min(1).max(40).openapi({ param: { name: 'provider', in: 'path' }, example: 'STRIPE' }),
  operation: z.enum(PAUSE_OPERATIONS).openapi({ param: { name: 'operation', in: 'path' } }),
});

const TAGS = ['Administration'];

export const pausesRouter = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'listProviderPauses',
      path: '/superadmin/pauses',
      tags: TAGS,
      summary: 'The pause switches of every payment provider (checkouts, payouts)',
      description: 'Super-administrators only. One entry per provider of the payment methods and operation (CHECKOUT, PAYOUT), paused or not, with who paused it, when and why.',
      ...withRole('ROLE_SUPERADMIN'),
      responses: { 200: jsonContent(z.object({ pauses: z.array(PauseSchema) }).openapi('ProviderPauses'), 'Every switch'), ...authErrorResponses() },
    }),
    async (c) => c.json({ pauses: await pauseStates(c.get('deps')) }, 200),
  )
  .openapi(
    createRoute({
      method: 'put',
      operationId: 'setProviderPause',
      path: '/superadmin/pauses/{provider}/{operation}',
      tags: TAGS,
      summary: 'Pause or resume new checkouts or payouts of one provider (audited)',
      description:
        'Super-administrators only. While a provider\'s CHECKOUT is paused, POST /payments/checkout with its method answers 503 PAYMENT_PROCESSING_ERROR with Retry-After (open sessions are still handed back); while its PAYOUT is paused, new withdrawals answer 503 the same way and pending transfers wait. Audited as PROVIDER_PAUSED or PROVIDER_RESUMED. An unknown provider is 400 INVALID_ARGUMENT.',
      ...withRole('ROLE_SUPERADMIN'),
      request: { params: PauseParams, body: jsonBody(PauseChange) },
      responses: { 200: jsonContent(PauseSchema, 'The switch as it now is'), ...authErrorResponses() },
    }),
    async (c) => {
      const { provider, operation } = c.req.valid('param');
      const body = c.req.valid('json');
      return c.json(await setPause(c.get('deps'), c.get('auth').id, { provider, operation, paused: body.paused, reason: body.reason }, clientIp(c)), 200);
    },
  );
