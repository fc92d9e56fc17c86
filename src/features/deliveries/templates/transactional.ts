// The messages outside notifications, in French and English: e-mail verification, password reset,
// password changed (security messages, sent whatever the preferences), the recipient's link and
// the data export's link.
import type { Locale } from '../../../db/schema';
import type { TransactionalTemplate } from '../outbox';
import { incidentEmail } from './incidents';
import type { EmailBlocks } from './layout';

type Payload = Record<string, unknown>;
type Link = (path: string) => string;

const str = (payload: Payload, key: string) => (typeof payload[key] === 'string' ? (payload[key] as string) : '');
const hello = (locale: Locale, name: string) => (locale === 'fr' ? (name ? `Bonjour ${name},` : 'Bonjour,') : name ? `Hello ${name},` : 'Hello,');

export const TRANSACTIONAL: Record<TransactionalTemplate, (locale: Locale, payload: Payload, link: Link) => EmailBlocks> = {
  EMAIL_VERIFICATION: (locale, p, link) =>
    locale === 'fr'
      ? {
          subject: 'Confirmez votre adresse e-mail',
          greeting: hello(locale, str(p, 'firstName')),
          paragraphs: ['Merci de votre inscription. Confirmez votre adresse e-mail pour sécuriser votre compte.'],
          action: { label: 'Confirmer mon adresse', url: link(str(p, 'path')) },
          footer: ["Ce lien est valable une heure. Si vous n'avez pas créé de compte, ignorez ce message."],
        }
      : {
          subject: 'Confirm your email address',
          greeting: hello(locale, str(p, 'firstName')),
          paragraphs: ['Thank you for signing up. Confirm your email address to secure your account.'],
          action: { label: 'Confirm my address', url: link(str(p, 'path')) },
          footer: ['The link is valid for one hour. If you did not create an account, ignore this message.'],
        },
  PASSWORD_RESET: (locale, p, link) =>
    locale === 'fr'
      ? {
          subject: 'Réinitialisez votre mot de passe',
          greeting: hello(locale, str(p, 'firstName')),
          paragraphs: ['Vous avez demandé un nouveau mot de passe.'],
          action: { label: 'Choisir un nouveau mot de passe', url: link(str(p, 'path')) },
          footer: ["Ce lien est valable une heure. Si vous n'êtes pas à l'origine de cette demande, ignorez ce message."],
        }
      : {
          subject: 'Reset your password',
          greeting: hello(locale, str(p, 'firstName')),
          paragraphs: ['You asked for a new password.'],
          action: { label: 'Choose a new password', url: link(str(p, 'path')) },
          footer: ['The link is valid for one hour. If you did not ask for it, ignore this message.'],
        },
  PASSWORD_CHANGED: (locale, p) =>
    locale === 'fr'
      ? {
          subject: 'Votre mot de passe a été modifié',
          greeting: hello(locale, str(p, 'firstName')),
          paragraphs: ['Le mot de passe de votre compte vient d’être modifié et vos autres sessions ont été fermées.'],
          footer: ["Si ce n'est pas vous, réinitialisez votre mot de passe depuis l'application et contactez le support."],
        }
      : {
          subject: 'Your password was changed',
          greeting: hello(locale, str(p, 'firstName')),
          paragraphs: ['The password of your account was just changed and your other sessions were closed.'],
          footer: ['If it was not you, reset your password from the app and contact support.'],
        },
  // The archive the user asked for (privacy/, CONTRACT 24): sent whatever the preferences.
  DATA_EXPORT_READY: (locale, p, link) =>
    locale === 'fr'
      ? {
          subject: 'Votre export de données est prêt',
          greeting: hello(locale, str(p, 'firstName')),
          paragraphs: ['Les données de votre compte que vous avez demandées sont prêtes. Téléchargez-les en étant connecté à votre compte :'],
          action: { label: 'Télécharger mes données', url: link(str(p, 'path')) },
          footer: [`Ce lien est valable jusqu’au ${str(p, 'expiresOn')}. Si vous n'avez pas demandé cet export, changez votre mot de passe.`],
        }
      : {
          subject: 'Your data export is ready',
          greeting: hello(locale, str(p, 'firstName')),
          paragraphs: ['The data of your account you asked for is ready. Download it while signed in to your account:'],
          action: { label: 'Download my data', url: link(str(p, 'path')) },
          footer: [`The link is valid until ${str(p, 'expiresOn')}. If you did not ask for this export, change your password.`],
        },
  // Sent by SMS only (phoneCodeSms); the e-mail form exists because every template has one.
  PHONE_VERIFICATION: (locale, p) =>
    locale === 'fr'
      ? { subject: 'Votre code de vérification', greeting: hello(locale, ''), paragraphs: [phoneCodeSms(locale, p)], footer: [] }
      : { subject: 'Your verification code', greeting: hello(locale, ''), paragraphs: [phoneCodeSms(locale, p)], footer: [] },
  // The watchdog's alerts to the operators (templates/incidents.ts).
  INCIDENT_OPENED: (locale, p, link) => incidentEmail('INCIDENT_OPENED', locale, p, link),
  INCIDENT_RESOLVED: (locale, p, link) => incidentEmail('INCIDENT_RESOLVED', locale, p, link),
  // An agency invites an address that has no account yet (CONTRACT 25): sign up with it to answer.
  AGENCY_INVITATION_SIGN_UP: (locale, p) =>
    locale === 'fr'
      ? {
          subject: `${str(p, 'agencyName')} vous invite à rejoindre son équipe`,
          greeting: hello(locale, ''),
          paragraphs: [
            `L'agence ${str(p, 'agencyName')} vous invite à travailler pour elle sur notre application de transport de colis.`,
            `Pour répondre, créez votre compte dans l'application avec cette adresse (${str(p, 'email')}) et confirmez-la : l'invitation vous y attend jusqu'au ${str(p, 'expiresOn')}.`,
          ],
          footer: ["Si vous ne connaissez pas cette agence, ignorez ce message : aucun compte n'est créé sans vous."],
        }
      : {
          subject: `${str(p, 'agencyName')} invites you to join its team`,
          greeting: hello(locale, ''),
          paragraphs: [
            `The agency ${str(p, 'agencyName')} invites you to work for it on our parcel transport app.`,
            `To answer, create your account in the app with this address (${str(p, 'email')}) and confirm it: the invitation waits for you there until ${str(p, 'expiresOn')}.`,
          ],
          footer: ['If you do not know this agency, ignore this message: no account is created without you.'],
        },
  RECIPIENT_LINK: (locale, p, link) => {
    const deposited = str(p, 'step') === 'DEPOSITED';
    const number = str(p, 'reservationNumber');
    return locale === 'fr'
      ? {
          subject: deposited ? `Votre colis ${number} est en route` : `Un colis ${number} vous est destiné`,
          greeting: hello(locale, str(p, 'recipientName')),
          paragraphs: [
            deposited
              ? `Le colis ${number} que ${str(p, 'senderName')} vous envoie a été remis au transporteur.`
              : `${str(p, 'senderName')} vous envoie un colis (réservation ${number}).`,
            'Suivez-le et présentez le code de remise depuis cette page :',
          ],
          action: { label: 'Suivre mon colis', url: link(str(p, 'path')) },
          footer: ['Gardez ce lien pour vous : il permet de recevoir le colis.'],
        }
      : {
          subject: deposited ? `Your parcel ${number} is on its way` : `A parcel ${number} is coming to you`,
          greeting: hello(locale, str(p, 'recipientName')),
          paragraphs: [
            deposited
              ? `The parcel ${number} that ${str(p, 'senderName')} is sending you was handed over to the carrier.`
              : `${str(p, 'senderName')} is sending you a parcel (reservation ${number}).`,
            'Follow it and show the handover code from this page:',
          ],
          action: { label: 'Follow my parcel', url: link(str(p, 'path')) },
          footer: ['Keep this link to yourself: it lets you receive the parcel.'],
        };
  },
};

