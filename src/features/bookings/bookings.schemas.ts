// The shapes of a booking's request that other features reuse (an offer carries the same booking
// details, validated the same way): kilograms, items, the recipient, declarations.
import { z } from '@hono/zod-openapi';
import { nameText, whenValid } from '../../validation';
import { amountSchema } from '../../lib/amount';
import { isHttpsUrl } from '../users/profile-fields';
import type { RecipientInfo } from '../../db/schema';

export const optionalText = (max: number) => z.string().trim().max(max).nullish();

/** Up to 3 decimals: kilograms are stored as integer grams. */
export const kilograms = z
  .number()
  .positive()
  .max(100_000)
  .refine((kg) => Math.abs(kg * 1000 - Math.round(kg * 1000)) < 1e-6, { message: 'booking.atMost3Decimals' });

export const ItemInputSchema = z.object({
  categoryId: z.number().int().positive(),
  name: nameText(120, 0).nullish(),
  reservedQuantity: z.number().positive().max(10_000).default(1),
  description: optionalText(1000),
  weight: z.number().positive().max(100_000).nullish(),
  lengthCm: z.number().positive().max(10_000).nullish(),
  widthCm: z.number().positive().max(10_000).nullish(),
  heightCm: z.number().positive().max(10_000).nullish(),
  isFragile: z.boolean().default(false),
  containsLiquids: z.boolean().default(false),
  // Shown to the carrier: https only, never javascript:, data: or file: (CONTRACT section 19).
  imageUrl: z.url().max(2000).refine(isHttpsUrl, 'booking.httpsUrl').nullish(),
  declaredValue: amountSchema()
    .min(0, { message: 'customs.negativeValue' })
    .max(1_000_000_000)
    .nullish()
    .openapi({
      format: 'double',
      example: 120,
      description: "What the item is worth, in the trip's currency with at most its decimals (CONTRACT 21); needed for protection and shown on the customs declaration",
    }),
});

export const RecipientInputSchema = z
  .object({
    firstName: nameText(100),
    lastName: nameText(100),
    email: z.email().max(254).nullish(),
    phone: z
      .string()
      .trim()
      .regex(/^\+?[0-9 ().-]{6,20}$/, 'booking.phoneNumberDigitsSpaces')
      .nullish(),
    address: optionalText(300),
    city: optionalText(100),
    postalCode: optionalText(20),
    instructions: optionalText(1000),
  })
  .refine((r) => Boolean(r.phone || r.email), {
    message: 'booking.phoneNumberEmailRequired',
    path: ['phone'],
    ...whenValid('phone', 'email'),
  })
  // The refinement, said in the document too: a phone or an e-mail (a string, not null), or both.
  .openapi({
    description: 'Who receives the parcel: a phone number or an e-mail address (or both) is required',
    anyOf: [
      { required: ['phone'], properties: { phone: { type: 'string' } } },
      { required: ['email'], properties: { email: { type: 'string' } } },
    ],
  });

/** The fields POST /bookings and POST /annonces/{id}/offers share besides the weight. */
export const BOOKING_DETAILS = {
  contentInfo: optionalText(1000),
  items: z.array(ItemInputSchema).min(1).max(20),
  recipient: RecipientInputSchema,
  acknowledgedRestrictions: z
    .array(z.string().min(1).max(60))
    .max(50)
    .optional()
    .openapi({ description: "Codes of the corridor's restricted items the sender accepts (GET /reference/prohibited-items)" }),
  declarations: z
    .object({ noProhibitedItems: z.boolean() })
    .optional()
    .openapi({ description: 'What the sender declares about the contents, kept with the reservation and shown to the carrier' }),
};

/**
 * An item's `weight` is that line's weight (whatever its quantity); the booked kilos must hold
 * them all. Compared in grams, as stored. Spread into `.refine(...)`.
 */
export const itemsFitWeight: [(b: { reservedWeight: number; items: { weight?: number | null }[] }) => boolean, { message: string; path: string[] }] = [
  (b) => b.items.reduce((g, i) => g + Math.round((i.weight ?? 0) * 1000), 0) <= Math.round(b.reservedWeight * 1000),
  { message: 'booking.weightsItemsAddUp', path: ['items'], ...whenValid('reservedWeight', 'items') },
];

// The same shapes as the service takes them (after validation).
export interface ItemInput {
  categoryId: number;
  name?: string | null;
  reservedQuantity?: number;
  description?: string | null;
  weight?: number | null;
  lengthCm?: number | null;
  widthCm?: number | null;
  heightCm?: number | null;
  isFragile?: boolean;
  containsLiquids?: boolean;
  imageUrl?: string | null;
  /** In the trip's currency, as a JSON number (CONTRACT 21). */
  declaredValue?: number | null;
}

export interface CreateBookingInput {
  announcementId: number;
  reservedWeight: number;
  contentInfo?: string | null;
  items: ItemInput[];
  recipient: RecipientInfo;
  /** The codes of the corridor's restricted entries the sender accepts (CONTRACT 21). */
  acknowledgedRestrictions?: string[];
  declarations?: { noProhibitedItems: boolean };
  protection?: boolean;
}
