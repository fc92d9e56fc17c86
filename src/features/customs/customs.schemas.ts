// The customs declaration's JSON (CONTRACT 21) as a zod schema: the OpenAPI component.
import { z } from '@hono/zod-openapi';

const nullableText = () => z.string().nullable();

const CustomsPartySchema = z
  .object({
    name: z.string(),
    email: nullableText(),
    phone: nullableText().openapi({ description: "The sender's phone is shown to the sender only; the recipient's as booked" }),
    address: nullableText(),
    city: nullableText(),
    postalCode: nullableText(),
    country: z.string().openapi({ description: 'ISO 3166-1 alpha-2', example: 'SN' }),
  })
  .openapi('CustomsParty');

const CustomsItemSchema = z
  .object({
    description: z.string().openapi({ description: "The item's name, with the sender's description after a colon when there is one" }),
    quantity: z.number().openapi({ format: 'double' }),
    weight: z.number().nullable().openapi({ format: 'double', description: "The line's net weight in kg; null when the sender gave none" }),
    declaredValue: z.number().nullable().openapi({ format: 'double', description: 'In the currency of the declaration; null when the sender declared none' }),
    hsCode: z.string().optional().openapi({ description: "Harmonized System heading, only where the item's category names the goods unambiguously", example: '4901' }),
  })
  .openapi('CustomsItem');

export const CustomsDeclarationSchema = z
  .object({
    reservationNumber: z.string().openapi({ example: 'PX-7K3M9Q2A' }),
    sender: CustomsPartySchema,
    recipient: CustomsPartySchema,
    originCountry: z.string().openapi({ example: 'FR' }),
    destinationCountry: z.string().openapi({ example: 'SN' }),
    items: z.array(CustomsItemSchema),
    totalValue: z.number().openapi({ format: 'double', description: 'The sum of the declared values (items without one count 0)' }),
    currency: z.string().openapi({ example: 'EUR', description: "The reservation's currency" }),
    declaredAt: z.string().openapi({ format: 'date-time', description: 'When the sender declared the contents (the booking)' }),
  })
  .openapi('CustomsDeclaration');
