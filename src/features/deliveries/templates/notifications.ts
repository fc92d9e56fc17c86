// The e-mail of every notification kind, in French and English. A notification written with its
// words as a message key (notify.ts `text`, messages/notices.ts) is rendered from them in the
// reader's language, amounts included: the in-app list, e-mail, push and SMS say the same. One
// written before keys existed (old rows) carries its English message, and French from its kind.
import type { Locale } from '../../../db/schema';
import { renderText } from '../../../lib/message-text';
import { isMessageKey, type Message } from '../../../messages';
import type { NotificationKind } from '../notification-kinds';
import type { EmailBlocks } from './layout';

type Text = Record<Locale, string>;

/**
 * Subject and French line of each kind; `{n}` is the reservation number when the data has it,
 * `{note}` the moderator's note. `because` holds the French line of a kind for a `data.reason`
 * whose English message says more than the usual line (a booking cancelled as its trip was removed).
 */
export const NOTIFICATION_TEMPLATES: Record<NotificationKind, { subject: Text; fr: string; because?: Record<string, string> }> = {
  RESERVATION_CREATED: { subject: { fr: 'Nouvelle réservation', en: 'New booking' }, fr: 'Une nouvelle réservation{n} a été faite sur votre trajet ; elle attend le paiement.' },
  RESERVATION_PAID: { subject: { fr: 'Nouvelle réservation payée', en: 'New paid reservation' }, fr: 'La réservation{n} a été payée. Acceptez-la ou refusez-la.' },
  RESERVATION_CONFIRMED: { subject: { fr: 'Réservation acceptée', en: 'Booking accepted' }, fr: 'Le transporteur a accepté votre réservation{n}.' },
  RESERVATION_REJECTED: { subject: { fr: 'Réservation refusée', en: 'Booking rejected' }, fr: 'La réservation{n} a été refusée.' },
  RESERVATION_CANCELLED: {
    subject: { fr: 'Réservation annulée', en: 'Booking cancelled' },
    fr: 'La réservation{n} a été annulée.',
    because: {
      TRIP_REMOVED: "La réservation{n} a été annulée : son trajet a été retiré par l'équipe de modération. Si vous l'aviez payée, elle vous est remboursée en totalité.",
    },
  },
  RESERVATION_EXPIRED: { subject: { fr: 'Réservation expirée', en: 'Booking expired' }, fr: "La réservation{n} n'a pas été payée à temps et a expiré." },
  RESERVATION_DEPOSITED: { subject: { fr: 'Colis remis au transporteur', en: 'Parcel handed over' }, fr: 'Le colis de votre réservation{n} a été remis au transporteur.' },
  RESERVATION_IN_TRANSIT: { subject: { fr: 'Colis en route', en: 'Parcel on its way' }, fr: 'Le colis de votre réservation{n} est en route.' },
  RESERVATION_DELIVERED: { subject: { fr: 'Colis livré', en: 'Parcel delivered' }, fr: 'Le colis de la réservation{n} a été livré à son destinataire.' },
  TRIP_CHANGED: {
    subject: { fr: 'Votre trajet a changé', en: 'Your trip changed' },
    fr: "Le transporteur a modifié les dates ou les lieux de rendez-vous du trajet de votre réservation{n}. Vous pouvez l'annuler avec un remboursement complet jusqu'au départ.",
  },
  TRIP_REMOVED: {
    subject: { fr: 'Trajet retiré par la modération', en: 'Trip removed by moderation' },
    fr: "Votre trajet a été retiré par l'équipe de modération{note}. Les réservations pas encore remises sont annulées et leurs expéditeurs remboursés en totalité ; les colis qui vous ont déjà été remis doivent être livrés.",
  },
  PAYMENT_AUTHORIZED: { subject: { fr: 'Paiement reçu', en: 'Payment received' }, fr: 'Votre paiement pour la réservation{n} est conservé jusqu’à la livraison.' },
  PAYMENT_FAILED: { subject: { fr: 'Paiement refusé', en: 'Payment failed' }, fr: "Le paiement de la réservation{n} n'a pas abouti. Vous pouvez réessayer." },
  PAYMENT_REFUNDED: { subject: { fr: 'Votre remboursement', en: 'Your refund' }, fr: 'Le remboursement de la réservation{n} vers le moyen de paiement utilisé (carte ou Mobile Money) est en cours.' },
  PAYMENT_PARTIALLY_CAPTURED: { subject: { fr: 'Une partie de la réservation débitée', en: 'Part of the card hold charged' }, fr: "Une partie de l'autorisation de la réservation{n} est débitée ; le reste est libéré." },
  PAYMENT_RELEASED: { subject: { fr: 'Autorisation de carte libérée', en: 'Card hold released' }, fr: "L'autorisation sur votre carte pour la réservation{n} est libérée : rien n'est débité." },
  FUNDS_RELEASED: { subject: { fr: 'Paiement versé', en: 'Payment released' }, fr: 'Le montant de la réservation{n} a été versé sur votre portefeuille.' },
  FUNDS_HELD: { subject: { fr: 'Livraison : votre part est retenue', en: 'Delivered: your share is held' }, fr: 'Votre part de la réservation{n} est retenue pendant le délai de contestation.' },
  FUNDS_AVAILABLE: { subject: { fr: 'Montant disponible', en: 'Money available' }, fr: 'Le montant de la réservation{n} est disponible dans votre portefeuille.' },
  WITHDRAWAL_COMPLETED: { subject: { fr: 'Retrait envoyé', en: 'Withdrawal sent' }, fr: 'Votre retrait est en route vers votre compte de versement.' },
  WITHDRAWAL_FAILED: { subject: { fr: 'Retrait échoué', en: 'Withdrawal failed' }, fr: 'Votre retrait a échoué ; le montant est de retour dans votre portefeuille.' },
  KYC_APPROVED: { subject: { fr: 'Identité vérifiée', en: 'Identity verified' }, fr: 'Votre identité est vérifiée : vous pouvez publier des trajets.' },
  KYC_REJECTED: { subject: { fr: "Vérification d'identité refusée", en: 'Identity verification refused' }, fr: "Votre vérification d'identité n'a pas été acceptée." },
  KYC_REVOKED: { subject: { fr: "Vérification d'identité retirée", en: 'Identity verification withdrawn' }, fr: "Votre vérification d'identité a été retirée ; vous ne pouvez plus publier de trajets." },
  DISPUTE_OPENED: { subject: { fr: 'Litige ouvert', en: 'Dispute opened' }, fr: 'Un litige a été ouvert sur la réservation{n}.' },
  DISPUTE_MESSAGE: { subject: { fr: 'Nouveau message sur un litige', en: 'New message on a dispute' }, fr: 'Un nouveau message a été publié sur le litige de la réservation{n}.' },
  DISPUTE_RESOLVED: { subject: { fr: 'Litige résolu', en: 'Dispute resolved' }, fr: 'Le litige de la réservation{n} a été résolu.' },
  ALERT_MATCH: { subject: { fr: 'Nouveau trajet pour votre alerte', en: 'New trip matching your alert' }, fr: 'Un nouveau trajet correspond à votre alerte.' },
  REPORT_CLOSED: { subject: { fr: 'Votre signalement a été traité', en: 'Your report was reviewed' }, fr: "Votre signalement a été examiné et clos par l'équipe de modération." },
  AGENCY_EMPLOYEE_ADDED: { subject: { fr: 'Vous avez rejoint une agence', en: 'You joined an agency' }, fr: 'Vous travaillez désormais pour une agence.' },
  AGENCY_INVITATION: { subject: { fr: 'Invitation à rejoindre une agence', en: 'Invitation to join an agency' }, fr: 'Une agence vous invite à travailler pour elle. Acceptez ou refusez sous 7 jours.' },
  AGENCY_EMPLOYEE_REMOVED: { subject: { fr: 'Vous avez quitté une agence', en: 'You left an agency' }, fr: 'Vous ne travaillez plus pour cette agence.' },
  AGENCY_DOCUMENT_APPROVED: { subject: { fr: "Document d'agence accepté", en: 'Agency document accepted' }, fr: 'Un document de votre agence a été accepté.' },
  AGENCY_DOCUMENT_REJECTED: { subject: { fr: "Document d'agence refusé", en: 'Agency document refused' }, fr: 'Un document de votre agence a été refusé.' },
  AGENCY_ACTIVATED: { subject: { fr: 'Agence activée', en: 'Agency activated' }, fr: 'Votre agence est activée.' },
  AGENCY_SUSPENDED: { subject: { fr: 'Agence suspendue', en: 'Agency suspended' }, fr: 'Votre agence est suspendue.' },
  NEW_MESSAGE: { subject: { fr: 'Nouveau message', en: 'New message' }, fr: 'Vous avez reçu un nouveau message au sujet de la réservation{n}.' },
  TRAVEL_PROOF_APPROVED: { subject: { fr: 'Justificatif de voyage accepté', en: 'Proof of travel accepted' }, fr: 'Votre justificatif de voyage a été accepté : votre trajet est affiché comme vérifié.' },
  TRAVEL_PROOF_REJECTED: { subject: { fr: 'Justificatif de voyage refusé', en: 'Proof of travel refused' }, fr: "Votre justificatif de voyage n'a pas été accepté. Consultez le motif dans l'application." },
  OFFER_RECEIVED: { subject: { fr: 'Nouvelle offre sur votre trajet', en: 'New offer on your trip' }, fr: 'Un expéditeur vous propose un prix pour votre trajet. Acceptez, refusez ou faites une contre-offre sous 48 heures.' },
  OFFER_COUNTERED: { subject: { fr: 'Contre-offre du transporteur', en: 'Counter-offer from the carrier' }, fr: 'Le transporteur vous fait une contre-offre. Acceptez-la ou refusez-la sous 48 heures.' },
  OFFER_ACCEPTED: { subject: { fr: 'Offre acceptée', en: 'Offer accepted' }, fr: "L'offre est acceptée : la réservation{n} est créée au prix convenu et attend le paiement." },
  OFFER_DECLINED: { subject: { fr: 'Offre refusée', en: 'Offer declined' }, fr: "L'offre a été refusée." },
  OFFER_WITHDRAWN: { subject: { fr: 'Offre retirée', en: 'Offer withdrawn' }, fr: "L'expéditeur a retiré son offre." },
  OFFER_EXPIRED: {
    subject: { fr: 'Offre expirée', en: 'Offer expired' },
    fr: "L'offre n'a pas reçu de réponse à temps et a expiré.",
    because: { TRIP_REMOVED: "Votre offre est close : le trajet a été retiré par l'équipe de modération." },
  },
};

