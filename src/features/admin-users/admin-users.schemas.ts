// Shapes of the user administration routes that other features reuse (the console).
import { z } from '@hono/zod-openapi';

export const SuspendSchema = z
  .object({ reason: z.string().trim().min(1).max(500).optional().openapi({ description: 'Shown to other administrators' }) })
  .openapi('SuspendUserRequest');
