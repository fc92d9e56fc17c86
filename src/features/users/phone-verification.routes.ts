// Phone verification by SMS code (CONTRACT 21): POST /user/me/phone/verification sends a code,
// POST /user/me/phone/verify checks it. The rules and their errors are in the service.
import { createRoute, z } from '@hono/zod-openapi';
import { createRouter } from '../../env';
import { authErrorResponses, jsonBody, jsonContent, signedIn } from '../../lib/openapi';
import { sendPhoneCode, verifyPhoneCode } from './phone-verification.service';
import { UserSchema, toUserWithWallet } from './user-summary';

const TAGS = ['Users'];

const SendCodeSchema = z
  .object({
    phone: z.string().trim().min(1).max(40).openapi({
      example: '77 123 45 67',
      description: 'As people write it: with its country code (+221 77 123 45 67), or without it in the country of the account (its nationality, or its current number\'s)',
    }),
  })
  .openapi('PhoneVerificationRequest');
const SentSchema = z
  .object({ phone: z.string().openapi({ description: 'The number the code went to, E.164 (+221771234567)' }), expiresAt: z.string().openapi({ format: 'date-time' }) })
  .openapi('PhoneVerificationSent');
const VerifySchema = z.object({ code: z.string().regex(/^[0-9]{6}$/, 'phone.codeFormat').openapi({ example: '123456' }) }).openapi('PhoneVerifyRequest');

export const phoneVerificationRouter = createRouter()
  .openapi(
    createRoute({
      method: 'post',
      operationId: 'sendPhoneVerificationCode',
      path: '/user/me/phone/verification',
      tags: TAGS,
      summary: 'Send a 6-digit code by SMS to prove a phone number',
      description:
        'The code is valid 10 minutes and allows 5 attempts; a new code replaces the previous one. More than 3 codes ' +
        'in an hour: 429 BUSINESS_RULE_VIOLATION with Retry-After. The number becomes the account\'s when the code is verified.',
      ...signedIn(),
      request: { body: jsonBody(SendCodeSchema) },
      responses: { 202: jsonContent(SentSchema, 'Code sent'), ...authErrorResponses(429) },
    }),
    async (c) => {
      const { phone, expiresAt } = await sendPhoneCode(c.get('deps'), c.get('auth').id, c.req.valid('json').phone);
      return c.json({ phone, expiresAt }, 202);
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      operationId: 'verifyPhone',
      path: '/user/me/phone/verify',
      tags: TAGS,
      summary: 'Check the SMS code: the number becomes the account\'s, phoneVerified',
      description:
        'Wrong or expired code: 400 INVALID_ARGUMENT. No code pending: 409 INVALID_STATE. After 5 wrong codes: ' +
        '422 BUSINESS_RULE_VIOLATION (ask for a new code).',
      ...signedIn(),
      request: { body: jsonBody(VerifySchema) },
      responses: { 200: jsonContent(UserSchema, 'The user, phoneVerified'), ...authErrorResponses(409, 422) },
    }),
    async (c) => {
      const deps = c.get('deps');
      const user = await verifyPhoneCode(deps, c.get('auth').id, c.req.valid('json').code);
      return c.json(await toUserWithWallet(deps, user), 200);
    },
  );
