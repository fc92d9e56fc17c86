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
    createdAt: z.string(),
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
      ...signedIn(),
      request: { body: jsonBody(NewReviewSchema) },
      responses: { 201: jsonContent(ReviewSchema, 'The review'), ...authErrorResponses(404, 409, 422) },
    })),
    async (c) => c.json(await createReview(c.var.deps, c.get('auth'), c.req.valid('json')), 201),
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'listUserReviews',
      path: '/users/{id}/reviews',
      tags: ['Reviews'],
      summary: 'Reviews a user received, newest first, with the rating summary',
      security: [],
      request: { params: z.object({ id: pathId('id') }), query: reviewsPage },
      responses: {
        200: jsonContent(PageSchema(ReviewSchema, 'ReviewPage').extend({ summary: RatingSummarySchema }), 'Reviews page'),
        ...errorResponses(404),
      },
    }),
    async (c) => c.json(await listUserReviews(c.var.deps, c.req.valid('param').id, c.req.valid('query')), 200),
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'listCustomerReviews',
      path: '/reviews/customers',
      tags: ['Reviews'],
      summary: 'Public page of recent customer (sender) reviews',
      security: [],
      request: { query: reviewsPage },
      responses: { 200: jsonContent(PageSchema(ReviewSchema, 'CustomerReviewPage'), 'Reviews page'), ...errorResponses() },
    }),
    async (c) => c.json(await listCustomerReviews(c.var.deps, c.req.valid('query')), 200),
  );
