// GET and PUT /user/me/notification-preferences (CONTRACT section 16).
import { createRoute, z } from '@hono/zod-openapi';
import { LOCALES } from '../../db/schema';
import { createRouter } from '../../env';
import { authErrorResponses, jsonBody, jsonContent, signedIn } from '../../lib/openapi';
import { whenValid } from '../../validation';
import { NOTIFICATION_KINDS } from './notify';
import { getPreferences, putPreferences } from './preferences.service';

const KindChannelsSchema = z
  .object({
    kind: z.enum(NOTIFICATION_KINDS),
    email: z.boolean(),
    push: z.boolean(),
    sms: z.boolean().openapi({ description: 'Sent only to an international number (+...) in the profile' }),
  })
  .openapi('NotificationChannels');

const PreferencesSchema = z
  .object({
    locale: z.enum(LOCALES).openapi({ description: 'Language of the e-mails, push and SMS sent to the user' }),
    channels: z.array(KindChannelsSchema).openapi({ description: 'One row per notification kind' }),
  })
  .openapi('NotificationPreferences', {
    description: 'Defaults: e-mail and push on, SMS on for the handover steps (deposit, delivery). Security messages ignore these choices.',
  });

const PreferencesUpdateSchema = z
  .object({
    locale: z.enum(LOCALES).optional().openapi({ description: 'Unchanged when absent' }),
    channels: z
      .array(KindChannelsSchema)
      .max(NOTIFICATION_KINDS.length)
      .openapi({ description: 'The kinds to change, each once; the kinds not listed keep their choice' }),
  })
  .superRefine((body, ctx) => {
    const seen = new Set<string>();
    body.channels.forEach((row, i) => {
      if (seen.has(row.kind)) ctx.addIssue({ code: 'custom', path: ['channels', i, 'kind'], message: 'delivery.listedTwice', input: row.kind });
      seen.add(row.kind);
    });
  }, whenValid('channels'))
  .openapi('NotificationPreferencesUpdate');

const TAGS = ['Notifications'];

export const preferencesRouter = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'getMyNotificationPreferences',
      path: '/user/me/notification-preferences',
      tags: TAGS,
      summary: "The caller's language and, per notification kind, the channels it goes out on",
      description: 'The language the caller\'s e-mails, push and SMS are written in, and for every notification kind whether it goes out by e-mail, push and SMS. Kinds never changed show the defaults: e-mail and push on, SMS on for the handover steps only; SMS reach only an international number (+...) of the profile. Security e-mails (verification, reset, password changed) and the in-app notification list ignore these choices.',
      ...signedIn(),
      responses: { 200: jsonContent(PreferencesSchema, 'The preferences'), ...authErrorResponses(404) },
    }),
    async (c) => c.json(await getPreferences(c.get('deps'), c.get('auth').id), 200),
  )
  .openapi(
    createRoute({
      method: 'put',
      operationId: 'updateMyNotificationPreferences',
      path: '/user/me/notification-preferences',
      tags: TAGS,
      summary: "Change the caller's language and the channels of the kinds listed",
      description: 'Sets the language when locale is given and, for each kind listed, its three channels; kinds not listed keep their choice. A kind listed twice is 400 VALIDATION_ERROR. The e-mails\' unsubscribe links (GET /unsubscribe, POST /unsubscribe) switch the same e-mail choice off for one kind without signing in. Answers the whole preferences after the change.',
      ...signedIn(),
      request: { body: jsonBody(PreferencesUpdateSchema) },
      responses: { 200: jsonContent(PreferencesSchema, 'The preferences after the change'), ...authErrorResponses(404) },
    }),
    async (c) => c.json(await putPreferences(c.get('deps'), c.get('auth').id, c.req.valid('json')), 200),
  );
