// RFC 8058 one-click unsubscribe: the mail client POSTs the List-Unsubscribe URL of a notification
// e-mail; the signed token names the user and the kind, whose e-mail is turned off without a login.
import { createRoute, z } from '@hono/zod-openapi';
import { sql } from 'drizzle-orm';
import { notificationPreferences } from '../../db/schema';
import { createRouter, type Deps } from '../../env';
import { invalidArgument } from '../../errors';
import { errorResponses, jsonContent } from '../../lib/openapi';
import { NOTIFICATION_KINDS } from '../notifications/notify';
import { defaultChannels } from './preferences.rules';
import { openUnsubscribeToken } from './unsubscribe-token';

const refused = (reason: 'FORGED' | 'EXPIRED') =>
  invalidArgument('The unsubscribe link is invalid', {
    fieldErrors: [{ field: 'token', message: reason === 'EXPIRED' ? 'expired' : 'invalid or forged', rejectedValue: '[redacted]' }],
    suggestions: ['Use the link of a recent e-mail, or change the preferences in the app'],
  });

/** Turns the e-mail of the token's kind off for its user; the other channels keep their choice. The route's schema bounds the token's length. */
export async function unsubscribe(deps: Deps, token: string): Promise<{ kind: string }> {
  const { db, env } = deps;
  const opened = await openUnsubscribeToken(env, token);
  if (!opened.ok) throw refused(opened.reason);
  const { claims } = opened;
  if (!(NOTIFICATION_KINDS as readonly string[]).includes(claims.kind)) throw refused('FORGED');
  await db
    .insert(notificationPreferences)
    .values({ userId: claims.userId, kind: claims.kind, ...defaultChannels(claims.kind), email: false })
    .onConflictDoUpdate({ target: [notificationPreferences.userId, notificationPreferences.kind], set: { email: false, updatedAt: sql`excluded.updated_at` } });
  return { kind: claims.kind };
}

export const unsubscribeRouter = createRouter().openapi(
  createRoute({
    method: 'post',
    operationId: 'unsubscribeOneClick',
    path: '/unsubscribe',
    tags: ['Notifications'],
    summary: "One-click unsubscribe (RFC 8058): turns the e-mail of one notification kind off, without a login",
    security: [],
    request: { query: z.object({ token: z.string().min(1).max(1000).openapi({ param: { name: 'token', in: 'query' }, description: 'From the List-Unsubscribe header' }) }) },
    responses: {
      200: jsonContent(z.object({ message: z.string(), kind: z.string() }).openapi('UnsubscribeResult'), 'That kind of e-mail is off'),
      ...errorResponses(),
    },
  }),
  async (c) => {
    const { kind } = await unsubscribe(c.var.deps, c.req.valid('query').token);
    return c.json({ message: 'You will no longer receive this kind of e-mail', kind }, 200);
  },
);
