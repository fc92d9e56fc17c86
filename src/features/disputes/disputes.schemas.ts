// Shapes of the dispute routes that other features reuse (the console).
import { z } from '@hono/zod-openapi';
import { DISPUTE_RESOLUTIONS } from '../../db/schema';

export const ResolveSchema = z
  .object({
    resolution: z.enum(DISPUTE_RESOLUTIONS),
    amount: z.number().positive().optional().openapi({
      description:
        "PARTIAL_REFUND: refunded to the sender, 0 < amount < total. PROTECTION_PAYOUT (a protected reservation disputed as LOST, DAMAGED or NOT_DELIVERED): paid to the sender's wallet from the protection reserve on top of the full refund of the price, 0 < amount <= the coverage (GET /bookings/{id}/protection). The others take none.",
    }),
    note: z.string().trim().min(1).max(2000),
  })
  .openapi('ResolveDispute');
