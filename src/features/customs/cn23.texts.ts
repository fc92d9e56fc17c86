// The printed CN23 form's words, in French and English (the boxes are numbered as on the postal
// form). Apart from the layout so a translation never moves a line.
import type { Locale } from '../../db/schema';
import type { ItemCategory } from './customs.rules';

export interface Cn23Texts {
  title: string;
  mayBeOpened: string;
  reservation: string;
  from: string;
  to: string;
  phone: string;
  email: string;
  carriedBy: string;
  trip: string;
  departure: string;
  description: string;
  quantity: string;
  netWeight: string;
  value: string;
  hsCode: string;
  origin: string;
  grossWeight: string;
  totalValue: string;
  charges: string;
  category: string;
  categories: Record<ItemCategory, string>;
  explanation: string;
  personalEffects: string;
  comments: string;
  noProhibitedItems: string;
  restrictions: string;
  nothingDeclared: string;
  notDeclared: string;
  certification: string;
  declaredOn: string;
  signature: string;
  continued: string;
  page: (n: number, total: number) => string;
}

const EN: Cn23Texts = {
  title: 'CUSTOMS DECLARATION',
  mayBeOpened: 'May be opened officially',
  reservation: 'Reservation no.',
  from: 'From',
  to: 'To',
  phone: 'Tel.',
  email: 'E-mail',
  carriedBy: 'Carried by',
  trip: 'Trip',
  departure: 'Departure',
  description: 'Detailed description of contents (1)',
  quantity: 'Quantity (2)',
  netWeight: 'Net weight in kg (3)',
  value: 'Value (5)',
  hsCode: 'HS tariff number (7)',
  origin: 'Country of origin of goods (8)',
  grossWeight: 'Total gross weight in kg (4)',
  totalValue: 'Total value (6)',
  charges: 'Postal charges/Fees (9)',
  category: 'Category of item (10)',
  categories: { GIFT: 'Gift', COMMERCIAL_SAMPLE: 'Commercial sample', DOCUMENTS: 'Documents', OTHER: 'Other' },
  explanation: 'Explanation:',
  personalEffects: 'personal effects sent by a private person',
  comments: 'Comments (11)',
  noProhibitedItems: 'The sender declared that the parcel holds no prohibited item.',
  restrictions: 'Restricted items acknowledged by the sender:',
  nothingDeclared: 'No declaration by the sender.',
  notDeclared: 'not declared',
  certification:
    'I, the undersigned, whose name and address are given on the item, certify that the particulars given in this declaration are correct and that this item does not contain any dangerous article or articles prohibited by legislation or by postal or customs regulations.',
  declaredOn: 'Declared on',
  signature: "Date and sender's signature (15)",
  continued: 'continued',
  page: (n, total) => `Page ${n} of ${total}`,
};

const FR: Cn23Texts = {
  title: 'DÉCLARATION EN DOUANE',
  mayBeOpened: 'Peut être ouvert d’office',
  reservation: 'N° de réservation',
  from: 'Expéditeur',
  to: 'Destinataire',
  phone: 'Tél.',
  email: 'Courriel',
  carriedBy: 'Transporté par',
  trip: 'Trajet',
  departure: 'Départ',
  description: 'Description détaillée du contenu (1)',
  quantity: 'Quantité (2)',
  netWeight: 'Poids net en kg (3)',
  value: 'Valeur (5)',
  hsCode: 'N° tarifaire du SH (7)',
  origin: 'Pays d’origine des marchandises (8)',
  grossWeight: 'Poids brut total en kg (4)',
  totalValue: 'Valeur totale (6)',
  charges: 'Frais de port/Frais (9)',
  category: 'Catégorie de l’envoi (10)',
  categories: { GIFT: 'Cadeau', COMMERCIAL_SAMPLE: 'Échantillon commercial', DOCUMENTS: 'Documents', OTHER: 'Autre' },
  explanation: 'Explication :',
  personalEffects: 'effets personnels envoyés par un particulier',
  comments: 'Observations (11)',
  noProhibitedItems: 'L’expéditeur a déclaré que le colis ne contient aucun article interdit.',
  restrictions: 'Articles réglementés acceptés par l’expéditeur :',
  nothingDeclared: 'Aucune déclaration de l’expéditeur.',
  notDeclared: 'non déclarée',
  certification:
    'Je soussigné(e), dont le nom et l’adresse figurent sur l’envoi, certifie que les renseignements donnés dans la présente déclaration sont exacts et que cet envoi ne contient aucun objet dangereux ou interdit par la législation ou par la réglementation postale ou douanière.',
  declaredOn: 'Déclaré le',
  signature: 'Date et signature de l’expéditeur (15)',
  continued: 'suite',
  page: (n, total) => `Page ${n} sur ${total}`,
};

export const cn23Texts = (locale: Locale): Cn23Texts => (locale === 'fr' ? FR : EN);
