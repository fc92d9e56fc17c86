// The development outbox (CONTRACT section 16, local run): what the sandbox providers "sent",
// newest first, as JSON (GET /v1/api/dev/outbox) and as a page where a person clicks the
// verification, reset and recipient links (root /dev/outbox). Outside ENVIRONMENT=development
// both answer as if they did not exist; the production build does not mount them at all.
import { createRoute, z } from '@hono/zod-openapi';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import { html } from 'hono/html';
import { DELIVERY_CHANNELS, outboxMessages, type OutboxMessageRow } from '../../db/schema';
import { createRouter, type Deps } from '../../env';
import { htmlPage, htmlResponse } from '../../lib/html-page';
import { errorResponses, jsonContent } from '../../lib/openapi';
import { developmentOnly } from '../../middleware/development-only';
import { readPage } from '../../db/statements';
import { orderBy, PageSchema, pageQuery, toPage, type PageParams } from '../../lib/pagination';

const TAGS = ['Development'];

const OutboxQuery = pageQuery({ sortable: ['createdAt'], defaultSort: 'createdAt,desc' }).extend({
  to: z.string().max(320).optional().openapi({ param: { name: 'to', in: 'query' }, description: 'Only messages to this address, token or number' }),
  channel: z.enum(DELIVERY_CHANNELS).optional().openapi({ param: { name: 'channel', in: 'query' } }),
});

const OutboxMessageSchema = z
  .object({
    id: z.number().int(),
    channel: z.enum(DELIVERY_CHANNELS),
    to: z.string(),
    template: z.string().openapi({ example: 'EMAIL_VERIFICATION' }),
    locale: z.enum(['fr', 'en']),
    subject: z.string().nullable(),
    text: z.string(),
    links: z.array(z.string()).openapi({ description: 'Every absolute link the message carries' }),
    createdAt: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('OutboxMessage');

const toOutboxMessage = (row: OutboxMessageRow) => ({
  id: row.id,
  channel: row.channel,
  to: row.to,
  template: row.template,
  locale: row.locale,
  subject: row.subject,
  text: row.text,
  links: row.links,
  createdAt: row.createdAt,
});

/** A page of what the sandboxes recorded, newest first. */
export async function listOutbox(deps: Deps, p: PageParams<'createdAt'> & { to?: string; channel?: (typeof DELIVERY_CHANNELS)[number] }) {
  const { db } = deps;
  // Addresses match whatever their case (e-mails are typed in any case); push tokens are
  // case-sensitive, so the stored value is compared lowered rather than stored lowered.
  const to = p.to?.trim().toLowerCase();
  const where: SQL | undefined = and(to ? sql`lower(${outboxMessages.to}) = ${to}` : undefined, p.channel ? eq(outboxMessages.channel, p.channel) : undefined);
  const order = orderBy(p.sort, { createdAt: outboxMessages.id }, outboxMessages.id);
  const { rows, total } = await readPage(db, outboxMessages, where, order, p);
  return toPage(rows.map(toOutboxMessage), total, p);
}

export const devOutboxRouter = createRouter().openapi(
  createRoute({
    method: 'get',
    operationId: 'listDevOutbox',
    path: '/dev/outbox',
    tags: TAGS,
    summary: 'What the sandbox providers "sent", newest first (ENVIRONMENT=development only)',
    description: 'A page of the messages the sandbox e-mail, push and SMS providers recorded instead of sending them, newest first, each with its rendered subject and text and every link it carries (verification, reset, recipient page); to (case-insensitive) and channel filter. Outside ENVIRONMENT=development it answers 404 as if it did not exist, and the production build does not mount it.',
    security: [],
    middleware: [developmentOnly] as const,
    request: { query: OutboxQuery },
    responses: { 200: jsonContent(PageSchema(OutboxMessageSchema, 'OutboxMessagePage'), 'A page'), ...errorResponses(404) },
  }),
  async (c) => {
    return c.json(await listOutbox(c.get('deps'), c.req.valid('query')), 200);
  },
);

const STYLE =
  'body { max-width: 56rem; } article { border: 1px solid #ddd; border-radius: 8px; padding: .8rem 1rem; margin: 1rem 0; } ' +
  'pre { white-space: pre-wrap; background: #f6f6f6; padding: .6rem; border-radius: 6px; } .meta { color: #555; font-size: .9rem; } ' +
  'form input, form select { font-size: 1rem; padding: .3rem; margin-right: .5rem; } a.link { display: inline-block; margin: .2rem 0; font-weight: 600; word-break: break-all; }';

export const devOutboxPageRouter = createRouter().openapi(
  createRoute({
    method: 'get',
    operationId: 'devOutboxPage',
    path: '/dev/outbox',
    tags: TAGS,
    summary: 'The development outbox as a page: click the verification, reset and recipient links (ENVIRONMENT=development only)',
    description: 'The same outbox as an HTML page with a filter form, where a person opens the links of the recorded messages (verify an address, reset a password, open a recipient page) during a local run. Outside ENVIRONMENT=development it answers 404, and the production build does not mount it.',
    security: [],
    middleware: [developmentOnly] as const,
    request: { query: OutboxQuery },
    responses: { 200: htmlResponse('The outbox'), ...errorResponses(404) },
  }),
  async (c) => {
    const query = c.req.valid('query');
    const page = await listOutbox(c.get('deps'), query);
    c.header('Cache-Control', 'no-store');
    const body = html`<form method="get" action="/dev/outbox">
        <input name="to" type="search" placeholder="to (address)" value="${query.to ?? ''}" aria-label="Recipient" />
        <select name="channel" aria-label="Channel">
          <option value="">all channels</option>
          ${DELIVERY_CHANNELS.map((ch) => html`<option value="${ch}" ${query.channel === ch ? 'selected' : ''}>${ch}</option>`)}
        </select>
        <button type="submit">Filter</button>
      </form>
      <p class="meta">${page.page.totalElements} message(s), newest first.</p>
      ${page.content.length === 0 ? html`<p id="empty">Nothing sent yet.</p>` : ''}
      ${page.content.map(
        (m) => html`<article data-template="${m.template}" data-to="${m.to}">
          <h2>${m.subject ?? m.template}</h2>
          <p class="meta">${m.channel} to <strong>${m.to}</strong> · ${m.template} · ${m.locale} · ${m.createdAt}</p>
          ${m.links.map((link) => html`<a class="link" href="${link}">${link}</a><br />`)}
          <details><summary>Text</summary><pre>${m.text}</pre></details>
        </article>`,
      )}`;
    return c.html(htmlPage('Development outbox', body, STYLE), 200);
  },
);
