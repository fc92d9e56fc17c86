// RFC 8058 one-click unsubscribe: the mail client POSTs the List-Unsubscribe URL of a notification
// e-mail; the signed token names the user and the kind, whose e-mail is turned off without a login.
import { createRoute, z } from '@hono/zod-openapi';
import { eq, sql } from 'drizzle-orm';
import { html } from 'hono/html';
import type { Context } from 'hono';
import { AppError } from '../../errors';
import { htmlPage, htmlResponse } from '../../lib/html-page';
import { preferredLocale } from '../../lib/locale';
import { notificationPreferences, users, type Locale } from '../../db/schema';
import { createRouter, type AppEnv, type Deps } from '../../env';
import { invalidArgument } from '../../errors';
import { errorResponses, jsonContent } from '../../lib/openapi';
import { NOTIFICATION_KINDS, type NotificationKind } from './notify';
import { NOTIFICATION_TEMPLATES } from './templates';
import { defaultChannels } from './preferences.rules';
import { openUnsubscribeToken } from './unsubscribe-token';
import { render } from '../../messages';

const refused = (reason: 'FORGED' | 'EXPIRED') =>
  invalidArgument('delivery.unsubscribeLinkInvalid', {
    fieldErrors: [{ field: 'token', message: reason === 'EXPIRED' ? 'delivery.expired' : 'delivery.invalidForged', rejectedValue: '[redacted]' }],
    suggestions: ['delivery.useLinkRecentMail'],
  });

/** Turns the e-mail of the token's kind off for its user; the other channels keep their choice. The route's schema bounds the token's length. */
export async function unsubscribe(deps: Deps, token: string): Promise<{ kind: NotificationKind; locale: Locale }> {
  const { db, env } = deps;
  const opened = await openUnsubscribeToken(env, token);
  if (!opened.ok) throw refused(opened.reason);
  const { claims } = opened;
  if (!(NOTIFICATION_KINDS as readonly string[]).includes(claims.kind)) throw refused('FORGED');
  await db
    .insert(notificationPreferences)
    .values({ userId: claims.userId, kind: claims.kind, ...defaultChannels(claims.kind), email: false })
    .onConflictDoUpdate({ target: [notificationPreferences.userId, notificationPreferences.kind], set: { email: false, updatedAt: sql`excluded.updated_at` } });
  const [user] = await db.select({ locale: users.locale }).from(users).where(eq(users.id, claims.userId));
  return { kind: claims.kind as NotificationKind, locale: user?.locale ?? 'en' }; // checked against NOTIFICATION_KINDS above
}

export const unsubscribeRouter = createRouter().openapi(
  createRoute({
    method: 'post',
    operationId: 'unsubscribeOneClick',
    path: '/unsubscribe',
    tags: ['Notifications'],
    summary: "One-click unsubscribe (RFC 8058): turns the e-mail of one notification kind off, without a login",
    description: 'The URL of a notification e-mail\'s List-Unsubscribe header, POSTed by the mail client (RFC 8058): the signed token names the user and the notification kind, whose e-mail is switched off; push, SMS, the in-app list and the other kinds keep their choice. A forged, altered or expired token is 400 INVALID_ARGUMENT on the token field. Repeating it changes nothing more.',
    security: [],
    request: { query: z.object({ token: z.string().min(1).max(1000).openapi({ param: { name: 'token', in: 'query' }, description: 'From the List-Unsubscribe header' }) }) },
    responses: {
      200: jsonContent(z.object({ message: z.string(), kind: z.enum(NOTIFICATION_KINDS) }).openapi('UnsubscribeResult'), 'That kind of e-mail is off'),
      ...errorResponses(),
    },
  }),
  async (c) => {
    const { kind, locale } = await unsubscribe(c.get('deps'), c.req.valid('query').token);
    // A mail client posts it, usually naming no language: the account's own then (CONTRACT 26).
    const reader = preferredLocale(c.req.header('Accept-Language'), locale);
    c.header('Content-Language', reader);
    return c.json({ message: render('page.unsubscribed', reader), kind }, 200);
  },
);

// The visible unsubscribe link of an e-mail (CONTRACT section 19) opens this page, which asks
// before it turns anything off: mail link checkers open every link of a message, and a GET must
// not unsubscribe. The form POSTs the same token back; the result is a page, not JSON.
const PageQuery = z.object({ token: z.string().min(1).max(1000).openapi({ param: { name: 'token', in: 'query' }, description: 'From the e-mail' }) });

