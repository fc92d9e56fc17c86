// The public face of money: what other features may use. Inside money/, files import each other
// directly; outside it, only from here.

// Routers, mounted by app.ts (the agency's money routes are the user's, built for the agency scope).
export { paymentsRouter } from './payments/payments.routes';
export { sandboxRouter } from './payments/sandbox.routes';
export { waveRouter, waveSandboxRouter } from './payments/wave.routes';
export { pawapayRouter, pawapaySandboxRouter, deliverSandboxCallbacks } from './payments/pawapay.routes';
export { walletRouter } from './wallet/wallet.routes';
export { WithdrawalSchema, withdrawalsRouter } from './withdrawals/withdrawals.routes';
export { payConnectRouter } from './pay-connect/pay-connect.routes';
export { payoutAccountsRouter } from './payout-accounts/payout-accounts.routes';
export { agencyMoneyRouter } from './agency-money.routes';

// The money side of reservation transitions (effects for a lifecycle plan) and the provider.
export {
  CAPTURE_BEFORE_MS,
  captureLoaded,
  moneyBackType,
  needsSettlement,
  PAYMENT_STATUS,
  refundEffects,
  releaseEffects,
  settlementAfterRefund,
  settleWithProvider,
} from './escrow';
export { hasEntry, newToken, posted, postingStatements } from './ledger/ledger.statements';
// The words of a history line: amounts inside them (disputes' postings), a line in a language (the console).
export { lineAmount, lineText } from './ledger/ledger-text';
// Unearned protection premiums: the guard and the posting that hands one to the reserve (disputes).
export { premiumEarnedStatements, premiumUnearned, unearnedPremiumCents } from './ledger/premiums';
// Money documents: what a refund does to the reservation's figures and its credit note (disputes).
export { moneyBackDocuments } from './wallet/money-documents';
export {
  accountKey,
  ACCOUNTS,
  chargebackSources,
  chargedCents,
  escrowOutKey,
  heldAccount,
  payeeOf,
  receivableAccount,
  posting,
  walletAccount,
  type Owner,
  type Posting,
  type ReservationMoney,
} from './ledger/posting-rules';

// Delivered shares held during the dispute window (CONTRACT section 19).
export { holdRow, holdUnchanged, releaseHeldShares, settleHoldStatements } from './holds';

// Wallet figures for the user summaries and dashboards.
export { walletFigureStatements, walletFiguresFrom, walletFiguresOf, ZERO_WALLET, type WalletFigures } from './wallet/wallet.service';

// The invoice and credit note PDFs attached to e-mails (passed to deliveries/consumer.ts by src/index.ts).
export { reservationDocumentPdf } from './wallet/transactions.service';

// The cron's money steps, and what the development seed drives.
export { runMoneyJobs } from './money.jobs';
export { closeCheckout, createCheckout } from './payments/payments.service';

// The payment provider's minimum charge, checked when booking.
export { assertChargeable } from './payments/payments.service';
export { paySandboxSession } from './payments/sandbox.routes';
// The daily reconciliation with the providers and its reports (CONTRACT 27; superadmin routes, the console, the cron).
export { dayOf, previousDay, reportsOf, runReconciliation } from './reconciliation/reconciliation.service';
export { PENDING_SORT_FIELDS, pendingCaptures, pendingPayouts, pendingRefunds } from './reconciliation/pending';
export { retryPayout, retryRefund } from './reconciliation/retries';
export { OUR_STATES, PROVIDER_STATES } from './reconciliation/reconciliation.rules';
// Pause switches of checkouts and payouts per provider (superadmin routes, the console).
export { pauseStates, setPause, type PauseState } from './pauses';
