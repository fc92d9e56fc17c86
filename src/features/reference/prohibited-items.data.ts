// Prohibited and restricted items per corridor (CONTRACT 21): the maintained list. An entry
// applies to every corridor unless `from`/`to` name countries (ISO 3166-1 alpha-2); one with a
// `categoryCode` is checked against every booking's items of that category; the others are shown
// to senders and carriers (the item cannot be recognised from a category). PROHIBITED refuses the
// booking; RESTRICTED needs the sender's `acknowledgedRestrictions: [code]`. Admins add entries
// (prohibited_item_rules); this file is edited by a pull request citing its source.
//
// Sources (public guidance, read November 2026; wording ours):
//  [UPU]   Universal Postal Union Convention, article 19 (items not admitted; dangerous goods) and the
//          UPU "Prohibited and restricted articles" pages: https://www.upu.int/en/activities/customs/prohibited-and-restricted-articles.html,
//          https://www.upu.int/en/activities/postal-security/prohibited-items.html
//  [IATA]  IATA Dangerous Goods Regulations, the 9 classes (the UPU list's part IV)
//  [LAPOSTE] La Poste, "Les marchandises dangereuses sont interdites": https://www.laposte.fr/conseils-pratiques/marchandises-dangereuses-interdites
//          and "Envois spéciaux : peut-on vraiment tout poster ?": https://laposte.fr/envoyer/envois-speciaux-peut-on-vraiment-tout-poster
//  [DOUANE-FR] Direction générale des douanes et droits indirects (douane.gouv.fr), travellers and postal
//          consignments: medicines (personal use, prescription), counterfeits; EU rules on personal
//          consignments of meat and milk products from non-EU countries (Regulation (EU) 2019/2122)
//  [DOUANE-SN] Code des douanes du Sénégal, art. 45 (postal consignments under customs control) and the
//          Direction générale des douanes (douanes.sn): import ban on chicken legs (since 2005), on some
//          used goods (bicycles, mattresses, refrigerators), khat treated as a drug
//  [ADII]  Administration des douanes et impôts indirects du Maroc, guide for Moroccans living abroad
//          and travellers' guide: weapons of war, narcotics, counterfeits, writings contrary to public
//          order prohibited; drones only with prior authorisation; animal and plant products with an
//          ONSSA certificate; medicines with a prescription; antiquities not exported without authorisation
import type { Locale } from '../../db/schema';

export type RestrictionLevel = 'PROHIBITED' | 'RESTRICTED';

export interface ProhibitedItemEntry {
  code: string;
  level: RestrictionLevel;
  /** The parcel category (categories.code) this entry refuses or restricts in bookings. */
  categoryCode?: string;
  /** Origin countries it applies to; every origin when absent. */
  from?: readonly string[];
  /** Destination countries it applies to; every destination when absent. */
  to?: readonly string[];
  name: Record<Locale, string>;
  reason: Record<Locale, string>;
  source: string;
}

const EU = ['AT', 'BE', 'BG', 'HR', 'CY', 'CZ', 'DK', 'EE', 'FI', 'FR', 'DE', 'GR', 'HU', 'IE', 'IT', 'LV', 'LT', 'LU', 'MT', 'NL', 'PL', 'PT', 'RO', 'SK', 'SI', 'ES', 'SE'] as const;
/** Into the EU from outside it: every origin but the EU's own. */
const NON_EU_ORIGIN = '!EU';

