// Shapes of the KYC routes that other features reuse (agency documents, the console).
import { z } from '@hono/zod-openapi';

/** The body of every super-admin rejection of a reviewed document (user KYC, agency documents). */
export const ReviewRejectionSchema = z.object({ reason: z.string().trim().min(1).max(500) }).openapi('ReviewRejection');
