// Wallet and transaction history of the caller: balance figures, history page, summary, detail, receipt.
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { createRouter, type AppEnv } from '../../../env';
import { authErrorResponses, errorResponses, jsonContent, signedIn } from '../../../lib/openapi';
import { pageQuery, PageSchema } from '../../../lib/pagination';
import { currencyCodeSchema } from '../../../lib/amount';
import { TRANSACTION_STATUSES, TRANSACTION_TYPES, type TransactionRow } from '../../../db/schema';
import { languageHeaders, readerLocale } from '../../../lib/locale';
import { IdParams } from '../../../validation';
import {
  getOwnTransaction,
  listTransactions,
  receiptPdf,
  SUMMARY_PERIODS,
  toTransaction,
  transactionOfReceiptLink,
  transactionSummary,
} from './transactions.service';
import { getWallet } from './wallet.service';
import { CALLER_SCOPE, scopeDescription, scopeErrors, whoseTitle, type OwnerScope } from './owner-scope';

export const WalletSchema = z
  .object({
    balance: z.number().openapi({ description: 'Available: what can be withdrawn, by hand or automatically' }),
    heldBalance: z.number().openapi({
      description: 'Delivered shares held until the 72-hour dispute window closes (or a dispute is resolved); not withdrawable yet',
    }),
    pendingWithdrawalAmount: z.number(),
    totalEarned: z.number(),
    totalWithdrawn: z.number(),
    currency: z.string().openapi({ description: 'The currency of the figures above: `?currency=`, else the platform main currency' }),
    autoWithdrawal: z.object({ enabled: z.boolean(), threshold: z.number().nullable() }),
    balances: z
      .array(
        z
          .object({
            currency: z.string(),
            balance: z.number(),
            heldBalance: z.number(),
            pendingWithdrawalAmount: z.number(),
            totalEarned: z.number(),
            totalWithdrawn: z.number(),
          })
          .openapi('CurrencyBalance'),
      )
      .openapi({ description: 'One per currency the owner has money in, plus the main one (first); never summed across currencies' }),
  })
  .openapi('Wallet');