const PAGE_TEXT = {
  fr: {
    title: 'Se désabonner',
    ask: (kind: string) => `Ne plus recevoir d’e-mails « ${kind} » ? Les notifications dans l’application et les autres e-mails continuent.`,
    button: 'Me désabonner',
    done: (kind: string) => `C’est fait : vous ne recevrez plus d’e-mails « ${kind} ». Vous pouvez les réactiver dans les préférences de l’application.`,
    invalid: 'Ce lien de désabonnement n’est pas valable ou a expiré. Changez vos préférences dans l’application.',
  },
  en: {
    title: 'Unsubscribe',
    ask: (kind: string) => `Stop receiving "${kind}" emails? In-app notifications and other emails continue.`,
    button: 'Unsubscribe me',
    done: (kind: string) => `Done: you will no longer receive "${kind}" emails. You can turn them back on in the app's preferences.`,
    invalid: 'This unsubscribe link is invalid or has expired. Change your preferences in the app.',
  },
} as const;

const kindName = (kind: string, locale: 'fr' | 'en') =>
  Object.hasOwn(NOTIFICATION_TEMPLATES, kind) ? NOTIFICATION_TEMPLATES[kind as NotificationKind].subject[locale] : kind;

const pageLocale = (c: Context<AppEnv>) => preferredLocale(c.req.header('Accept-Language'), 'fr');

async function unsubscribePage(c: Context<AppEnv>, token: string, confirm: boolean) {
  const locale = pageLocale(c);
  const t = PAGE_TEXT[locale];
  c.header('Cache-Control', 'no-store');
  c.header('Referrer-Policy', 'no-referrer');
  try {
    if (!confirm) {
      const opened = await openUnsubscribeToken(c.env, token);
      if (!opened.ok || !(NOTIFICATION_KINDS as readonly string[]).includes(opened.claims.kind)) throw refused(opened.ok ? 'FORGED' : opened.reason);
      const body = html`<p id="ask">${t.ask(kindName(opened.claims.kind, locale))}</p>
        <form method="post" action="/unsubscribe?token=${encodeURIComponent(token)}"><button type="submit">${t.button}</button></form>`;
      return c.html(htmlPage(t.title, body, '', locale), 200);
    }
    const { kind } = await unsubscribe(c.get('deps'), token);
    return c.html(htmlPage(t.title, html`<p id="done">${t.done(kindName(kind, locale))}</p>`, '', locale), 200);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return c.html(htmlPage(t.title, html`<p id="invalid">${t.invalid}</p>`, '', locale), 400);
  }
}

export const unsubscribePageRouter = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'unsubscribePage',
      path: '/unsubscribe',
      tags: ['Notifications'],
      summary: "The page of an e-mail's visible unsubscribe link: asks before turning that kind's e-mail off (HTML)",
      description: 'What the visible unsubscribe link of a notification e-mail opens: an HTML page (French or English by Accept-Language) naming the kind of e-mail and asking for confirmation, with a button posting to POST /unsubscribe. Opening it changes nothing, since mail link checkers open every link. A forged or expired token answers 400 with a page saying so.',
      security: [],
      request: { query: PageQuery },
      responses: { 200: htmlResponse('The question, with a button'), 400: htmlResponse('An invalid or expired link') },
    }),
    (c) => unsubscribePage(c, c.req.valid('query').token, false),
  )
  .openapi(
    createRoute({
      method: 'post',
      operationId: 'submitUnsubscribePage',
      path: '/unsubscribe',
      tags: ['Notifications'],
      summary: "The unsubscribe page's button: turns that kind's e-mail off (HTML)",
      description: 'The confirmation button of GET /unsubscribe: switches that kind\'s e-mail off for the token\'s user, like POST /v1/api/unsubscribe, and answers a page saying it is done and that it can be turned back on in the app\'s preferences. A forged or expired token answers 400 with a page saying so.',
      security: [],
      request: { query: PageQuery },
      responses: { 200: htmlResponse('Done'), 400: htmlResponse('An invalid or expired link') },
    }),
    (c) => unsubscribePage(c, c.req.valid('query').token, true),
  );
