// Schemas shared by the tracking routes and the recipient view.
import { z } from '@hono/zod-openapi';
import { MAX_BATCH_SIZE } from './tracking.service';

export const PositionSchema = z
  .object({
    lat: z.number(),
    lng: z.number(),
    accuracy: z.number().nullable().openapi({ description: 'Metres' }),
    speed: z.number().nullable().openapi({ description: 'Metres per second' }),
    heading: z.number().nullable().openapi({ description: 'Degrees clockwise from north' }),
    recordedAt: z.string().openapi({ format: 'date-time' }),
    receivedAt: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('Position');

export const PositionInputSchema = z
  .object({
    lat: z.number().min(-90).max(90),
    lng: z.number().min(-180).max(180),
    accuracy: z.number().min(0).max(100_000).nullish(),
    speed: z.number().min(0).max(350).nullish().openapi({ description: 'Metres per second (at most 350, a plane)' }),
    heading: z.number().min(0).lt(360).nullish(),
    recordedAt: z.iso.datetime({ offset: true }).openapi({ description: 'When the device took the fix; not in the future, at most 24 h old' }),
  })
  .openapi('PositionInput');

const PositionBatchSchema = z
  .object({ positions: z.array(PositionInputSchema).min(1).max(MAX_BATCH_SIZE) })
  .openapi('PositionBatch', { description: `A batch of 1 to ${MAX_BATCH_SIZE} points, or a single point object` });

/**
 * A batch `{positions: [...]}`, or one point sent alone (normalised to a batch of one, so field
 * errors always read `positions.<i>.<field>`).
 */
export const PositionsBodySchema = z.preprocess(
  (v) => (v !== null && typeof v === 'object' && !Array.isArray(v) && !('positions' in v) ? { positions: [v] } : v),
  PositionBatchSchema,
);

/**
 * What the document shows for that body: the two shapes the server takes. The generator would show
 * only the batch (the output of the normalisation), so the route registers this one for the document.
 */
export const PositionsBodyDocumented = z
  .union([PositionInputSchema, PositionBatchSchema])
  .openapi('PositionsBody', { description: `One point sent alone, or a batch \`{positions: [...]}\` of 1 to ${MAX_BATCH_SIZE} points` });
