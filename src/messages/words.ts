// Values some French texts reword: the nouns notFound() names, the reservation actions, where
// validation found a problem.

/** What notFound() names (`Reservation 12 not found`), with its French article-free noun. */
export const NOUNS = {
  Agency: 'Agence',
  'Agency document': "Document d'agence",
  'Agency invitation': "Invitation d'agence",
  'Agency of the current user': "Agence de l'utilisateur courant",
  Announcement: 'Annonce',
  Branch: 'Succursale',
  Cache: 'Cache',
  Category: 'Catégorie',
  'Checkout session': 'Session de paiement',
  'Connected account': 'Compte connecté',
  Country: 'Pays',
  'Data export': 'Export de données',
  Delivery: 'Envoi',
  Device: 'Appareil',
  Dispute: 'Litige',
  Employee: 'Employé',
  File: 'Fichier',
  'Invoice of transaction': 'Facture de la transaction',
  'KYC record': 'Dossier KYC',
  'KYC session': 'Session KYC',
  Notification: 'Notification',
  Offer: 'Offre',
  Page: 'Page',
  'Monitoring token': 'Jeton de supervision',
  'Payout account': 'Compte de versement',
  'Recipient link': 'Lien destinataire',
  Report: 'Signalement',
  Reservation: 'Réservation',
  Review: 'Avis',
  'Travel proof': 'Justificatif de voyage',
  'Search alert': 'Alerte de recherche',
  Transaction: 'Transaction',
  User: 'Utilisateur',
  Withdrawal: 'Retrait',
  'User with email': "Utilisateur avec l'e-mail",
} as const;

export type Noun = keyof typeof NOUNS;

const pick =
  (words: Record<string, string>) =>
  (value: string): string | undefined =>
    words[value];

/** Reservation actions as describeAction() writes them (reservation-state.ts). */
export const ACTIONS = pick({
  pay: 'payer',
  expire: 'faire expirer',
  accept: 'accepter',
  reject: 'refuser',
  cancel: 'annuler',
  deposit: 'déposer',
  'start transit': 'mettre en transit',
  deliver: 'livrer',
  'open dispute': 'ouvrir un litige sur',
  'resolve release': 'clore par versement',
  'resolve refund': 'clore par remboursement',
});

/** Where validation found the problem (validation.ts messageFor). */
export const WHERE = pick({
  body: 'le corps',
  'path parameter': 'le paramètre de chemin',
  query: 'les paramètres de requête',
  header: "l'en-tête",
  cookie: 'le cookie',
  form: 'le formulaire',
});