export const PROHIBITED_ITEMS: readonly (ProhibitedItemEntry & { fromOutside?: typeof NON_EU_ORIGIN })[] = [
  {
    code: 'WEAPONS',
    level: 'PROHIBITED',
    categoryCode: 'WEAPONS',
    name: { en: 'Weapons, ammunition and their parts', fr: 'Armes, munitions et leurs pièces' },
    reason: { en: 'Not admitted in international mail; war weapons and ammunition are banned at import', fr: 'Non admis dans le courrier international ; armes de guerre et munitions interdites à l’importation' },
    source: 'UPU; ADII; LAPOSTE',
  },
  {
    code: 'DRUGS',
    level: 'PROHIBITED',
    categoryCode: 'DRUGS',
    name: { en: 'Narcotics and psychotropic substances (khat included)', fr: 'Stupéfiants et psychotropes (khat compris)' },
    reason: { en: 'Substances under international control are never admitted', fr: 'Les substances sous contrôle international ne sont jamais admises' },
    source: 'UPU; DOUANE-SN; ADII',
  },
  {
    code: 'DANGEROUS_GOODS',
    level: 'PROHIBITED',
    categoryCode: 'HAZARDOUS',
    name: { en: 'Dangerous goods: explosives, gases, flammables, corrosives, loose lithium batteries', fr: 'Marchandises dangereuses : explosifs, gaz, inflammables, corrosifs, batteries lithium seules' },
    reason: { en: 'A danger to people and aircraft (the 9 classes of dangerous goods)', fr: 'Un danger pour les personnes et les avions (les 9 classes de marchandises dangereuses)' },
    source: 'UPU; IATA; LAPOSTE',
  },
  {
    code: 'CASH',
    level: 'PROHIBITED',
    categoryCode: 'CASH',
    name: { en: 'Coins, bank notes, bearer instruments, precious metals and stones', fr: 'Pièces, billets, titres au porteur, métaux et pierres précieux' },
    reason: { en: 'Not admitted in parcels; cash across borders must be declared by its bearer', fr: 'Non admis dans les colis ; l’argent liquide passant une frontière est déclaré par son porteur' },
    source: 'UPU; LAPOSTE; ADII',
  },
  {
    code: 'LIVE_ANIMALS',
    level: 'PROHIBITED',
    categoryCode: 'LIVE_ANIMALS',
    name: { en: 'Live animals, plants and seeds', fr: 'Animaux vivants, plantes et semences' },
    reason: { en: 'Not admitted, for health and animal welfare reasons', fr: 'Non admis, pour des raisons sanitaires et de bien-être animal' },
    source: 'UPU; LAPOSTE',
  },
  {
    code: 'COUNTERFEIT',
    level: 'PROHIBITED',
    name: { en: 'Counterfeit and pirated goods', fr: 'Contrefaçons et articles piratés' },
    reason: { en: 'Seized and destroyed by customs, at import and export', fr: 'Saisis et détruits par la douane, à l’importation comme à l’exportation' },
    source: 'UPU; LAPOSTE; DOUANE-FR; ADII',
  },
  {
    code: 'OBSCENE',
    level: 'PROHIBITED',
    name: { en: 'Obscene articles and writings contrary to public order', fr: 'Objets obscènes et écrits contraires à l’ordre public' },
    reason: { en: 'Not admitted in international mail; prohibited at import', fr: 'Non admis dans le courrier international ; interdits à l’importation' },
    source: 'UPU; ADII',
  },
  {
    code: 'MEDICINES',
    level: 'RESTRICTED',
    categoryCode: 'MEDICINES',
    name: { en: 'Medicines', fr: 'Médicaments' },
    reason: {
      en: 'Personal quantities only, with the prescription in the parcel; counterfeit medicines are seized',
      fr: 'Quantités personnelles seulement, avec l’ordonnance dans le colis ; les faux médicaments sont saisis',
    },
    source: 'DOUANE-FR; ADII; DOUANE-SN',
  },
  {
    code: 'LITHIUM_IN_DEVICE',
    level: 'RESTRICTED',
    categoryCode: 'ELECTRONICS',
    name: { en: 'Devices with lithium batteries', fr: 'Appareils à batterie lithium' },
    reason: { en: 'The battery must be installed in the device and the device switched off; no power banks', fr: 'La batterie doit être dans l’appareil, éteint ; pas de batterie externe' },
    source: 'IATA; LAPOSTE',
  },
  {
    code: 'PERFUMES_AEROSOLS',
    level: 'RESTRICTED',
    categoryCode: 'COSMETICS',
    name: { en: 'Alcohol-based perfumes and aerosols', fr: 'Parfums alcoolisés et aérosols' },
    reason: { en: 'Flammable: small sealed quantities only, never by plane in the hold without the airline’s consent', fr: 'Inflammables : petites quantités scellées seulement, jamais en soute sans l’accord de la compagnie' },
    source: 'LAPOSTE; IATA',
  },
  {
    code: 'MA_DRONES',
    level: 'PROHIBITED',
    to: ['MA'],
    name: { en: 'Drones and remote-controlled aircraft', fr: 'Drones et aéronefs télécommandés' },
    reason: { en: 'Seized at import into Morocco without prior authorisation', fr: 'Saisis à l’importation au Maroc sans autorisation préalable' },
    source: 'ADII',
  },
  {
    code: 'MA_ANIMAL_PLANT_PRODUCTS',
    level: 'RESTRICTED',
    categoryCode: 'FOOD',
    to: ['MA'],
    name: { en: 'Food of animal or plant origin', fr: 'Aliments d’origine animale ou végétale' },
    reason: { en: 'Needs an ONSSA veterinary or phytosanitary certificate beyond personal quantities', fr: 'Exige un certificat vétérinaire ou phytosanitaire de l’ONSSA au-delà des quantités personnelles' },
    source: 'ADII',
  },
  {
    code: 'MA_ANTIQUITIES',
    level: 'RESTRICTED',
    from: ['MA'],
    name: { en: 'Antiquities, fossils and cultural goods', fr: 'Antiquités, fossiles et biens culturels' },
    reason: { en: 'Not exported from Morocco without authorisation', fr: 'Non exportés du Maroc sans autorisation' },
    source: 'ADII',
  },
  {
    code: 'SN_POULTRY',
    level: 'PROHIBITED',
    to: ['SN'],
    name: { en: 'Chicken legs and poultry meat', fr: 'Cuisses de poulet et viande de volaille' },
    reason: { en: 'Import banned in Senegal since 2005', fr: 'Importation interdite au Sénégal depuis 2005' },
    source: 'DOUANE-SN',
  },
  {
    code: 'SN_USED_GOODS',
    level: 'PROHIBITED',
    to: ['SN'],
    name: { en: 'Used bicycles, mattresses and refrigerators', fr: 'Bicyclettes, matelas et réfrigérateurs usagés' },
    reason: { en: 'Import of these used goods is banned in Senegal', fr: 'L’importation de ces biens usagés est interdite au Sénégal' },
    source: 'DOUANE-SN',
  },
  {
    code: 'EU_MEAT_DAIRY',
    level: 'PROHIBITED',
    to: EU,
    fromOutside: NON_EU_ORIGIN,
    name: { en: 'Meat, milk and their products', fr: 'Viande, lait et leurs produits' },
    reason: { en: 'Personal consignments from outside the EU may not bring them in (animal health)', fr: 'Les envois personnels venant de hors de l’UE ne peuvent pas en faire entrer (santé animale)' },
    source: 'DOUANE-FR',
  },
  {
    code: 'EU_FOOD_PLANTS',
    level: 'RESTRICTED',
    categoryCode: 'FOOD',
    to: EU,
    fromOutside: NON_EU_ORIGIN,
    name: { en: 'Food and plant products from outside the EU', fr: 'Aliments et produits végétaux venant de hors de l’UE' },
    reason: { en: 'Sealed, non-perishable and for personal use; fruit, vegetables and plants need a phytosanitary certificate', fr: 'Scellés, non périssables et pour usage personnel ; fruits, légumes et plantes exigent un certificat phytosanitaire' },
    source: 'DOUANE-FR',
  },
];

/** Whether an entry applies from `from` to `to`. */
export function appliesTo(entry: Pick<ProhibitedItemEntry, 'from' | 'to'> & { fromOutside?: string }, from: string, to: string): boolean {
  if (entry.from && !entry.from.includes(from)) return false;
  if (entry.to && !entry.to.includes(to)) return false;
  if (entry.fromOutside === NON_EU_ORIGIN && (EU as readonly string[]).includes(from)) return false;
  return true;
}
