// Error texts of payment methods, mobile money (Wave) and mobile payout accounts: each key's
// English and French; `{name}` is a value, kept as is.
import type { Entries } from './types';

export const MOBILE_MONEY_MESSAGES = {
  'payment.methodNotOffered': {
    en: '{method} is not offered for payments in {currency}; use one of {offered}',
    fr: "{method} n'est pas proposé pour les paiements en {currency} ; utilisez l'un de ces moyens : {offered}",
  },
  'payment.listMethods': { en: "See the ways this reservation can be paid", fr: "Consultez les moyens de paiement possibles pour cette réservation" },
  'payment.invalidWaveSignature': { en: 'Invalid Wave-Signature', fr: 'Wave-Signature invalide' },
  'payment.signWaveBody': {
    en: 'Sign the timestamp followed by the raw body with the webhook secret (Wave-Signature: t=...,v1=...); timestamps more than 300 s away are refused',
    fr: "Signez l'horodatage suivi du corps brut avec le secret du webhook (Wave-Signature: t=...,v1=...) ; les horodatages à plus de 300 s sont refusés",
  },
  'payment.malformedWaveEvent': {
    en: 'The Wave event is not readable: {id, type, data} with a checkout session for checkout.session.* events',
    fr: "L'événement Wave est illisible : {id, type, data} avec une session de paiement pour les événements checkout.session.*",
  },
  'payout.invalidPhone': {
    en: 'An E.164 mobile number of a Wave country: +221 (Senegal, 9 digits), +225 (Côte d’Ivoire, 10 digits), +223 (Mali, 8 digits) or +226 (Burkina Faso, 8 digits)',
    fr: 'Un numéro mobile E.164 d’un pays Wave : +221 (Sénégal, 9 chiffres), +225 (Côte d’Ivoire, 10 chiffres), +223 (Mali, 8 chiffres) ou +226 (Burkina Faso, 8 chiffres)',
  },
  'payout.alreadyRegistered': {
    en: 'This mobile wallet is already one of your payout accounts',
    fr: 'Ce portefeuille mobile fait déjà partie de vos comptes de versement',
  },
  'payout.noMobileWallet': { en: "No mobile wallet to pay {currency} out to: add a payout account first", fr: "Aucun portefeuille mobile pour verser des {currency} : ajoutez d'abord un compte de versement" },
  'payout.providerRefusedPayout': {
    en: 'The mobile-money provider refused the payout: {reason}; the amount is back in the wallet',
    fr: 'Le prestataire de mobile money a refusé le versement : {reason} ; le montant est revenu dans le portefeuille',
  },
  'payout.withinLimits': {
    en: 'Withdraw an amount within these limits (several withdrawals for a larger sum)',
    fr: 'Retirez un montant dans ces limites (plusieurs retraits pour une somme plus grande)',
  },
  'payout.checkWallet': { en: "Check the payout account’s number and name", fr: "Vérifiez le numéro et le nom du compte de versement" },
  'mobilemoney.operationNotOffered': {
    en: '{provider} does not offer this operation ({kind}) right now',
    fr: "{provider} ne propose pas cette opération ({kind}) en ce moment",
  },
  'mobilemoney.amountDecimals': {
    en: '{provider} takes amounts with {decimals} decimals only',
    fr: '{provider} n’accepte que des montants à {decimals} décimales',
  },
  'mobilemoney.amountOutOfLimits': {
    en: '{provider} takes {min} to {max} per operation; {amount} is outside',
    fr: '{provider} accepte de {min} à {max} par opération ; {amount} est en dehors',
  },
  'mobilemoney.providerNotOffered': {
    en: '{provider} does not take payments in {currency}; the payment methods list the providers that do',
    fr: '{provider} ne prend pas de paiements en {currency} ; la liste des moyens de paiement donne les opérateurs qui le font',
  },
  'mobilemoney.providerRequired': {
    en: 'Name the mobile-money provider: one of {offered}',
    fr: 'Indiquez l’opérateur de mobile money : l’un de {offered}',
  },
  'mobilemoney.phoneRequired': {
    en: 'The payer approves on their phone: the phone number is required for {provider}',
    fr: 'Le payeur valide sur son téléphone : le numéro est obligatoire pour {provider}',
  },
  'mobilemoney.phoneNotServed': {
    en: '{phone} is not a mobile number {provider} serves',
    fr: '{phone} n’est pas un numéro mobile servi par {provider}',
  },
  'mobilemoney.payInRefused': {
    en: '{provider} refused the payment: {reason}',
    fr: '{provider} a refusé le paiement : {reason}',
  },
  'mobilemoney.invalidCallbackSignature': {
    en: 'Invalid or missing callback signature',
    fr: 'Signature du rappel invalide ou absente',
  },
  'mobilemoney.malformedCallback': {
    en: 'The callback is not readable as a deposit, payout or refund of this provider',
    fr: 'Le rappel n’est pas lisible comme un dépôt, un versement ou un remboursement de ce prestataire',
  },
  'mobilemoney.unknownRail': {
    en: 'No mobile-money provider {rail} is configured',
    fr: 'Aucun prestataire de mobile money {rail} n’est configuré',
  },
} as const satisfies Entries;
