// The sandbox provider's page (root path, local runs only): "Approve" and "Reject" post a signed
// callback through the same handler as the real provider's webhook.
import { createRoute, z } from '@hono/zod-openapi';
import { html } from 'hono/html';
import { createRouter, type Deps } from '../../env';
import { endpointNotFound, notFound } from '../../errors';
import { htmlPage } from '../../lib/html-page';
import { errorResponses } from '../../lib/openapi';
import { isKycSandboxEnabled, signCallback } from '../../providers/kyc';
import { findRecordBySession, handleKycCallback } from './kyc.service';

const SessionParams = z.object({
  sessionId: z.string().regex(/^sbx_[0-9a-f]{32}$/).openapi({ param: { name: 'sessionId', in: 'path' } }),
});
const DecisionParams = SessionParams.extend({
  decision: z.enum(['approve', 'reject']).openapi({ param: { name: 'decision', in: 'path' } }),
});

const htmlResponse = (description: string) => ({ description, content: { 'text/html': { schema: z.string() } } });

async function sandboxRecord(deps: Deps, sessionId: string) {
  const { env } = deps;
  if (!isKycSandboxEnabled(env)) {
    throw endpointNotFound('kyc.sandboxNotEnabled');
  }
  const record = await findRecordBySession(deps, sessionId);
  if (!record) throw notFound('KYC session', sessionId);
  return record;
}

export const kycSandboxRouter = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'sandboxKycPage',
      path: '/sandbox/kyc/{sessionId}',
      tags: ['Sandbox'],
      summary: 'Sandbox identity verification page (local runs only)',
      description: 'The page the kycSessionUrl of a sandbox session opens, standing in for the identity provider: it shows the session and its record\'s status, with Approve and Reject buttons. 404 ENDPOINT_NOT_FOUND when the KYC sandbox is not enabled (a real provider is configured, and always in production); an unknown session is 404 RESOURCE_NOT_FOUND.',
      security: [],
      request: { params: SessionParams },
      responses: { 200: htmlResponse('Verification page'), ...errorResponses(404) },
    }),
    async (c) => {
      const { sessionId } = c.req.valid('param');
      const record = await sandboxRecord(c.get('deps'), sessionId);
      const base = `/sandbox/kyc/${sessionId}`;
      return c.html(
        htmlPage(
          'Sandbox identity verification',
          html`<p>Session <code>${sessionId}</code>, current status <strong>${record.status}</strong>.</p>
            <p>This page stands in for the identity provider. Choose the verdict it sends back.</p>
            <form method="post" action="${base}/approve" style="display:inline"><button type="submit">Approve</button></form>
            <form method="post" action="${base}/reject" style="display:inline"><button type="submit">Reject</button></form>`,
        ),
        200,
      );
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      operationId: 'sandboxKycDecision',
      path: '/sandbox/kyc/{sessionId}/{decision}',
      tags: ['Sandbox'],
      summary: 'Sandbox verdict: sends the signed provider callback',
      description: 'Builds the provider event the verdict stands for (APPROVED or REJECTED, a passport), signs it with KYC_WEBHOOK_SECRET exactly as the provider would, and runs it through the provider callback\'s own handler: the record and the user become VERIFIED (ROLE_VERIFIED_USER granted) or NOT_VERIFIED, and the user is notified. Answers a page with the callback\'s outcome. 404 when the sandbox is not enabled or the session unknown.',
      security: [],
      request: { params: DecisionParams },
      responses: { 200: htmlResponse('Result page'), ...errorResponses(401, 404) },
    }),
    async (c) => {
      const { sessionId, decision } = c.req.valid('param');
      await sandboxRecord(c.get('deps'), sessionId);
      const event = {
        eventId: `sbx_evt_${crypto.randomUUID()}`,
        sessionId,
        status: decision === 'approve' ? 'APPROVED' : 'REJECTED',
        documentType: 'PASSPORT',
        ...(decision === 'reject' ? { reason: 'Rejected in the sandbox' } : {}),
      };
      // Exactly what a provider sends: a JSON string holding the event, signed on its raw bytes.
      const raw = new TextEncoder().encode(JSON.stringify(JSON.stringify(event)));
      const headers = await signCallback(c.env.KYC_WEBHOOK_SECRET, raw);
      const outcome = await handleKycCallback(c.get('deps'), raw, {
        signature: headers['X-Kyc-Signature'],
        timestamp: headers['X-Kyc-Timestamp'],
      });
      const verdict = decision === 'approve' ? 'approved' : 'rejected';
      return c.html(htmlPage('Sandbox verdict sent', html`<p>Verification ${verdict} (${outcome}). You can return to the app.</p>`), 200);
    },
  );
