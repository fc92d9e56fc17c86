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

const LoginSchema = z.object({ email: EmailField, password: z.string().min(1).max(128) }).openapi('LoginRequest');
const RefreshSchema = z.object({ refreshToken: z.string().min(1) }).openapi('RefreshRequest');
const GoogleSchema = z.object({ idToken: z.string().min(1).openapi({ description: 'Google ID token' }) }).openapi('GoogleLoginRequest');
const AppleSchema = z
  .object({
    identityToken: z.string().min(1).openapi({ description: 'Apple identity token' }),
    firstName: z.string().trim().max(100).optional().openapi({ description: 'Apple sends names only on the first authorization' }),
    lastName: z.string().trim().max(100).optional(),
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
      security: [],
      request: { body: jsonBody(RegisterSchema) },
      responses: { 201: jsonContent(AuthResponseSchema, 'Account created'), ...errorResponses(409, RATE_LIMITED) },
    }),
    async (c) => {
      const input = c.req.valid('json');
      const ip = clientIp(c);
      await enforceAuthRateLimit(c.var.deps, 'register', ip, normalizeEmail(input.email));
      const { deps } = c.var;
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
      security: [],
      request: { body: jsonBody(LoginSchema) },
      responses: { 200: jsonContent(AuthResponseSchema, 'Token pair and user'), ...errorResponses(401, 403, RATE_LIMITED) },
    }),
    async (c) => {
      const input = c.req.valid('json');
      const ip = clientIp(c);
      await enforceAuthRateLimit(c.var.deps, 'login', ip, normalizeEmail(input.email));
      const { deps } = c.var;
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
      return c.json(await rotateSession(c.var.deps, refreshToken, clientIp(c)), 200);
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      operationId: 'logout',
      path: '/auth/logout',
      tags: TAGS,
      summary: 'Log out: the access token (header) and the refresh token (body) are blacklisted',
      ...signedIn(),
      request: { body: jsonBody(RefreshSchema) },
      responses: { 200: jsonContent(MessageSchema, 'Logged out'), ...authErrorResponses() },
    }),
    async (c) => {
      const { deps } = c.var;
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
      security: [],
      request: { body: jsonBody(GoogleSchema) },
      responses: { 200: jsonContent(AuthResponseSchema, 'Token pair and user'), ...errorResponses(401, 403) },
    }),
    async (c) => {
      const { idToken } = c.req.valid('json');
      const identity = await verifySocial(() => c.var.deps.providers.socialLogin.google(idToken), 'Google');
      const { deps } = c.var;
      return c.json(await authResponse(deps, await socialLogin(deps, identity, {}, clientIp(c))), 200);
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      operationId: 'loginWithApple',
      path: '/auth/oauth2/apple',
      tags: TAGS,
      summary: 'Log in with an Apple identity token (account created or linked by verified email)',
      security: [],
      request: { body: jsonBody(AppleSchema) },
      responses: { 200: jsonContent(AuthResponseSchema, 'Token pair and user'), ...errorResponses(401, 403) },
    }),
    async (c) => {
      const { identityToken, firstName, lastName } = c.req.valid('json');
      const identity = await verifySocial(() => c.var.deps.providers.socialLogin.apple(identityToken), 'Apple');
      const { deps } = c.var;
      return c.json(await authResponse(deps, await socialLogin(deps, identity, { firstName, lastName }, clientIp(c))), 200);
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      operationId: 'verifyEmail',
      path: '/auth/verify-email',
      tags: TAGS,
      summary: 'Confirm the email address with the token sent by mail (single use, one hour)',
      security: [],
      request: { body: jsonBody(TokenSchema) },
      responses: { 200: jsonContent(MessageSchema, 'Email verified'), ...errorResponses() },
    }),
    async (c) => {
      await verifyEmail(c.var.deps, c.req.valid('json').token, clientIp(c));
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
      ...signedIn(),
      responses: { 202: jsonContent(MessageSchema, 'Verification email sent'), ...authErrorResponses(409, RATE_LIMITED) },
    }),
    async (c) => {
      const auth = c.get('auth');
      await enforceAuthRateLimit(c.var.deps, 'verify-email', null, `user:${auth.id}`);
      await resendVerification(c.var.deps, auth.id);
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
      security: [],
      request: { body: jsonBody(ForgotSchema) },
      responses: { 202: jsonContent(MessageSchema, 'Accepted'), ...errorResponses(RATE_LIMITED) },
    }),
    async (c) => {
      const { email } = c.req.valid('json');
      const ip = clientIp(c);
      await enforceAuthRateLimit(c.var.deps, 'forgot-password', ip, normalizeEmail(email));
      await forgotPassword(c.var.deps, email, ip);
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
      security: [],
      request: { body: jsonBody(ResetSchema) },
      responses: { 200: jsonContent(MessageSchema, 'Password reset'), ...errorResponses() },
    }),
    async (c) => {
      const { token, newPassword } = c.req.valid('json');
      await resetPassword(c.var.deps, token, newPassword, clientIp(c));
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
      ...signedIn(),
      request: { body: jsonBody(ChangePasswordSchema) },
      responses: { 200: jsonContent(MessageSchema, 'Password changed'), ...authErrorResponses(409, 422) },
    }),
    async (c) => {
      await changePassword(c.var.deps, c.get('auth'), c.req.valid('json'), clientIp(c));
      return c.json({ message: 'Password changed; other sessions have been logged out' }, 200);
    },
  );
