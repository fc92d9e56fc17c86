// Mobile payout accounts (CONTRACT section 20): POST/GET /payout-accounts, DELETE
// /payout-accounts/{id}, for the caller and (its owner) for an agency under /agencies/{id}/.
import { createRoute, z } from '@hono/zod-openapi';
import { createRouter } from '../../../env';
import { jsonBody, jsonContent, signedIn } from '../../../lib/openapi';
import { nameText, pathId } from '../../../validation';
import { idempotent } from '../../../middleware/idempotency';
import { OPERATOR_CODES } from '../../../providers/mobile-money';
import { CALLER_SCOPE, scopeDescription, scopeErrors, whoseTitle, type OwnerScope } from '../wallet/owner-scope';
import { addPayoutAccount, deletePayoutAccount, listPayoutAccounts } from './payout-accounts.service';

const PayoutAccountSchema = z
  .object({
    id: z.number().int(),
    type: z.enum(['MOBILE_MONEY']),
    provider: z.string().openapi({ description: 'The operator paid out to (WAVE, MTN_MOMO_CMR, ORANGE_CIV, ...)', example: 'WAVE' }),
    currency: z.string().openapi({ description: 'What it is paid out in (XOF for Wave)' }),
    phone: z.string().openapi({ description: 'E.164' }),
    name: z.string(),
    isDefault: z.boolean().openapi({ description: 'The one a withdrawal in its currency pays out to' }),
    createdAt: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('PayoutAccount');

const PayoutAccountRequest = z
  .object({
    type: z.enum(['MOBILE_MONEY']),
    provider: z
      .enum(OPERATOR_CODES)
      .optional()
      .openapi({ description: 'The operator paid out to (WAVE, MTN_MOMO_CMR, ORANGE_CMR, MTN_MOMO_CIV, ORANGE_CIV, ORANGE_SEN). Omitted: predicted from the number (the answer names it; the app shows it for the user to confirm)', example: 'ORANGE_CMR' }),
    phone: z
      .string()
      .max(32)
      .refine((v) => /^\+?[\d\s.\-()]{8,}$/.test(v), { message: 'payout.invalidPhone' })
      .openapi({ description: 'E.164 mobile number: a Wave number (+221, +225, +223, +226) or an MTN or Orange number of Cameroon, Côte d’Ivoire or Senegal', example: '+237699123456' }),
    name: z.string().trim().min(1).max(100).openapi({ description: 'The holder’s name as the wallet knows it' }),
  })
  .openapi('PayoutAccountRequest');

const PayoutAccountList = z.object({ content: z.array(PayoutAccountSchema) }).openapi('PayoutAccountList');

export const payoutAccountRoutes = (scope: OwnerScope) => {
  const path = `${scope.prefix}/payout-accounts`;
  const tags = ['Pay connect', ...scope.extraTags];
  const params = scope.params ?? z.object({});
  return createRouter()
    .openapi(
      createRoute(idempotent({
        method: 'post',
        operationId: `add${scope.operationOwner}PayoutAccount`,
        path,
        tags,
        summary: `Add a mobile wallet to ${scope.whose} payout accounts; it becomes the default for its currency`,
        description: scopeDescription(
          scope,
          'manage',
          `Registers a Wave wallet (a mobile number of a Wave country, the holder's name) paid out in XOF; in the same batch it becomes the default of its currency, the previous default staying as a non-default account. XOF withdrawals, by hand or automatic, go to the default. A number the same owner already registered is 409 ALREADY_EXISTS; a number outside the Wave countries 400 VALIDATION_ERROR.`,
        ),
        ...signedIn(),
        request: { params, body: jsonBody(PayoutAccountRequest) },
        responses: { 201: jsonContent(PayoutAccountSchema, 'Payout account'), ...scopeErrors(scope, 409) },
      })),
      async (c) => c.json(await addPayoutAccount(c.get('deps'), await scope.resolve(c, 'manage'), c.req.valid('json')), 201),
    )
    .openapi(
      createRoute({
        method: 'get',
        operationId: `list${scope.operationOwner}PayoutAccounts`,
        path,
        tags,
        summary: `${whoseTitle(scope)} mobile payout accounts, newest first`,
        description: scopeDescription(
          scope,
          'manage',
          `Every mobile wallet of ${scope.whose} payout accounts, newest first, with its currency, number, holder's name and whether it is the default its currency's withdrawals pay out to. Not paged: an owner has a handful.`,
        ),
        ...signedIn(),
        request: { params },
        responses: { 200: jsonContent(PayoutAccountList, 'Payout accounts'), ...scopeErrors(scope) },
      }),
      async (c) => c.json({ content: await listPayoutAccounts(c.get('deps'), await scope.resolve(c, 'manage')) }, 200),
    )
    .openapi(
      createRoute({
        method: 'delete',
        operationId: `delete${scope.operationOwner}PayoutAccount`,
        path: `${path}/{accountId}`,
        tags,
        summary: `Remove one of ${scope.whose} payout accounts (the newest other one becomes the default)`,
        description: scopeDescription(
          scope,
          'manage',
          `Deletes the mobile wallet; when it was its currency's default, the newest remaining wallet of that currency becomes the default in the same batch (none left: XOF withdrawals are refused until one is added). A wallet of another owner is answered 404 RESOURCE_NOT_FOUND, as if it did not exist. Withdrawals already sent keep their destination.`,
        ),
        ...signedIn(),
        request: { params: params.extend({ accountId: pathId('accountId') }) },
        responses: { 204: { description: 'Removed' }, ...scopeErrors(scope, 404) },
      }),
      async (c) => {
        await deletePayoutAccount(c.get('deps'), await scope.resolve(c, 'manage'), c.req.valid('param').accountId);
        return c.body(null, 204);
      },
    );
};

export const payoutAccountsRouter = payoutAccountRoutes(CALLER_SCOPE);