/**
 * The recipient's SMS: the same news in one short message with the page link (kept under two SMS
 * segments of accented text). The other transactional messages are e-mails only.
 */
export function recipientLinkSms(locale: Locale, p: Payload, link: Link): string {
  const deposited = str(p, 'step') === 'DEPOSITED';
  const number = str(p, 'reservationNumber');
  const sender = str(p, 'senderName');
  const url = link(str(p, 'path'));
  if (locale === 'fr') {
    return deposited
      ? `Votre colis ${number} envoyé par ${sender} a été remis au transporteur. Suivi et code de remise : ${url}`
      : `${sender} vous envoie un colis (réservation ${number}). Suivez-le et recevez-le ici : ${url}`;
  }
  return deposited
    ? `Your parcel ${number} from ${sender} was handed over to the carrier. Tracking and handover code: ${url}`
    : `${sender} is sending you a parcel (reservation ${number}). Follow and receive it here: ${url}`;
}

/** The phone verification SMS: the code, how long it lasts, and that nobody else needs it. */
export function phoneCodeSms(locale: Locale, p: Payload): string {
  const code = str(p, 'code');
  return locale === 'fr'
    ? `Votre code de vérification Parcel Marketplace : ${code}. Valable 10 minutes. Ne le communiquez à personne.`
    : `Your Parcel Marketplace verification code: ${code}. Valid for 10 minutes. Do not share it with anyone.`;
}
