// The masking of contact details before payment (CONTRACT section 17), table-tested: what must be
// hidden (phones, e-mail addresses, links, in plain and obfuscated forms) and what must stay.
import { describe, expect, it } from 'vitest';
import { HIDDEN, maskContactDetails } from '../src/features/conversations/masking';

const H = HIDDEN;

describe('phone numbers are hidden', () => {
  it.each([
    ['Appelle-moi au 06 12 34 56 78 stp', `Appelle-moi au ${H} stp`],
    ['0612345678', H],
    ['06.12.34.56.78', H],
    ['06-12-34-56-78', H],
    ['06/12/34/56/78', H],
    ['01.02.03.04.05', H],
    ['+33 6 12 34 56 78', H],
    ['+33612345678', H],
    ['(+33) 6 12 34 56 78', H],
    ['0033 6 12 34 56 78', H],
    ['mon numéro: 6 12 34 56 78', `mon numéro: ${H}`],
    ['0 6 1 2 3 4 5 6 7 8', H],
    ['+1 (212) 555-1234', H],
    ['call +44 20 7946 0958 tonight', `call ${H} tonight`],
    ['+221 77 123 45 67', H],
    ['tel:0612345678', `tel:${H}`],
    ['zéro six douze trente-quatre cinquante-six soixante-dix-huit', H],
    ['zero six douze trente quatre cinquante six soixante dix huit', H],
    ['zero six twelve thirty four fifty six seventy eight', H],
    ['Zero Six Twelve Thirty-Four Fifty-Six Seventy-Eight', H],
    ['oh six one two three four five six seven eight', H],
    ['zéro six 12 34 cinquante-six 78', H],
    ['zéro six, quatre-vingt-dix-neuf, douze ... 06 quatre vingt douze 34 56 78', expect.stringContaining(H)],
    ['text me: one two three four five six seven eight nine', `text me: ${H}`],
    ['06 12 34 56 78 et 07 98 76 54 32', `${H} et ${H}`],
    // CONTRACT section 19: full-width digits, digits with words or dots in between, glued number words.
    ['０６１２３４５６７８', H],
    ['appelle ０６ １２ ３４ ５６ ７８ ce soir', `appelle ${H} ce soir`],
    ['٠٦١٢٣٤٥٦٧٨', H],
    ['sixtwelve 34-56-78', H],
    ['zérosix douze 34 56 78', H],
    ['06 point 12 point 34 point 56 point 78', H],
    ['06 dot 12 dot 34 dot 56 dot 78', H],
    ['06 tiret 12 tiret 34 tiret 56 tiret 78', H],
  ])('%s', (input, expected) => {
    expect(maskContactDetails(input)).toEqual(expected);
  });
});

describe('e-mail addresses are hidden', () => {
  it.each([
    ['écris à jean.dupont@gmail.com merci', `écris à ${H} merci`],
    ['JEAN_DUPONT+colis@Example.co.uk', H],
    ['jean@gmail', H],
    ['jean @ gmail.com', H],
    ['jean dot dupont at gmail dot com', H],
    ['jean at gmail dot com', H],
    ['jean [at] gmail [dot] com', H],
    ['jean(at)gmail(dot)com', H],
    ['jean arobase gmail point fr', H],
    ['jean.dupont arobase orange point fr, à bientôt', `${H}, à bientôt`],
    ['jean{at}yahoo{dot}fr', H],
    // Spelled out letter by letter (CONTRACT section 19).
    ['j o h n @ g m a i l . c o m', H],
    ['écris à j o h n @ g m a i l . c o m merci', `écris à ${H} merci`],
    ['j o h n at g m a i l dot c o m', H],
    ['j e a n arobase o r a n g e point f r', H],
    ['ｊｅａｎ＠ｇｍａｉｌ．ｃｏｍ', H],
  ])('%s', (input, expected) => {
    expect(maskContactDetails(input)).toBe(expected);
  });
});