export const isNotificationKind = (template: string): template is NotificationKind => Object.hasOwn(NOTIFICATION_TEMPLATES, template);

/** The subject and the one sentence of a notification in `locale`: the e-mail, the push and the SMS say it. */
export function notificationLine(kind: NotificationKind, locale: Locale, payload: Record<string, unknown>): { subject: string; line: string } {
  const template = NOTIFICATION_TEMPLATES[kind];
  const words = payload.text as Message | null | undefined;
  if (words && typeof words === 'object' && isMessageKey(words.key)) return { subject: template.subject[locale], line: renderText(words, locale) };
  const data = (payload.data ?? {}) as Record<string, unknown>;
  const number = typeof data.reservationNumber === 'string' ? ` ${data.reservationNumber}` : '';
  const message = typeof payload.message === 'string' && payload.message ? payload.message : template.subject.en;
  const fr = (typeof data.reason === 'string' && template.because?.[data.reason]) || template.fr;
  const note = typeof data.note === 'string' && data.note ? ` (motif : « ${data.note} »)` : '';
  return { subject: template.subject[locale], line: locale === 'fr' ? fr.replace('{n}', number).replace('{note}', note) : message };
}

/** The e-mail of a notification (payload: {title, message, data, text} as notify() wrote it). */
export function notificationBlocks(kind: NotificationKind, locale: Locale, payload: Record<string, unknown>): EmailBlocks {
  const { subject, line } = notificationLine(kind, locale, payload);
  return locale === 'fr'
    ? {
        subject,
        greeting: 'Bonjour,',
        paragraphs: [line, "Ouvrez l'application pour voir le détail."],
        footer: ['Vous recevez cet e-mail pour suivre votre activité sur la plateforme ; vous pouvez le désactiver dans vos préférences.'],
      }
    : {
        subject,
        greeting: 'Hello,',
        paragraphs: [line, 'Open the app to see the details.'],
        footer: ['You receive this email to follow your activity on the platform; you can turn it off in your preferences.'],
      };
}
