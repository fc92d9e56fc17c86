// Prohibited and restricted items per corridor (CONTRACT 21): the maintained list. An entry
// applies to every corridor unless `from`/`to` name countries (ISO 3166-1 alpha-2). Each entry is
// enforced as published (CONTRACT 26), at booking and at offer: an item is caught by its category
// (`categoryCodes`, categories fine enough for the lists: migration 0045) or by its words, its name
// and description matched against the entry's French and English names and `keywords`
// (prohibited-items.rules.ts: accents, case and a plural -s ignored; `except` phrases are other
// goods that share a word, shea butter is not butter). PROHIBITED refuses the booking;
// RESTRICTED needs the sender's `acknowledgedRestrictions: [code]`. Admins add entries
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
  /** The parcel categories (categories.code) this entry refuses or restricts, whatever the item's words. */
  categoryCodes?: readonly string[];
  /** Words and phrases (French and English, singular) that name the goods in an item's name or description. */
  keywords?: readonly string[];
  /** Phrases naming other goods that share a keyword (`beurre de karité`): removed from the item's words first. */
  except?: readonly string[];
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
    categoryCodes: ['WEAPONS'],
    keywords: ['arme', 'arme a feu', 'fusil', 'pistolet', 'revolver', 'munition', 'cartouche', 'balle de fusil', 'machette', 'poignard', 'weapon', 'firearm', 'gun', 'rifle', 'pistol', 'ammunition', 'bullet', 'dagger'],
    except: ['pistolet a colle', 'glue gun', 'pistolet a peinture', 'spray gun', 'cartouche d encre', 'ink cartridge', 'cartouche de gaz'],
    name: { en: 'Weapons, ammunition and their parts', fr: 'Armes, munitions et leurs pièces' },
    reason: { en: 'Not admitted in international mail; war weapons and ammunition are banned at import', fr: 'Non admis dans le courrier international ; armes de guerre et munitions interdites à l’importation' },
    source: 'UPU; ADII; LAPOSTE',
  },
  {
    code: 'DRUGS',
    level: 'PROHIBITED',
    categoryCodes: ['DRUGS'],
    keywords: ['drogue', 'stupefiant', 'cannabis', 'chanvre indien', 'yamba', 'cocaine', 'heroine', 'khat', 'marijuana', 'haschich', 'narcotic', 'drug', 'heroin', 'hashish', 'weed'],
    name: { en: 'Narcotics and psychotropic substances (khat included)', fr: 'Stupéfiants et psychotropes (khat compris)' },
    reason: { en: 'Substances under international control are never admitted', fr: 'Les substances sous contrôle international ne sont jamais admises' },
    source: 'UPU; DOUANE-SN; ADII',
  },
  {
    code: 'DANGEROUS_GOODS',
    level: 'PROHIBITED',
    categoryCodes: ['HAZARDOUS', 'BATTERIES'],
    keywords: ['explosif', 'petard', 'feu d artifice', 'bouteille de gaz', 'cartouche de gaz', 'gaz lacrymogene', 'carburant', 'inflammable', 'corrosif', 'acide sulfurique', 'acide chlorhydrique', 'batterie externe', 'powerbank', 'power bank', 'batterie lithium', 'pile lithium', 'allumette', 'briquet', 'explosive', 'firework', 'gas cylinder', 'petrol', 'gasoline', 'fuel', 'flammable', 'corrosive', 'sulfuric acid', 'hydrochloric acid', 'lithium battery', 'spare battery', 'lighter'],
    name: { en: 'Dangerous goods: explosives, gases, flammables, corrosives, loose lithium batteries', fr: 'Marchandises dangereuses : explosifs, gaz, inflammables, corrosifs, batteries lithium seules' },
    reason: { en: 'A danger to people and aircraft (the 9 classes of dangerous goods)', fr: 'Un danger pour les personnes et les avions (les 9 classes de marchandises dangereuses)' },
    source: 'UPU; IATA; LAPOSTE',
  },
  {
    code: 'CASH',
    level: 'PROHIBITED',
    categoryCodes: ['CASH'],
    keywords: ['argent liquide', 'espece', 'billet de banque', 'lingot', 'or en lingot', 'pierre precieuse', 'diamant', 'cash', 'banknote', 'bank note', 'gold bar', 'bullion', 'precious stone', 'diamond'],
    name: { en: 'Coins, bank notes, bearer instruments, precious metals and stones', fr: 'Pièces, billets, titres au porteur, métaux et pierres précieux' },
    reason: { en: 'Not admitted in parcels; cash across borders must be declared by its bearer', fr: 'Non admis dans les colis ; l’argent liquide passant une frontière est déclaré par son porteur' },
    source: 'UPU; LAPOSTE; ADII',
  },
  {
    code: 'LIVE_ANIMALS',
    level: 'PROHIBITED',
    categoryCodes: ['LIVE_ANIMALS', 'PLANTS_SEEDS'],
    keywords: ['animal vivant', 'oiseau vivant', 'poussin', 'insecte', 'plante vivante', 'plante en pot', 'bouture', 'semence', 'graine a semer', 'graine a planter', 'bulbe', 'terre vegetale', 'live animal', 'live bird', 'insect', 'live plant', 'potted plant', 'houseplant', 'seed to sow', 'seed for sowing', 'flower seed', 'vegetable seed', 'flower bulb', 'potting soil'],
        name: { en: 'Live animals, plants and seeds', fr: 'Animaux vivants, plantes et semences' },
    reason: { en: 'Not admitted, for health and animal welfare reasons', fr: 'Non admis, pour des raisons sanitaires et de bien-être animal' },
    source: 'UPU; LAPOSTE',
  },
  {
    code: 'COUNTERFEIT',
    level: 'PROHIBITED',
    keywords: ['contrefacon', 'contrefait', 'copie de marque', 'faux sac', 'article pirate', 'counterfeit', 'fake', 'replica', 'pirated', 'bootleg'],
    name: { en: 'Counterfeit and pirated goods', fr: 'Contrefaçons et articles piratés' },
    reason: { en: 'Seized and destroyed by customs, at import and export', fr: 'Saisis et détruits par la douane, à l’importation comme à l’exportation' },
    source: 'UPU; LAPOSTE; DOUANE-FR; ADII',
  },
  {
    code: 'OBSCENE',
    level: 'PROHIBITED',
    keywords: ['pornographie', 'pornographique', 'obscene', 'pornography', 'pornographic'],
    name: { en: 'Obscene articles and writings contrary to public order', fr: 'Objets obscènes et écrits contraires à l’ordre public' },
    reason: { en: 'Not admitted in international mail; prohibited at import', fr: 'Non admis dans le courrier international ; interdits à l’importation' },
    source: 'UPU; ADII',
  },
  {
    code: 'MEDICINES',
    level: 'RESTRICTED',
    categoryCodes: ['MEDICINES'],
    keywords: ['medicament', 'comprime', 'gelule', 'sirop contre la toux', 'antibiotique', 'paracetamol', 'ordonnance', 'medicine', 'medication', 'pill', 'cough syrup', 'antibiotic', 'prescription'],
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
    categoryCodes: ['ELECTRONICS'],
    keywords: ['telephone', 'smartphone', 'ordinateur portable', 'tablette tactile', 'montre connectee', 'appareil photo', 'console de jeu', 'phone', 'laptop', 'tablet computer', 'smartwatch', 'camera', 'game console'],
    except: ['coque de telephone', 'phone case', 'etui de telephone', 'housse d ordinateur', 'laptop sleeve', 'laptop bag', 'sac d ordinateur'],
    name: { en: 'Devices with lithium batteries', fr: 'Appareils à batterie lithium' },
    reason: { en: 'The battery must be installed in the device and the device switched off; no power banks', fr: 'La batterie doit être dans l’appareil, éteint ; pas de batterie externe' },
    source: 'IATA; LAPOSTE',
  },
  {
    code: 'PERFUMES_AEROSOLS',
    level: 'RESTRICTED',
    categoryCodes: ['PERFUMES'],
    keywords: ['parfum', 'eau de toilette', 'eau de parfum', 'aerosol', 'bombe aerosol', 'spray', 'deodorant spray', 'laque', 'perfume', 'cologne', 'hairspray'],
    name: { en: 'Alcohol-based perfumes and aerosols', fr: 'Parfums alcoolisés et aérosols' },
    reason: { en: 'Flammable: small sealed quantities only, never by plane in the hold without the airline’s consent', fr: 'Inflammables : petites quantités scellées seulement, jamais en soute sans l’accord de la compagnie' },
    source: 'LAPOSTE; IATA',
  },
  {
    code: 'MA_DRONES',
    level: 'PROHIBITED',
    keywords: ['drone', 'aeronef telecommande', 'quadricoptere', 'quadcopter', 'remote controlled aircraft'],
    to: ['MA'],
    name: { en: 'Drones and remote-controlled aircraft', fr: 'Drones et aéronefs télécommandés' },
    reason: { en: 'Seized at import into Morocco without prior authorisation', fr: 'Saisis à l’importation au Maroc sans autorisation préalable' },
    source: 'ADII',
  },
  {
    code: 'MA_ANIMAL_PLANT_PRODUCTS',
    level: 'RESTRICTED',
    categoryCodes: ['FOOD', 'MEAT_DAIRY', 'POULTRY', 'FISH'],
    keywords: ['viande', 'lait', 'fromage', 'poisson', 'fruit', 'legume', 'meat', 'milk', 'cheese', 'fish', 'vegetable'],
    except: ['lait de coco', 'coconut milk', 'lait corporel', 'body milk', 'lait de toilette', 'lait demaquillant', 'cleansing milk'],
    to: ['MA'],
    name: { en: 'Food of animal or plant origin', fr: 'Aliments d’origine animale ou végétale' },
    reason: { en: 'Needs an ONSSA veterinary or phytosanitary certificate beyond personal quantities', fr: 'Exige un certificat vétérinaire ou phytosanitaire de l’ONSSA au-delà des quantités personnelles' },
    source: 'ADII',
  },
  {
    code: 'MA_ANTIQUITIES',
    level: 'RESTRICTED',
    keywords: ['antiquite', 'fossile', 'objet ancien', 'manuscrit ancien', 'antique', 'antiquity', 'fossil', 'ancient manuscript'],
    from: ['MA'],
    name: { en: 'Antiquities, fossils and cultural goods', fr: 'Antiquités, fossiles et biens culturels' },
    reason: { en: 'Not exported from Morocco without authorisation', fr: 'Non exportés du Maroc sans autorisation' },
    source: 'ADII',
  },
  {
    code: 'SN_POULTRY',
    level: 'PROHIBITED',
    categoryCodes: ['POULTRY'],
    keywords: ['poulet', 'cuisse de poulet', 'volaille', 'dinde', 'canard', 'pintade', 'chicken', 'chicken leg', 'poultry', 'turkey', 'duck', 'guinea fowl'],
    except: ['bouillon de poulet', 'chicken stock', 'bouillon cube', 'cube de bouillon', 'chicken flavour', 'gout poulet', 'arome poulet', 'canard en peluche', 'rubber duck'],
    to: ['SN'],
    name: { en: 'Chicken legs and poultry meat', fr: 'Cuisses de poulet et viande de volaille' },
    reason: { en: 'Import banned in Senegal since 2005', fr: 'Importation interdite au Sénégal depuis 2005' },
    source: 'DOUANE-SN',
  },
  {
    code: 'SN_USED_GOODS',
    level: 'PROHIBITED',
    keywords: ['bicyclette usagee', 'velo usage', 'velo d occasion', 'matelas usage', 'matelas d occasion', 'refrigerateur usage', 'frigo usage', 'refrigerateur d occasion', 'used bicycle', 'used bike', 'used mattress', 'used refrigerator', 'used fridge', 'second hand bicycle', 'second hand mattress', 'second hand fridge'],
    to: ['SN'],
    name: { en: 'Used bicycles, mattresses and refrigerators', fr: 'Bicyclettes, matelas et réfrigérateurs usagés' },
    reason: { en: 'Import of these used goods is banned in Senegal', fr: 'L’importation de ces biens usagés est interdite au Sénégal' },
    source: 'DOUANE-SN',
  },
  {
    code: 'EU_MEAT_DAIRY',
    level: 'PROHIBITED',
    categoryCodes: ['MEAT_DAIRY', 'POULTRY'],
    keywords: ['viande', 'viande sechee', 'kilichi', 'charcuterie', 'saucisson', 'saucisse', 'jambon', 'boeuf', 'mouton', 'agneau', 'chevre', 'poulet', 'volaille', 'lait', 'lait en poudre', 'lait caille', 'fromage', 'beurre', 'yaourt', 'creme fraiche', 'oeuf', 'meat', 'dried meat', 'beef jerky', 'sausage', 'ham', 'beef', 'mutton', 'lamb', 'goat', 'chicken', 'poultry', 'milk', 'milk powder', 'cheese', 'butter', 'yoghurt', 'yogurt', 'fresh cream', 'sour cream', 'egg'],
    except: ['beurre de karite', 'shea butter', 'beurre de cacao', 'cocoa butter', 'beurre de cacahuete', 'beurre d arachide', 'peanut butter', 'lait de coco', 'coconut milk', 'lait corporel', 'body milk', 'lait de toilette', 'lait demaquillant', 'cleansing milk', 'lait de beaute', 'creme hydratante', 'creme pour le visage', 'face cream', 'hand cream', 'creme pour les main', 'body cream', 'fromage blanc de soja', 'bouillon cube', 'cube de bouillon', 'chevre en peluche', 'peau de chevre', 'goat skin', 'goatskin'],
    to: EU,
    fromOutside: NON_EU_ORIGIN,
    name: { en: 'Meat, milk and their products', fr: 'Viande, lait et leurs produits' },
    reason: { en: 'Personal consignments from outside the EU may not bring them in (animal health)', fr: 'Les envois personnels venant de hors de l’UE ne peuvent pas en faire entrer (santé animale)' },
    source: 'DOUANE-FR',
  },
  {
    code: 'EU_FOOD_PLANTS',
    level: 'RESTRICTED',
    categoryCodes: ['FOOD', 'FISH'],
    keywords: ['fruit', 'legume', 'epice', 'mangue', 'bissap', 'hibiscus', 'arachide', 'cacahuete', 'mil', 'fonio', 'piment', 'gombo', 'poisson', 'poisson seche', 'guedj', 'yete', 'vegetable', 'spice', 'mango', 'peanut', 'millet', 'chili', 'okra', 'fish', 'dried fish'],
    except: ['jus de fruit', 'fruit juice', 'fruit de mer', 'poisson rouge', 'beurre de cacahuete', 'beurre d arachide', 'peanut butter', 'huile d arachide', 'peanut oil'],
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
