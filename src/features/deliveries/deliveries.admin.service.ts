// The operators' view of the outbox (CONTRACT section 16): the deliveries, newest first, with their
// addresses masked, and the retry of a FAILED or DEAD one. Used by the API's /superadmin/deliveries
// and by the console's deliveries page, so both apply the same rule and write the same audit entry.
import { and, eq, inArray, type SQL } from 'drizzle-orm';
import { deliveries, type DeliveryChannel, type DeliveryRow, type DeliveryStatus } from '../../db/schema';
import { readPage } from '../../db/statements';
import type { Deps } from '../../env';
import { invalidState, notFound } from '../../errors';
import { orderBy, type PageParams } from '../../lib/pagination';
import { auditInsertIfChanged } from '../audit/audit';
import { maskAddress } from './address-mask';
import { enqueuedOnCommit } from './outbox';

export const DELIVERY_SORT_FIELDS = ['createdAt', 'id'] as const;
export type DeliverySortField = (typeof DELIVERY_SORT_FIELDS)[number];

/** What an operator may send again: the consumer gave up (DEAD) or no retry could help (FAILED). */
export const RETRYABLE_STATUSES = ['FAILED', 'DEAD'] as const satisfies readonly DeliveryStatus[];

export interface DeliveryFilters {
  /** One status, or any of several (the console's default: FAILED or DEAD). */
  status?: DeliveryStatus | readonly DeliveryStatus[];
  channel?: DeliveryChannel;
  template?: string;
  userId?: number;
}

/** A delivery as operators see it: the address masked, the payload (which may hold a single-use token) left out. */
export const toAdminDelivery = (row: DeliveryRow) => ({
  id: row.id,
  userId: row.userId,
  channel: row.channel,
  to: maskAddress(row.channel, row.to),
  template: row.template,
  locale: row.locale,
  status: row.status,
  attempts: row.attempts,
  lastError: row.lastError,
  providerMessageId: row.providerMessageId,
  createdAt: row.createdAt,
  sentAt: row.sentAt,
});
export type AdminDelivery = ReturnType<typeof toAdminDelivery>;

export async function listDeliveries(deps: Deps, f: DeliveryFilters, page: PageParams<DeliverySortField>) {
  const { db } = deps;
  const where: SQL | undefined = and(
    typeof f.status === 'string' ? eq(deliveries.status, f.status) : f.status ? inArray(deliveries.status, f.status) : undefined,
    f.channel ? eq(deliveries.channel, f.channel) : undefined,
    f.template ? eq(deliveries.template, f.template) : undefined,
    f.userId !== undefined ? eq(deliveries.userId, f.userId) : undefined,
  );
  const order = orderBy(page.sort, { createdAt: deliveries.createdAt, id: deliveries.id }, deliveries.id);
  const { rows, total } = await readPage(db, deliveries, where, order, page);
  return { content: rows.map(toAdminDelivery), total };
}

/**
 * Puts a FAILED or DEAD delivery back to QUEUED as new (attempts 0, no error; it never had a provider id), audited
 * in the same batch with the error it had (compare-and-set on the status read, which was checked
 * retryable); the id goes to the queue once the batch has committed.
 * Anything else is 409 INVALID_STATE; a double submit finds it QUEUED (or SENT) and changes nothing.
 */
export async function retryDelivery(deps: Deps, actor: { id: number; ip: string | null }, id: number): Promise<AdminDelivery> {
  const { db } = deps;
  const [row] = await db.select().from(deliveries).where(eq(deliveries.id, id));
  if (!row) throw notFound('Delivery', id);
  const refused = () => invalidState('delivery.deliveryOnlyFailedDead', { status: row.status });
  if (!(RETRYABLE_STATUSES as readonly string[]).includes(row.status)) throw refused();
  const [updated] = await db.batch([
    enqueuedOnCommit(
      db
        .update(deliveries)
        .set({ status: 'QUEUED', attempts: 0, lastError: null })
        .where(and(eq(deliveries.id, id), eq(deliveries.status, row.status)))
        .returning(),
    ),
    auditInsertIfChanged(db, {
      actorId: actor.id,
      action: 'DELIVERY_RETRIED',
      targetType: 'DELIVERY',
      targetId: id,
      ip: actor.ip,
      // The error the retry clears from the row stays on record here.
      details: { previousStatus: row.status, attempts: row.attempts, lastError: row.lastError, channel: row.channel, template: row.template },
    }),
  ]);
  if (updated.length !== 1) throw invalidState('delivery.deliveryChangedMeanwhileRetried');
  return toAdminDelivery(updated[0]);
}
