// Shapes of the dispute routes that other features reuse (the console).
import { z } from '@hono/zod-openapi';
import { DISPUTE_RESOLUTIONS } from '../../db/schema';

export const ResolveSchema = z
  .object({
    resolution: z.enum(DISPUTE_RESOLUTIONS),
    amount: z.number().positive().optional().openapi({ description: 'PARTIAL_REFUND only: refunded to the sender, 0 < amount < total' }),
    note: z.string().trim().min(1).max(2000),
  })
  .openapi('ResolveDispute');