describe('links are hidden', () => {
  it.each([
    ['voir https://example.com/photo?id=3', `voir ${H}`],
    ['http://bit.ly/abc', H],
    ['www.monsite.fr', H],
    ['www dot monsite dot com', H],
    ['écris-moi sur wa.me/33612345678', `écris-moi sur ${H}`],
    ['t.me/jeandupont', H],
    ['facebook.com/jean.dupont', H],
    ['mon-site.fr', H],
  ])('%s', (input, expected) => {
    expect(maskContactDetails(input)).toBe(expected);
  });
});

describe('messaging handles are hidden (CONTRACT section 19)', () => {
  it.each([
    ['my insta @john_doe', `my insta ${H}`],
    ['ajoute-moi @jean.dupont75 sur snap', `ajoute-moi ${H} sur snap`],
    ['insta: john_doe', `insta: ${H}`],
    ['mon snap : jeandupont', `mon snap : ${H}`],
    ['Snapchat = jean.dupont', `Snapchat = ${H}`],
    ['telegram: @jeand', `telegram: ${H}`],
    ['whatsapp: jean_d', `whatsapp: ${H}`],
    ['https://instagram.com/john_doe', H],
    ['https://wa.me/33612345678', H],
    ['snapchat.com/add/jeand', H],
  ])('%s', (input, expected) => {
    expect(maskContactDetails(input)).toBe(expected);
  });
});

describe('what is not a contact detail stays', () => {
  it.each([
    'Le prix est de 12.50 € par kg',
    'Total 1 250,00 EUR',
    'Total : 1 250 000 FCFA pour tout le lot',
    'Le colis pèse 3.5 kg, 20kg max',
    'Dimensions 40 x 30 x 20 cm',
    'Départ le 12/05/2026 à 14h30',
    'Du 12/05/2026 - 14/05/2026',
    'du 12.05.2026 au 14.05.2026',
    'Date 2026-05-12, retour 2026-05-19',
    'Rendez-vous à 14:30 ou 16:45',
    'entre 14h et 16h30',
    'Réservation PX-7K3M9Q2A confirmée',
    'Réservation PX-23456789 confirmée',
    'code 4821',
    'J’ai 2 colis de 3 kg et un de 5 kg',
    'Deux ou trois colis, un sac et une valise',
    'one parcel and two bags',
    'Je suis à la gare, point de rendez-vous devant la porte 3',
    'I am at home, see you at the station',
    'ok.merci',
    'Il fait 25 degrés, 10, 20, 30, 40, 50 minutes de marge',
    'Prix: 45.00, 50.00 ou 55.00',
    'RDV 8h, porte 12, quai 4',
    '25 euros le kilo, 30 euros pour 2 kg',
    'Je pars le 12 décembre 2026 à 10h',
    'Départ le 2026-12-12 à 10h30, arrivée le 13',
    'Le colis fait 12 kg, 3 colis, 2 valises et 1 sac',
    'on se voit à 10 h 30 point de rendez-vous 3',
    "je t'envoie ça sur whatsapp ce soir",
    'Tu as insta ? On parle ici, merci',
    'rendez-vous @ la gare à 14h',
    'six ou sept colis, onze kilos',
    'I have one or two bags, someone will bring them',
    'Prix: 45.00 puis 50.00 ou 55.00',
    'ＯＫ，à demain ２ colis',
    '',
    HIDDEN,
  ])('%s', (input) => {
    expect(maskContactDetails(input)).toBe(input);
  });
});

describe('masking is fast on hostile input', () => {
  it.each([
    'a.'.repeat(1000),
    'a dot '.repeat(330),
    '1 '.repeat(1000),
    'jean at '.repeat(250),
    'zéro '.repeat(400),
    '1.2.'.repeat(500),
    'a '.repeat(1000),
    'j o h n at '.repeat(180),
    'sixtwelve'.repeat(220),
    '@a_'.repeat(660),
    'insta: '.repeat(280),
    '０ '.repeat(1000),
  ])('2,000 characters of a repeated pattern', (input) => {
    const started = Date.now();
    maskContactDetails(input);
    expect(Date.now() - started).toBeLessThan(200);
  });
});
