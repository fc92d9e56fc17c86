// /auth/*: registration, login, social login, refresh, logout, email verification, passwords
// (CONTRACT section 4).
import { localeFromAcceptLanguage } from '../../lib/locale';
import { createRoute, z } from '@hono/zod-openapi';
import { createRouter, type Deps } from '../../env';
import { authenticationError, msg } from '../../errors';
import { authErrorResponses, errorResponses, jsonBody, jsonContent, MessageSchema, signedIn } from '../../lib/openapi';
import { SocialTokenError, type SocialIdentity } from '../../providers/social-login/social-login';
import { audit, clientIp } from '../audit/audit';
import { EmailField, PasswordField, ProfileFields, normalizeEmail } from '../users/profile-fields';
import { UserSchema, toUser, toUserWithWallet } from '../users/user-summary';
import {
  changePassword,
  forgotPassword,
  login,
  register,
  resendVerification,
  resetPassword,
  socialLogin,
  verifyEmail,
  type AuthResult,
} from './auth.service';
import { enforceAuthRateLimit } from './rate-limit';
import { closeSession, rotateSession } from '../sessions/sessions';
import { nameText } from '../../validation';

const TokenPairSchema = z
  .object({
    accessToken: z.string().openapi({ description: 'JWT, 15 minutes' }),
    refreshToken: z.string().openapi({ description: 'JWT, 7 days, usable once (presented again within 30 s of its use: the same new pair)' }),
    expiresIn: z.number().int().openapi({ description: 'Seconds the access token has left', example: 900 }),
    refreshExpiresIn: z.number().int().openapi({ description: 'Seconds the refresh token has left', example: 604800 }),
  })
  .openapi('TokenPair');

const AuthResponseSchema = TokenPairSchema.extend({ user: UserSchema }).openapi('AuthResponse');

const RegisterSchema = z
  .object({
    email: EmailField,
    password: PasswordField,
    firstName: ProfileFields.firstName,
    lastName: ProfileFields.lastName,
    phoneNumber: ProfileFields.phoneNumber.optional(),
    username: ProfileFields.username.optional(),
    birthDate: ProfileFields.birthDate.optional(),
    nationality: ProfileFields.nationality.optional(),
  })
  .openapi('RegisterRequest');

/** The second factor of an account that enrolled one (staff: CONTRACT 27); ignored for the others. */
const TotpCodeField = z
  .string()
  .trim()
  .max(40)
  .optional()
  .openapi({ description: 'Accounts with two-factor authentication only: the 6-digit code of the authenticator app, or an unused recovery code (xxxx-xxxx-xxxx-xxxx)', example: '123456' });

const LoginSchema = z.object({ email: EmailField, password: z.string().min(1).max(128), totpCode: TotpCodeField }).openapi('LoginRequest');
const RefreshSchema = z.object({ refreshToken: z.string().min(1) }).openapi('RefreshRequest');
const GoogleSchema = z.object({ idToken: z.string().min(1).openapi({ description: 'Google ID token' }), totpCode: TotpCodeField }).openapi('GoogleLoginRequest');
const AppleSchema = z
  .object({
    identityToken: z.string().min(1).openapi({ description: 'Apple identity token' }),
    firstName: nameText(100, 0).optional().openapi({ description: 'Apple sends names only on the first authorization' }),
    lastName: nameText(100, 0).optional(),
    totpCode: TotpCodeField,
  })
  .openapi('AppleLoginRequest');
const TokenSchema = z.object({ token: z.string().min(1).max(200) }).openapi('OneTimeTokenRequest');
const ForgotSchema = z.object({ email: EmailField }).openapi('ForgotPasswordRequest');
const ResetSchema = z.object({ token: z.string().min(1).max(200), newPassword: PasswordField }).openapi('ResetPasswordRequest');
const ChangePasswordSchema = z
  .object({ currentPassword: z.string().min(1).max(128), newPassword: PasswordField })
  .openapi('ChangePasswordRequest');

const TAGS = ['Authentication'];
const RATE_LIMITED = 429;

