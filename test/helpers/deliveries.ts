// Driving the DELIVERIES queue's consumer from a test: a message for a row, through the worker's
// own queue() handler, and a stand-in for the send_email binding.
import { createExecutionContext, createMessageBatch, getQueueResult } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { vi } from 'vitest';
import worker from '../../src/index';

/** Runs the worker's queue() handler on one message for `id`, as the queue would, with `variant` as env. */
export async function consume(id: number, { variant = env as Env, queue = 'deliveries', msgId = crypto.randomUUID() } = {}) {
  const batch = createMessageBatch(queue, [{ id: msgId, timestamp: new Date(), attempts: 1, body: { id } }]);
  // The harness records that a message was retried, not its delay: the call itself says it.
  const retry = vi.spyOn(batch.messages[0], 'retry');
  const ctx = createExecutionContext();
  await worker.queue(batch as MessageBatch<{ id: number }>, variant, ctx);
  const result = await getQueueResult(batch, ctx);
  const retried = result.retryMessages.some((m) => m.msgId === msgId);
  return { msgId, acked: result.explicitAcks.includes(msgId), retries: retried ? retry.mock.calls.map(([options]) => ({ delaySeconds: options?.delaySeconds })) : [] };
}

/** A stand-in for the send_email binding that records every message and answers like the service. */
export function emailBinding(behaviour: (n: number) => void = () => {}) {
  const sent: Record<string, any>[] = [];
  const binding = {
    send: vi.fn(async (message: Record<string, any>) => {
      behaviour(sent.length + 1);
      sent.push(message);
      return { messageId: `<cf-${sent.length}@example.com>` };
    }),
  };
  return { sent, binding, env: { ...env, EMAIL: binding, EMAIL_FROM: 'no-reply@example.com' } as unknown as typeof env };
}
