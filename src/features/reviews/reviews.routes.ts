// Reviews: POST /reviews, GET /users/{id}/reviews, GET /reviews/customers (CONTRACT section 13).
import { createRoute, z } from '@hono/zod-openapi';
import { createRouter } from '../../env';
import { authErrorResponses, errorResponses, jsonBody, jsonContent, signedIn } from '../../lib/openapi';
import { PageSchema, pageQuery } from '../../lib/pagination';
import { pathId } from '../../validation';
import { createReview, listCustomerReviews, listUserReviews } from './reviews.service';
import { idempotent } from '../../middleware/idempotency';

const ReviewSchema = z
  .object({
    id: z.number().int(),
    reservationId: z.number().int(),
    revieweeId: z.number().int(),
    reviewerRole: z.enum(['SENDER', 'CARRIER']),
    rating: z.number().int().min(1).max(5),
    comment: z.string().nullable(),
    createdAt: z.string().openapi({ format: 'date-time' }),
    reviewer: z.object({ id: z.number().int(), name: z.string(), avatarUrl: z.string().nullable() }),
  })
  .openapi('Review');

const RatingSummarySchema = z.object({ ratingAverage: z.number().nullable(), reviewCount: z.number().int() }).openapi('RatingSummary');

const NewReviewSchema = z
  .object({
    reservationId: z.number().int().positive(),
    rating: z.number().int().min(1).max(5),
    comment: z.string().trim().max(2000).optional(),
  })
  .openapi('NewReview');

const reviewsPage = pageQuery({ sortable: ['createdAt'], defaultSort: 'createdAt,desc' });

export const reviewsRouter = createRouter()
  .openapi(
    createRoute(idempotent({
      method: 'post',
      operationId: 'createReview',
      path: '/reviews',
      tags: ['Reviews'],
      summary: 'Review the other party of a delivered reservation (once)',
      description: 'Records the caller\'s rating (1 to 5) and optional comment of the other party of a DELIVERED reservation: the sender reviews the carrier, the carrier the sender. The reviewee\'s rating summary is updated in the same batch. Only the reservation\'s sender or carrier of record (anyone else, the carrying agency\'s staff included: 403 ACCESS_DENIED); a reservation not DELIVERED is 422 BUSINESS_RULE_VIOLATION; a second review of the same reservation by the same party is 409 ALREADY_EXISTS; an unknown reservation 404.',
      ...signedIn(),
      request: { body: jsonBody(NewReviewSchema) },
      responses: { 201: jsonContent(ReviewSchema, 'The review'), ...authErrorResponses(404, 409, 422) },
    })),
    async (c) => c.json(await createReview(c.get('deps'), c.get('auth'), c.req.valid('json')), 201),
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'listUserReviews',
      path: '/users/{id}/reviews',
      tags: ['Reviews'],
      summary: 'Reviews a user received, newest first, with the rating summary',
      description: 'A public page of the visible reviews the user received, as carrier or as sender, newest first, each with its reviewer\'s name, plus the user\'s rating summary (average and count). Reviews hidden by moderation are left out of both. An unknown user is 404 RESOURCE_NOT_FOUND.',
      security: [],
      request: { params: z.object({ id: pathId('id') }), query: reviewsPage },
      responses: {
        200: jsonContent(PageSchema(ReviewSchema, 'ReviewPage').extend({ summary: RatingSummarySchema }), 'Reviews page'),
        ...errorResponses(404),
      },
    }),
    async (c) => c.json(await listUserReviews(c.get('deps'), c.req.valid('param').id, c.req.valid('query')), 200),
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'listCustomerReviews',
      path: '/reviews/customers',
      tags: ['Reviews'],
      summary: 'Public page of recent customer (sender) reviews',
      description: 'A public page of the visible reviews written by senders about their carriers, newest first, for the marketing site and the app\'s home screen. Reviews hidden by moderation are left out.',
      security: [],
      request: { query: reviewsPage },
      responses: { 200: jsonContent(PageSchema(ReviewSchema, 'CustomerReviewPage'), 'Reviews page'), ...errorResponses() },
    }),
    async (c) => c.json(await listCustomerReviews(c.get('deps'), c.req.valid('query')), 200),
  );
