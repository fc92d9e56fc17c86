// Request and response shapes of the conversation routes (CONTRACT section 17).
import { z } from '@hono/zod-openapi';
import { PageSchema, pageQuery } from '../../lib/pagination';
import { decimalInt } from '../../validation';
import { MAX_BODY_LENGTH, MAX_FILES_PER_MESSAGE } from './conversations.service';
import { HIDDEN } from './masking';

export const MessageSchema = z
  .object({
    id: z.number().int().openapi({ description: 'Increasing within the conversation: the order of REST pages and of the live feed' }),
    reservationId: z.number().int(),
    authorId: z.number().int(),
    authorName: z.string().openapi({ description: 'The author as the thread showed them; empty once their account was deleted (show "deleted user" in the reader\'s language)' }),
    body: z.string(),
    fileIds: z.array(z.number().int()).openapi({ description: 'PARCEL_IMAGE files, read through GET /files/{id}' }),
    createdAt: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('ConversationMessage');

export const NewMessageSchema = z
  .object({
    body: z
      .string()
      .trim()
      .min(1)
      .max(MAX_BODY_LENGTH)
      .openapi({
        description: `1 to ${MAX_BODY_LENGTH} characters after trimming. Until the reservation is paid, phone numbers, e-mail addresses and links are replaced by "${HIDDEN}".`,
      }),
    fileIds: z
      .array(z.number().int().positive())
      .max(MAX_FILES_PER_MESSAGE)
      .optional()
      .openapi({ description: 'Photos: ids of PARCEL_IMAGE files the author uploaded with POST /files' }),
  })
  .openapi('NewConversationMessage');

const cursor = (description: string) =>
  decimalInt(z.number().int().min(0).max(2_147_483_647))
    .optional()
    .openapi({ type: 'integer', description });

export const MessagesQuery = pageQuery({ sortable: ['id', 'createdAt'], defaultSort: 'id,desc' }).extend({
  afterId: cursor('Only messages after this id: catch up from the last id seen (with sort=id,asc, page forward; no gaps, no duplicates)'),
  beforeId: cursor('Only messages before this id: read further back without pages shifting as new messages arrive'),
});

export const LiveQuery = z.object({
  afterId: cursor('Replays the messages after this id (the last one seen) before any new one'),
});

export const MessagePageSchema = PageSchema(MessageSchema, 'ConversationMessagePage');

export const ReadSchema = z.object({ readAt: z.string().openapi({ format: 'date-time' }) }).openapi('ConversationRead');

export const ConversationSchema = z
  .object({
    reservationId: z.number().int(),
    reservationNumber: z.string(),
    counterpart: z.object({ id: z.number().int(), name: z.string() }),
    lastMessage: MessageSchema.nullable(),
    unreadCount: z.number().int(),
  })
  .openapi('Conversation');

export const ConversationPageSchema = PageSchema(ConversationSchema, 'ConversationPage');
export const ConversationsQuery = pageQuery({ sortable: ['lastActivity'], defaultSort: 'lastActivity,desc' });

export const UnreadCountSchema = z.object({ count: z.number().int() }).openapi('ConversationUnreadCount');
