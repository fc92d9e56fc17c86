// What the route definitions cannot say on their own and every client generator needs: the tags in
// the order a client team reads them, with descriptions, and the response headers the middleware
// adds to every answer (request id, D1 bookmark, idempotent replay, Retry-After, Location), and the
// answers any operation can give (304 to a matching If-None-Match, 503 from the configuration gate).
import type { OpenAPIHono } from '@hono/zod-openapi';
import { BOOKMARK_HEADER } from '../../db/session';
import { IDEMPOTENCY_HEADER } from '../../middleware/idempotency';
import { GUARDED_ROUTES, policyHeader } from '../../middleware/rate-limit';
import { ERROR_DESCRIPTIONS } from '../../lib/openapi';
import { accessSentence } from './access';
import { truthfulSchemas } from './truth';

/** Declared tags, in reading order: sign in first, then the marketplace, money, back office, plumbing. */
export const TAGS: { name: string; description: string }[] = [
  { name: 'Authentication', description: 'Accounts and tokens: register, log in (password, Google, Apple), refresh, log out, e-mail verification and passwords.' },
  { name: 'Users', description: 'The caller’s profile and public profiles.' },
  { name: 'Reference data', description: 'Countries and their main cities, for pickers.' },
  { name: 'Categories', description: 'What a parcel may contain: allowed and prohibited categories.' },
  { name: 'Announcements', description: 'Trips with spare luggage capacity: publish, search, update, cancel.' },
  { name: 'Search alerts', description: 'Saved searches that notify the caller when a matching trip is published.' },
  { name: 'Reservations', description: 'Booking kilos on a trip and the reservation’s life: accept, reject, cancel.' },
  { name: 'Offers', description: 'Agreeing on terms before booking: a sender’s offer, the carrier’s counter-offer, acceptance as a reservation (CONTRACT 22).' },
  { name: 'Payments', description: 'Hosted checkout with the payment held in escrow until delivery, and the payment status.' },
  { name: 'Handover', description: 'Deposit and delivery by dynamic QR code or 6-digit code, and the recipient’s public view.' },
  { name: 'Tracking', description: 'The carrier’s GPS positions, their history and a live WebSocket feed.' },
  { name: 'Reviews', description: 'Ratings between sender and carrier after delivery.' },
  { name: 'Disputes', description: 'Disputes on a reservation, their evidence and messages, and their resolution.' },
  {
    name: 'Conversations',
    description:
      'Messages between the sender and the carrier of a reservation: REST pages, the live WebSocket feed, unread counts; contact details hidden until payment.',
  },
  { name: 'Notifications', description: 'The caller’s in-app notifications, and the devices registered for push.' },
  { name: 'Files', description: 'Uploads (images, PDF) and their downloads, for their owner and the parties entitled to them.' },
  { name: 'KYC', description: 'Identity verification with the KYC provider, and its review by super-admins.' },
  { name: 'Wallet', description: 'The carrier’s (or agency’s) earnings: balance, pending and available amounts.' },
  { name: 'Transactions', description: 'The money history of the caller, its summary and PDF receipts.' },
  { name: 'Withdrawals', description: 'Payouts from a wallet to the owner’s connected payment account, by hand or automatically.' },
  { name: 'Pay connect', description: 'Onboarding of the connected payment account that receives payouts.' },
  { name: 'Agencies', description: 'Transport agencies: branches, employees, documents and their money.' },
  { name: 'Dashboards', description: 'Figures for a carrier, a sender or an agency.' },
  { name: 'Reports', description: 'Reports of users, announcements and reviews, and their moderation.' },
  { name: 'Administration', description: 'Back office: users, moderation queues, audit log, caches and supervision.' },
  { name: 'Super-admin', description: 'Super-admin views of every reservation, KYC record and agency.' },
  { name: 'Analytics', description: 'Platform figures and time series for operators.' },
  { name: 'Webhooks', description: 'Events posted by the payment and KYC providers, authenticated by their signatures.' },
  { name: 'Account pages', description: 'The pages the e-mail links open (confirm the address, choose a new password) and the app-link files that open the app instead on a phone.' },
  { name: 'Service', description: 'Health, this document and the reference page.' },
  { name: 'Development', description: 'Local development helpers (absent in production).' },
  { name: 'Sandbox', description: 'Pages of the sandbox providers used by local runs (absent in production).' },
];

