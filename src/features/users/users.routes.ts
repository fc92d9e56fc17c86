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
    address: ProfileFields.address.nullable().optional(),
    postalCode: ProfileFields.postalCode.nullable().optional(),
    city: ProfileFields.city.nullable().optional(),
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
      description: 'The caller\'s own account: names, e-mail and whether it is verified, phone and whether an SMS code proved it, birth date, nationality, avatar, roles, KYC status, agency, connected payout account id, and the wallet figures in the main currency. A deleted account\'s token gets 401 UNAUTHORIZED.',
      ...signedIn(),
      responses: { 200: jsonContent(UserSchema, 'The user'), ...authErrorResponses() },
    }),
    async (c) => {
      const deps = c.get('deps');
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
      description: 'Changes the profile fields sent; null clears an optional one, and e-mail and roles are not editable here. A new phone number is no longer verified until an SMS code proves it again (POST /user/me/phone/verification); an avatarUrl pointing at an uploaded file must be the caller\'s own AVATAR upload (else 400 VALIDATION_ERROR). A username another account holds is 409 ALREADY_EXISTS. Answers the whole profile.',
      ...signedIn(),
      request: { body: jsonBody(UpdateProfileSchema) },
      responses: { 200: jsonContent(UserSchema, 'The updated user'), ...authErrorResponses(409) },
    }),
    async (c) => {
      const deps = c.get('deps');
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
      description: 'Erases the caller\'s account in one batch: personal fields blanked (the row stays, pseudonymised, for the reservations, money records and invoices the law keeps 10 years), devices, alerts, preferences, uploads, KYC documents, message bodies and recipients\' details erased, logins made impossible; then every token is revoked. Refused with 409 INVALID_STATE, naming the first reason, while the caller has an unfinished reservation or trip, money in a wallet, a withdrawal pending, or owns an agency. Audited as ACCOUNT_DELETED.',
      ...signedIn(),
      responses: { 200: jsonContent(MessageSchema, 'Account deleted'), ...authErrorResponses(409) },
    }),
    async (c) => {
      await deleteAccount(c.get('deps'), c.get('auth').id, clientIp(c));
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
      description: 'Another user\'s public profile: first and last name, username, avatar, whether the identity and the phone are verified, rating average and count, member since, and the carrier-side cancellation rate. Never the e-mail, phone or birth date. An unknown id is 404 RESOURCE_NOT_FOUND; an erased account shows as "Deleted User".',
      ...signedIn(),
      request: { params: IdParams },
      responses: { 200: jsonContent(PublicProfileSchema, 'Public profile'), ...authErrorResponses(404) },
    }),
    async (c) => {
      const deps = c.get('deps');
      const [profile] = await toPublicProfiles(deps, [await publicUser(deps, c.req.valid('param').id)]);
      return c.json(profile, 200);
    },
  );