const TransactionSchema = z
  .object({
    id: z.number().int(),
    type: z.enum(TRANSACTION_TYPES).openapi({
      description:
        'PAYMENT: the card payment (held until delivery). REFUND: money returned to the card after capture. HOLD_RELEASE: the card hold released before capture (in full, or the part not captured when a share is kept). EARNING, WITHDRAWAL, WITHDRAWAL_REVERSAL, DISPUTE_HOLD, DISPUTE_HOLD_RELEASE: wallet movements. PROTECTION_PAYOUT: a protection payout to the sender wallet (CONTRACT 21).',
    }),
    status: z.enum(TRANSACTION_STATUSES).openapi({
      description: 'PENDING: a refund the payment provider has not confirmed yet (no credit note yet; the reservation’s paymentStatus is REFUND_PENDING). COMPLETED: the money moved.',
    }),
    amount: z.number().openapi({ description: 'Signed from the caller’s point of view: payments and withdrawals are negative' }),
    currency: z.string(),
    description: z.string().openapi({ description: 'What moved and why, in the language of Accept-Language (French when preferred, else English); lines written before 2026-11-27 stay in English' }),
    reservationId: z.number().int().nullable(),
    withdrawalId: z.number().int().nullable(),
    receiptUrl: z.string(),
    createdAt: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('Transaction');

const SummarySchema = z
  .object({
    period: z.enum(SUMMARY_PERIODS),
    from: z.string().nullable(),
    to: z.string(),
    currency: z.string(),
    totalPaid: z.number(),
    totalRefunded: z.number().openapi({ description: 'Refunded after capture and confirmed by the provider (REFUND, COMPLETED)' }),
    totalRefundPending: z.number().openapi({ description: 'Refunds the provider has not confirmed yet (REFUND, PENDING); counted in net' }),
    totalReleased: z.number().openapi({ description: 'Card holds released before capture, never charged (HOLD_RELEASE)' }),
    totalEarned: z.number(),
    totalWithdrawn: z.number(),
    net: z.number(),
    count: z.number().int(),
  })
  .openapi('TransactionSummary');

const date = (name: string) =>
  z.iso.date().optional().openapi({ param: { name, in: 'query' }, description: 'YYYY-MM-DD (inclusive)' });

const TransactionQuery = pageQuery({ sortable: ['createdAt', 'amount'], defaultSort: 'createdAt,desc' }).extend({
  type: z.enum(TRANSACTION_TYPES).optional().openapi({ param: { name: 'type', in: 'query' } }),
  dateFrom: date('dateFrom'),
  dateTo: date('dateTo'),
});

const me = (id: number) => ({ type: 'USER' as const, id });

const PDF_RESPONSE = { description: 'PDF receipt', content: { 'application/pdf': { schema: z.string().openapi({ format: 'binary' }) } } };

/** The receipt of a transaction the caller may read, as an inline PDF (the link never leaks through a Referer). */
async function pdfReceipt(c: Context<AppEnv>, t: TransactionRow) {
  const locale = readerLocale(c.req.header('Accept-Language'));
  const pdf = await receiptPdf(c.get('deps'), t, locale);
  return c.body(pdf, 200, {
    'Content-Type': 'application/pdf',
    'Content-Disposition': `inline; filename="receipt-${t.id}.pdf"`,
    'Cache-Control': 'private, max-age=0',
    'Referrer-Policy': 'no-referrer',
    ...languageHeaders(locale),
  });
}

const TransactionPage = PageSchema(TransactionSchema, 'TransactionPage');

/**
 * GET of a wallet and of its money history, for the caller (/user/me/wallet, /transactions) or an
 * agency (/agencies/{id}/wallet, /agencies/{id}/transactions).
 */
export const walletRoutes = (scope: OwnerScope) =>
  createRouter()
    .openapi(
      createRoute({
        method: 'get',
        operationId: `get${scope.operationOwner}Wallet`,
        path: scope.walletPath,
        tags: ['Wallet', ...scope.extraTags],
        summary: `${whoseTitle(scope)} wallet: balance, pending withdrawals, totals, automatic withdrawal setting`,
        description: scopeDescription(
          scope,
          'read',
          `The figures of ${scope.whose} wallet in one currency (\`currency\`, an enabled code, else 400 VALIDATION_ERROR; default the main one): the available balance, the delivered shares still held during their 72-hour dispute window, the withdrawals pending, the totals earned and withdrawn, and that currency's automatic withdrawal setting. \`balances\` repeats the figures for every currency it holds money in, never summed across currencies. Read from the ledger; nothing changes.`,
        ),
        ...signedIn(),
        request: { params: scope.params, query: z.object({ currency: currencyCodeSchema().optional().openapi({ description: 'The currency of the top-level figures; default the main one' }) }) },
        responses: { 200: jsonContent(WalletSchema, 'Wallet'), ...scopeErrors(scope) },
      }),
      async (c) => c.json(await getWallet(c.get('deps'), await scope.resolve(c, 'read'), c.req.valid('query').currency), 200),
    )
    .openapi(
      createRoute({
        method: 'get',
        operationId: `list${scope.operationOwner}Transactions`,
        path: `${scope.prefix}/transactions`,
        tags: ['Transactions', ...scope.extraTags],
        summary: `${whoseTitle(scope)} money history (page; filters type, dateFrom, dateTo)`,
        description: scopeDescription(
          scope,
          'read',
          `A page of ${scope.whose} money movements, newest first by default (sortable by createdAt and amount): payments, refunds, card holds released, earnings, withdrawals and their reversals, dispute holds and settlements, protection payouts. Amounts are signed from the owner's side in each transaction's currency; type, dateFrom and dateTo (inclusive, UTC days) filter; the description is in the language of Accept-Language (French when preferred, else English). Each has a signed receiptUrl. A user's and an agency's money are apart: an agency's is listed at GET /agencies/{id}/transactions.`,
        ),
        ...signedIn(),
        request: { params: scope.params, query: TransactionQuery },
        responses: { 200: jsonContent(TransactionPage, 'Page of transactions'), ...scopeErrors(scope) },
      }),
      async (c) => {
        const locale = readerLocale(c.req.header('Accept-Language'));
        const owner = await scope.resolve(c, 'read');
        return c.json(await listTransactions(c.get('deps'), owner, c.req.valid('query'), locale), 200, languageHeaders(locale));
      },
    );

export const walletRouter = walletRoutes(CALLER_SCOPE)
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'getTransactionSummary',
      path: '/transactions/summary',
      tags: ['Transactions'],
      summary: 'Totals of the caller’s transactions over a period (default MONTH: the last month)',
      description: 'The caller\'s totals over the period (DAY and WEEK: the last 24 hours or 7 days; MONTH and YEAR: since that date a month or a year ago; ALL), in the main currency only, since amounts of two currencies never add up: paid, refunded after capture, card holds released, earned, withdrawn, the net and how many transactions count.',
      ...signedIn(),
      request: {
        query: z.object({
          period: z.enum(SUMMARY_PERIODS).default('MONTH').openapi({ param: { name: 'period', in: 'query' } }),
        }),
      },
      responses: { 200: jsonContent(SummarySchema, 'Summary'), ...authErrorResponses() },
    }),
    async (c) => c.json(await transactionSummary(c.get('deps'), me(c.get('auth').id), c.req.valid('query').period), 200),
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'getTransaction',
      path: '/transactions/{id}',
      tags: ['Transactions'],
      summary: 'One transaction of the caller',
      description: 'One of the caller\'s own transactions with its signed receipt link. A transaction of another user or of an agency is 403 ACCESS_DENIED (no admin override), an unknown id 404 RESOURCE_NOT_FOUND.',
      ...signedIn(),
      request: { params: IdParams },
      responses: { 200: jsonContent(TransactionSchema, 'Transaction'), ...authErrorResponses(404) },
    }),
    async (c) => {
      const locale = readerLocale(c.req.header('Accept-Language'));
      const t = await getOwnTransaction(c.get('deps'), me(c.get('auth').id), c.req.valid('param').id);
      return c.json(await toTransaction(c.env, t, locale), 200, languageHeaders(locale));
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'getTransactionReceipt',
      path: '/transactions/{id}/receipt',
      tags: ['Transactions'],
      summary: 'PDF receipt of a transaction (owner only); made once and kept',
      description: 'The PDF receipt of one of the caller\'s transactions, in the language of Accept-Language (French when preferred, else English), made on the first request in that language and kept in storage, then served the same; a payment\'s receipt is its invoice, which exists only once the money was captured (before, or when the hold was released without capture: 404). Another owner\'s transaction is 403 ACCESS_DENIED. The signed-link twin GET /public/receipts/{token} needs no access token.',
      ...signedIn(),
      request: { params: IdParams },
      responses: { 200: PDF_RESPONSE, ...authErrorResponses(404) },
    }),
    async (c) => pdfReceipt(c, await getOwnTransaction(c.get('deps'), me(c.get('auth').id), c.req.valid('param').id)),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/public/receipts/{token}',
      operationId: 'getReceiptBySignedLink',
      tags: ['Transactions'],
      summary: 'PDF receipt through its signed link (invoiceUrl, receiptUrl): no bearer token',
      description:
        'The same PDF as the authenticated route, in the language of Accept-Language (French when preferred, else English). The link is signed for one transaction and expires about a day after it was handed out; read the reservation or the transaction again for a fresh one. A malformed, forged or expired link is 403 ACCESS_DENIED; a transaction that no longer exists is 404.',
      security: [],
      request: { params: z.object({ token: z.string().max(512).openapi({ param: { name: 'token', in: 'path' }, description: 'The signed token of the link' }) }) },
      responses: { 200: PDF_RESPONSE, ...errorResponses(403, 404) },
    }),
    async (c) => pdfReceipt(c, await transactionOfReceiptLink(c.get('deps'), c.req.valid('param').token)),
  );