const HEADERS = {
  'X-Request-Id': {
    description: 'Identifier of this request (the one the client sent, or a new one); quote it when reporting a problem',
    schema: { type: 'string' },
  },
  [BOOKMARK_HEADER]: {
    description: `D1 session bookmark: send it back in the ${BOOKMARK_HEADER} request header so the next request reads at least what this one saw or wrote`,
    schema: { type: 'string' },
  },
  'Idempotent-Replayed': {
    description: `"true" when this is the stored answer to an earlier request with the same ${IDEMPOTENCY_HEADER}`,
    schema: { type: 'string', enum: ['true'] },
  },
  'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer', minimum: 1 } },
  Location: { description: 'Where the browser goes next', schema: { type: 'string' } },
  'Cache-Control': {
    description: '`private, no-store` on every answer to an authenticated request; `public, max-age=<seconds>` on anonymous reads of public reference data; `no-store` otherwise',
    schema: { type: 'string' },
  },
  ETag: {
    description: 'Strong validator of the body: send it in If-None-Match to get 304 Not Modified, without a body, while it is unchanged',
    schema: { type: 'string' },
  },
  'RateLimit-Policy': {
    description: 'The rate limit that applies to this route, per client IP (IETF httpapi draft): "<name>";q=<requests>;w=<seconds>',
    schema: { type: 'string' },
  },
  'Content-Language': {
    description:
      'Language of the error texts (message, fieldErrors[].message, suggestions): fr when the Accept-Language request header prefers French, en otherwise; the errorCode is the same in both',
    schema: { type: 'string', enum: ['en', 'fr'] },
  },
  Deprecation: {
    description: 'On a deprecated operation (RFC 9745): when it was deprecated, as @<unix seconds>; docs/VERSIONING.md says how it is retired',
    schema: { type: 'string' },
  },
  Sunset: {
    description: 'On a deprecated operation (RFC 8594): the HTTP date after which it may be removed',
    schema: { type: 'string' },
  },
  Link: {
    description: 'On a deprecated operation that has a successor: <path>; rel="successor-version"',
    schema: { type: 'string' },
  },
  RateLimit: {
    description: 'Sent with a 429: "<name>";r=0;t=<seconds until the window resets> (IETF httpapi draft)',
    schema: { type: 'string' },
  },
} as const;

type HeaderName = keyof typeof HEADERS;

/** The configuration gate (middleware/configuration.ts) can answer any request this way. */
const NOT_CONFIGURED = {
  description: 'The deployment is missing a secret or binding (INTERNAL_ERROR naming it): an operator must fix the configuration',
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' } } },
};

const NOT_MODIFIED = { description: 'Not Modified: the If-None-Match header holds the current ETag (no body)' };

const TOO_MANY_REQUESTS = {
  description: ERROR_DESCRIPTIONS[429],
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' } } },
};
const ref = (name: HeaderName) => ({ $ref: `#/components/headers/${name}` });
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

export type OpenApiDocument = ReturnType<OpenAPIHono['getOpenAPI31Document']>;

/** The headers of one response, from its status, its path and whether the operation is idempotent. */
function responseHeaders(status: string, get: boolean, apiPath: boolean, idempotent: boolean, limited: boolean): HeaderName[] {
  const names: HeaderName[] = ['X-Request-Id', 'Cache-Control'];
  if (limited) names.push('RateLimit-Policy');
  if (limited && status === '429') names.push('RateLimit');
  if (apiPath) names.push(BOOKMARK_HEADER);
  if (idempotent && status.startsWith('2')) names.push('Idempotent-Replayed');
  if (get && (status === '200' || status === '304')) names.push('ETag');
  if (status === '429') names.push('Retry-After');
  if (status.startsWith('3')) names.push('Location');
  if (/^[45]/.test(status)) names.push('Content-Language');
  return names;
}

/**
 * Adds the declared tags and the documented response headers to the generated document; every
 * operation's description says what it does (its route's own text) and who may call it (the roles
 * its middleware requires, `x-required-roles`, else its security).
 */
export function finishDocument(doc: OpenApiDocument, apiPrefix: string): OpenApiDocument {
  doc.tags = TAGS;
  // OpenAPI 3.1 names a license by SPDX identifier; the generator's config type predates the field.
  doc.info.license = { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' } as typeof doc.info.license;
  doc.components = { ...doc.components, headers: HEADERS as never };
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const idempotent = (op.parameters ?? []).some((p) => 'name' in p && p.name === IDEMPOTENCY_HEADER);
      // Every operation states what it does in its own words (test/openapi-descriptions.test.ts):
      // no copy of the summary stands in for a missing one.
      op.description = [op.description, accessSentence((op as { 'x-required-roles'?: string[] })['x-required-roles'], op.security ?? doc.security)].filter(Boolean).join('\n\n');
      const guard = GUARDED_ROUTES.find((r) => r.method === method && r.path === path);
      if (guard) {
        op.responses = { ...op.responses, 429: TOO_MANY_REQUESTS };
        op.description = [op.description, `Rate limited per client IP: ${policyHeader(guard.policy)}.`].filter(Boolean).join('\n\n');
      }
      if (method === 'get' && op.responses?.['200']) op.responses['304'] = NOT_MODIFIED;
      op.responses = { ...op.responses, 503: NOT_CONFIGURED };
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        if ('$ref' in response) continue;
        const headers = responseHeaders(status, method === 'get', path.startsWith(apiPrefix), idempotent, guard !== undefined);
        if (op.deprecated) headers.push('Deprecation', 'Sunset', 'Link');
        response.headers = { ...response.headers, ...Object.fromEntries(headers.map((h) => [h, ref(h)])) };
      }
    }
  }
  // Only the headers some answer uses (Deprecation, Sunset and Link wait for a deprecated operation).
  const used = new Set(JSON.stringify(doc.paths).match(/#\/components\/headers\/[\w-]+/g) ?? []);
  doc.components.headers = Object.fromEntries(Object.entries(HEADERS).filter(([name]) => used.has(`#/components/headers/${name}`))) as never;
  return truthfulSchemas(doc);
}
