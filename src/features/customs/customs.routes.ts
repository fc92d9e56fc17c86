// GET /bookings/{id}/customs-declaration (CONTRACT 21): the JSON, or with ?format=pdf the CN23-style
// printable form in the caller's language. Thin: customs.service.ts decides.
import { createRoute, z } from '@hono/zod-openapi';
import { createRouter } from '../../env';
import { languageHeaders, readerLocale } from '../../lib/locale';
import { authErrorResponses, signedIn } from '../../lib/openapi';
import { IdParams } from '../../validation';
import { CustomsDeclarationSchema } from './customs.schemas';
import { getCustomsDeclaration, getCustomsDeclarationPdf } from './customs.service';

const FormatQuery = z.object({
  format: z
    .enum(['json', 'pdf'])
    .default('json')
    .openapi({ param: { name: 'format', in: 'query' }, description: 'json (default) or pdf: the printable CN23-style form in the language of Accept-Language (English unless French is preferred)' }),
});

export const customsRouter = createRouter().openapi(
  createRoute({
    method: 'get',
    operationId: 'getCustomsDeclaration',
    path: '/bookings/{id}/customs-declaration',
    tags: ['Reservations'],
    summary: 'The customs declaration of a paid reservation, as JSON or as a printable CN23-style PDF',
    description:
      "For the reservation's sender and its carrier side (the carrier, or the owner and the trip's branch staff of the carrying agency); anyone else gets 403. It exists once the reservation is paid and while the parcel is carried or delivered (PAID, CONFIRMED, DEPOSITED, IN_TRANSIT, DELIVERED, DISPUTED): before payment, or for a reservation cancelled, rejected, expired or refunded, 409 INVALID_STATE. The values are those the sender declared per item at booking, in the reservation's currency. With format=pdf the answer is the form to print and show at the border, in French or English by Accept-Language.",
    ...signedIn(),
    request: { params: IdParams, query: FormatQuery },
    responses: {
      200: {
        description: 'The declaration (JSON), or the CN23-style form (PDF) with format=pdf',
        content: {
          'application/json': { schema: CustomsDeclarationSchema },
          'application/pdf': { schema: z.string().openapi({ format: 'binary' }) },
        },
      },
      ...authErrorResponses(404, 409),
    },
  }),
  async (c) => {
    const { id } = c.req.valid('param');
    if (c.req.valid('query').format === 'json') return c.json(await getCustomsDeclaration(c.get('deps'), c.get('auth'), id), 200);
    const locale = readerLocale(c.req.header('Accept-Language'));
    const { pdf, reservationNumber } = await getCustomsDeclarationPdf(c.get('deps'), c.get('auth'), id, locale);
    return c.body(pdf, 200, {
      'Content-Type': 'application/pdf',
      'Content-Disposition': `inline; filename="customs-declaration-${reservationNumber}.pdf"`,
      'Cache-Control': 'private, max-age=0',
      ...languageHeaders(locale),
    });
  },
);