const authResponse = async (deps: Deps, result: AuthResult) => ({
  accessToken: result.accessToken,
  refreshToken: result.refreshToken,
  expiresIn: result.expiresIn,
  refreshExpiresIn: result.refreshExpiresIn,
  user: result.wallet ? toUser(result.user, result.wallet) : await toUserWithWallet(deps, result.user),
});

async function verifySocial(verify: () => Promise<SocialIdentity>, provider: string) {
  try {
    return await verify();
  } catch (err) {
    if (err instanceof SocialTokenError) {
      throw authenticationError('auth.invalidCredential', { provider }, {
        suggestions: [msg('auth.signAgainObtainFresh', { provider })],
      });
    }
    throw err;
  }
}

export const authRouter = createRouter()
  .openapi(
    createRoute({
      method: 'post',
      operationId: 'register',
      path: '/auth/register',
      tags: TAGS,
      summary: 'Create an account (sends a verification email) and log in',
      description: 'Creates the account (roles ROLE_CLIENT, messages in the Accept-Language\'s language, French by default), queues a verification e-mail whose link is valid one hour, and opens a session: the answer carries the token pair and the user. An e-mail address or username already taken is 409 ALREADY_EXISTS; a weak password or a bad field 400 VALIDATION_ERROR; too many attempts from one IP or for one address 429 BUSINESS_RULE_VIOLATION with Retry-After.',
      security: [],
      request: { body: jsonBody(RegisterSchema) },
      responses: { 201: jsonContent(AuthResponseSchema, 'Account created'), ...errorResponses(409, RATE_LIMITED) },
    }),
    async (c) => {
      const input = c.req.valid('json');
      const ip = clientIp(c);
      await enforceAuthRateLimit(c.get('deps'), 'register', ip, normalizeEmail(input.email));
      const deps = c.get('deps');
      return c.json(await authResponse(deps, await register(deps, input, ip, localeFromAcceptLanguage(c.req.header('Accept-Language')))), 201);
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      operationId: 'login',
      path: '/auth/login',
      tags: TAGS,
      summary: 'Log in with email and password',
      description: 'Checks the password of the live account with this e-mail and opens a session: the token pair (access 15 minutes, refresh 7 days) and the user with their wallet figures. A wrong e-mail or password is 401 AUTHENTICATION_ERROR (the same for both, and audited). An account with two-factor authentication (staff) also needs `totpCode`: without it, or with a wrong, expired or already used code, 401 AUTHENTICATION_ERROR (the message says which); in production a staff account without an authenticator is 403 ACCESS_DENIED until one is enrolled in the console. A suspended account 403 ACCESS_DENIED; too many attempts from one IP or for one address 429 BUSINESS_RULE_VIOLATION with Retry-After. Accounts made by Google or Apple sign-in have no password until one is set through the reset e-mail.',
      security: [],
      request: { body: jsonBody(LoginSchema) },
      responses: { 200: jsonContent(AuthResponseSchema, 'Token pair and user'), ...errorResponses(401, 403, RATE_LIMITED) },
    }),
    async (c) => {
      const input = c.req.valid('json');
      const ip = clientIp(c);
      await enforceAuthRateLimit(c.get('deps'), 'login', ip, normalizeEmail(input.email));
      const deps = c.get('deps');
      return c.json(await authResponse(deps, await login(deps, input, ip)), 200);
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      operationId: 'refreshTokens',
      path: '/auth/refresh',
      tags: TAGS,
      summary: 'Exchange a refresh token for a new pair (the presented token is spent)',
      description: 'Presenting a spent refresh token revokes every token of its session, except the token just replaced within 30 s of its use: that returns the same new pair (parallel refreshes of an app). Any refused token is 401 UNAUTHORIZED.',
      security: [],
      request: { body: jsonBody(RefreshSchema) },
      responses: { 200: jsonContent(TokenPairSchema, 'New token pair'), ...errorResponses(401) },
    }),
    async (c) => {
      const { refreshToken } = c.req.valid('json');
      return c.json(await rotateSession(c.get('deps'), refreshToken, clientIp(c)), 200);
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      operationId: 'logout',
      path: '/auth/logout',
      tags: TAGS,
      summary: 'Log out: the access token (header) and the refresh token (body) are blacklisted',
      description: 'Ends the session of the refresh token in the body: that token and the access token of the header are blacklisted at once, and the session is revoked (audited as LOGOUT); other sessions of the user stay open. A refresh token that is invalid or expired is 401 UNAUTHORIZED; one of another user 403 ACCESS_DENIED.',
      ...signedIn(),
      request: { body: jsonBody(RefreshSchema) },
      responses: { 200: jsonContent(MessageSchema, 'Logged out'), ...authErrorResponses() },
    }),
    async (c) => {
      const deps = c.get('deps');
      const auth = c.get('auth');
      await closeSession(deps, auth, c.req.valid('json').refreshToken);
      await audit(deps, { actorId: auth.id, action: 'LOGOUT', targetType: 'SESSION', targetId: auth.sid, ip: clientIp(c) });
      return c.json({ message: 'Logged out' }, 200);
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      operationId: 'loginWithGoogle',
      path: '/auth/oauth2/google',
      tags: TAGS,
      summary: 'Log in with a Google ID token (account created or linked by verified email)',
      description: 'Verifies the Google ID token against Google\'s keys, then signs in the account holding that Google identity, else links the live account with the same verified e-mail, else creates one (e-mail verified). Linking to an account whose e-mail was never verified removes its password and ends its sessions. An invalid or expired token, a token already exchanged once (each ID token signs in once), a Google account without a verified e-mail, or an account already linked to another Google identity is 401 AUTHENTICATION_ERROR; a suspended account 403 ACCESS_DENIED.',
      security: [],
      request: { body: jsonBody(GoogleSchema) },
      responses: { 200: jsonContent(AuthResponseSchema, 'Token pair and user'), ...errorResponses(401, 403) },
    }),
    async (c) => {
      const { idToken, totpCode } = c.req.valid('json');
      const identity = await verifySocial(() => c.get('deps').providers.socialLogin.google(idToken), 'Google');
      const deps = c.get('deps');
      return c.json(await authResponse(deps, await socialLogin(deps, identity, {}, clientIp(c), totpCode)), 200);
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      operationId: 'loginWithApple',
      path: '/auth/oauth2/apple',
      tags: TAGS,
      summary: 'Log in with an Apple identity token (account created or linked by verified email)',
      description: 'Verifies the Apple identity token against Apple\'s keys, then signs in the account holding that Apple identity, else links the live account with the same verified e-mail, else creates one; firstName and lastName are used only at creation (Apple sends them on the first authorization alone). Linking to an account whose e-mail was never verified removes its password and ends its sessions. An invalid or expired token, a token already exchanged once (each identity token signs in once), no verified e-mail, or an account already linked to another Apple identity is 401 AUTHENTICATION_ERROR; a suspended account 403 ACCESS_DENIED.',
      security: [],
      request: { body: jsonBody(AppleSchema) },
      responses: { 200: jsonContent(AuthResponseSchema, 'Token pair and user'), ...errorResponses(401, 403) },
    }),
    async (c) => {
      const { identityToken, firstName, lastName, totpCode } = c.req.valid('json');
      const identity = await verifySocial(() => c.get('deps').providers.socialLogin.apple(identityToken), 'Apple');
      const deps = c.get('deps');
      return c.json(await authResponse(deps, await socialLogin(deps, identity, { firstName, lastName }, clientIp(c), totpCode)), 200);
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      operationId: 'verifyEmail',
      path: '/auth/verify-email',
      tags: TAGS,
      summary: 'Confirm the email address with the token sent by mail (single use, one hour)',
      description: 'Spends the token of the verification e-mail and marks the account\'s e-mail address verified (audited as EMAIL_VERIFIED). A token unknown, expired (one hour), already used or replaced by a newer one is 400 INVALID_ARGUMENT. The link of the e-mail opens GET /verify-email, which does the same as a page.',
      security: [],
      request: { body: jsonBody(TokenSchema) },
      responses: { 200: jsonContent(MessageSchema, 'Email verified'), ...errorResponses() },
    }),
    async (c) => {
      await verifyEmail(c.get('deps'), c.req.valid('json').token, clientIp(c));
      return c.json({ message: 'Email address verified' }, 200);
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      operationId: 'resendVerificationEmail',
      path: '/auth/verify-email/resend',
      tags: TAGS,
      summary: 'Send a new verification email to the caller (older links stop working)',
      description: 'Queues a new verification e-mail to the caller\'s address; its token replaces the previous one, whose link stops working. An address already verified is 409 INVALID_STATE; too many requests for the account are 429 BUSINESS_RULE_VIOLATION with Retry-After.',
      ...signedIn(),
      responses: { 202: jsonContent(MessageSchema, 'Verification email sent'), ...authErrorResponses(409, RATE_LIMITED) },
    }),
    async (c) => {
      const auth = c.get('auth');
      await enforceAuthRateLimit(c.get('deps'), 'verify-email', null, `user:${auth.id}`);
      await resendVerification(c.get('deps'), auth.id);
      return c.json({ message: 'Verification email sent' }, 202);
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      operationId: 'forgotPassword',
      path: '/auth/password/forgot',
      tags: TAGS,
      summary: 'Request a password reset email; always 202, whether or not the email has an account',
      description: 'When a live account has this e-mail, queues a reset e-mail whose link (GET /reset-password) is valid one hour and replaces any earlier one; the answer is the same 202 whether or not the account exists, so it reveals nothing. Too many requests from one IP or for one address are 429 BUSINESS_RULE_VIOLATION with Retry-After.',
      security: [],
      request: { body: jsonBody(ForgotSchema) },
      responses: { 202: jsonContent(MessageSchema, 'Accepted'), ...errorResponses(RATE_LIMITED) },
    }),
    async (c) => {
      const { email } = c.req.valid('json');
      const ip = clientIp(c);
      await enforceAuthRateLimit(c.get('deps'), 'forgot-password', ip, normalizeEmail(email));
      await forgotPassword(c.get('deps'), email, ip);
      return c.json({ message: 'If an account exists for this email, a reset link has been sent' }, 202);
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      operationId: 'resetPassword',
      path: '/auth/password/reset',
      tags: TAGS,
      summary: 'Set a new password with the reset token (single use, one hour); revokes all sessions',
      description: 'Spends the reset token, sets the new password, marks the e-mail verified (the link proved the mailbox), queues a PASSWORD_CHANGED security e-mail and revokes every session of the account: the user signs in again everywhere. A token unknown, expired, used or replaced is 400 INVALID_ARGUMENT; a password below the rules 400 VALIDATION_ERROR.',
      security: [],
      request: { body: jsonBody(ResetSchema) },
      responses: { 200: jsonContent(MessageSchema, 'Password reset'), ...errorResponses() },
    }),
    async (c) => {
      const { token, newPassword } = c.req.valid('json');
      await resetPassword(c.get('deps'), token, newPassword, clientIp(c));
      return c.json({ message: 'Password reset; log in with the new password' }, 200);
    },
  )
  .openapi(
    createRoute({
      method: 'put',
      operationId: 'changePassword',
      path: '/auth/password',
      tags: TAGS,
      summary: "Change the caller's password; every other session is revoked",
      description: 'Checks currentPassword, sets the new password, queues a PASSWORD_CHANGED security e-mail and revokes every other session of the account (the caller\'s stays signed in). A wrong current password is 400 VALIDATION_ERROR on currentPassword (not 401); an account without a password yet (social sign-in) is 422 BUSINESS_RULE_VIOLATION (use the reset e-mail); a concurrent change is 409 INVALID_STATE.',
      ...signedIn(),
      request: { body: jsonBody(ChangePasswordSchema) },
      responses: { 200: jsonContent(MessageSchema, 'Password changed'), ...authErrorResponses(409, 422) },
    }),
    async (c) => {
      await changePassword(c.get('deps'), c.get('auth'), c.req.valid('json'), clientIp(c));
      return c.json({ message: 'Password changed; other sessions have been logged out' }, 200);
    },
  );
