// /user/me (the caller's account) and /users/{id} (public profiles), CONTRACT section 5.
import { createRoute, z } from '@hono/zod-openapi';
import { createRouter } from '../../env';
import { authErrorResponses, jsonBody, jsonContent, MessageSchema, signedIn } from '../../lib/openapi';
import { IdParams } from '../../validation';
import { clientIp } from '../audit/audit';
import { ProfileFields } from './profile-fields';
import { PublicProfileSchema, toPublicProfiles } from './public-profile';
import { LOCALES } from '../../db/schema';
import { UserSchema, toUserWithWallet } from './user-summary';
import { currentUser, deleteAccount, publicUser, updateProfile } from './users.service';

const UpdateProfileSchema = z
  .object({
    firstName: ProfileFields.firstName.optional(),
    lastName: ProfileFields.lastName.optional(),
    username: ProfileFields.username.nullable().optional(),
    phoneNumber: ProfileFields.phoneNumber.nullable().optional(),
    birthDate: ProfileFields.birthDate.nullable().optional(),
    nationality: ProfileFields.nationality.nullable().optional(),
    avatarUrl: ProfileFields.avatarUrl.nullable().optional(),
    locale: z.enum(LOCALES).optional().openapi({ description: 'Language of the e-mails and messages sent to the user (fr by default)' }),
  })
  .openapi('UpdateProfileRequest', {
    description: 'Only the fields sent change; null clears an optional field. Email and roles are not editable here.',
  });

const TAGS = ['Users'];

export const usersRouter = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'getMyProfile',
      path: '/user/me',
      tags: TAGS,
      summary: "The caller's profile",
      ...signedIn(),
      responses: { 200: jsonContent(UserSchema, 'The user'), ...authErrorResponses() },
    }),
    async (c) => {
      const { deps } = c.var;
      return c.json(await toUserWithWallet(deps, await currentUser(deps, c.get('auth').id)), 200);
    },
  )
  .openapi(
    createRoute({
      method: 'put',
      operationId: 'updateMyProfile',
      path: '/user/me',
      tags: TAGS,
      summary: "Update the caller's profile fields",
      ...signedIn(),
      request: { body: jsonBody(UpdateProfileSchema) },
      responses: { 200: jsonContent(UserSchema, 'The updated user'), ...authErrorResponses(409) },
    }),
    async (c) => {
      const { deps } = c.var;
      return c.json(await toUserWithWallet(deps, await updateProfile(deps, c.get('auth').id, c.req.valid('json'))), 200);
    },
  )
  .openapi(
    createRoute({
      method: 'delete',
      operationId: 'deleteMyAccount',
      path: '/user/me',
      tags: TAGS,
      summary: "Delete the caller's account: personal data anonymised, records kept, tokens revoked",
      ...signedIn(),
      responses: { 200: jsonContent(MessageSchema, 'Account deleted'), ...authErrorResponses(409) },
    }),
    async (c) => {
      await deleteAccount(c.var.deps, c.get('auth').id, clientIp(c));
      return c.json({ message: 'Account deleted' }, 200);
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'getUserProfile',
      path: '/users/{id}',
      tags: TAGS,
      summary: 'Public profile of a user',
      ...signedIn(),
      request: { params: IdParams },
      responses: { 200: jsonContent(PublicProfileSchema, 'Public profile'), ...authErrorResponses(404) },
    }),
    async (c) => {
      const { deps } = c.var;
      const [profile] = await toPublicProfiles(deps, [await publicUser(deps, c.req.valid('param').id)]);
      return c.json(profile, 200);
    },
  );
