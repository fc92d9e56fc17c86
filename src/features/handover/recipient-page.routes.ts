// The recipient's page (root, no account): parcel summary, status, where the parcel is and the
// delivery QR, refreshed by a small script that reloads the page's live part before the code
// expires. It speaks the recipient's language (the rule of their SMS and e-mail, CONTRACT section
// 16; `?lang=fr|en` then Accept-Language override it) and shows places and times as a person
// reads them: the nearest city rather than coordinates, dates in words (section 19).
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { html, raw } from 'hono/html';
import type { Locale } from '../../db/schema';
import { createRouter, type AppEnv } from '../../env';
import { preferredLocale } from '../../lib/locale';
import { cspNonce } from '../../middleware/content-security-policy';
import { recipientLocale } from '../deliveries/recipient';
import { msg, render } from '../../messages';
import { nearestCity } from '../reference/reference.service';
import { RecipientTokenParams } from './handover.schemas';
import { recipientPageData, type RecipientView } from './handover.service';

const STATUS_LABELS: Record<Locale, Record<string, string>> = {
  en: {
    PENDING_PAYMENT: 'Awaiting payment',
    PAID: 'Paid, awaiting the carrier',
    CONFIRMED: 'Confirmed, awaiting hand-over',
    DEPOSITED: 'With the carrier',
    IN_TRANSIT: 'On its way',
    DELIVERED: 'Delivered',
    DISPUTED: 'Under review',
    REFUNDED: 'Refunded',
  },
  fr: {
    PENDING_PAYMENT: 'En attente de paiement',
    PAID: 'Payé, en attente du transporteur',
    CONFIRMED: 'Confirmé, en attente de remise au transporteur',
    DEPOSITED: 'Chez le transporteur',
    IN_TRANSIT: 'En route',
    DELIVERED: 'Livré',
    DISPUTED: "En cours d'examen",
    REFUNDED: 'Remboursé',
  },
};

const TEXT = {
  en: {
    parcel: 'Parcel',
    status: 'Status',
    from: 'From',
    to: 'To',
    expected: 'Expected',
    carrier: 'Carrier',
    position: 'Last position',
    unknown: 'Not yet known',
    delivered: 'Delivered. Thank you!',
    near: (place: string, km: number) => (km <= 15 ? place : render(msg('place.kmFrom', { km, city: place }), 'en')),
    at: (place: string, when: string) => `${place}, ${when}`,
    code: 'Delivery code',
    showCode: 'Show this code to the carrier when you receive the parcel.',
    codeLater: 'The code appears once the carrier has the parcel.',
    qrLabel: 'Delivery QR code',
    notFoundTitle: 'Not found',
    notFound: 'This parcel link does not exist or is no longer valid.',
  },
  fr: {
    parcel: 'Colis',
    status: 'Statut',
    from: 'Départ',
    to: 'Arrivée',
    expected: 'Arrivée prévue',
    carrier: 'Transporteur',
    position: 'Dernière position',
    unknown: 'Pas encore connue',
    delivered: 'Livré. Merci !',
    near: (place: string, km: number) => (km <= 15 ? place : render(msg('place.kmFrom', { km, city: place }), 'fr')),
    at: (place: string, when: string) => `${place}, le ${when}`,
    code: 'Code de remise',
    showCode: 'Montrez ce code au transporteur quand vous recevez le colis.',
    codeLater: 'Le code apparaît quand le transporteur a le colis.',
    qrLabel: 'QR code de remise',
    notFoundTitle: 'Lien introuvable',
    notFound: "Ce lien de colis n'existe pas ou n'est plus valable.",
  },
} as const;

const INTL_LOCALE: Record<Locale, string> = { fr: 'fr-FR', en: 'en-GB' };

const countryName = (code: string, locale: Locale) => {
  try {
    return new Intl.DisplayNames([INTL_LOCALE[locale]], { type: 'region' }).of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
};

/** A city and its country in the reader's language ("Dakar, Sénégal"). */
const placeName = (city: string, country: string, locale: Locale) => `${city}, ${countryName(country, locale)}`;

/** A point as a person reads it: the nearest listed city, and how far when it is not in it. */
function positionPlace(lat: number, lng: number, locale: Locale): string {
  const near = nearestCity(lat, lng);
  if (!near) return TEXT[locale].unknown;
  return TEXT[locale].near(placeName(near.city.name, near.city.countryCode, locale), Math.round(near.distanceKm));
}

/** An instant in words, in UTC and labelled so (the trip has no time zone of its own). */
const dateTime = (iso: string, locale: Locale) =>
  `${new Intl.DateTimeFormat(INTL_LOCALE[locale], { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(new Date(iso))} UTC`;

/** A calendar date (YYYY-MM-DD) in words. */
const dateOnly = (day: string, locale: Locale) => {
  const at = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(at.getTime()) ? day : new Intl.DateTimeFormat(INTL_LOCALE[locale], { dateStyle: 'long', timeZone: 'UTC' }).format(at);
};

function positionText(v: RecipientView, locale: Locale): string {
  const t = TEXT[locale];
  if (v.status === 'DELIVERED') return t.delivered;
  const p = v.lastPosition;
  return p ? t.at(positionPlace(p.lat, p.lng, locale), dateTime(p.recordedAt, locale)) : t.unknown;
}

const htmlResponse = (description: string) => ({ description, content: { 'text/html': { schema: z.string() } } });

const STYLE = `body{font-family:system-ui,sans-serif;margin:0;padding:16px;max-width:480px;margin-inline:auto;color:#1b1b1b}
h1{font-size:1.3rem}dl{display:grid;grid-template-columns:auto 1fr;gap:4px 12px}dt{color:#666}
#delivery-qr svg{width:100%;max-width:320px;height:auto;display:block;margin:auto}.muted{color:#666;font-size:.9rem}`;

interface PageData {
  view: RecipientView;
  departureCountry: string;
  arrivalCountry: string;
}

function page({ view: v, departureCountry, arrivalCountry }: PageData, locale: Locale, nonce: string) {
  const t = TEXT[locale];
  // The SVG comes from uqr (no user input in it); every other value is escaped by `html`.
  return html`<!doctype html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex">
<title>${t.parcel} ${v.reservationNumber}</title>
<style>${raw(STYLE)}</style>
</head>
<body>
<h1>${t.parcel} ${v.reservationNumber}</h1>
<dl>
<dt>${t.status}</dt><dd id="status">${STATUS_LABELS[locale][v.status] ?? v.status}</dd>
<dt>${t.from}</dt><dd id="from">${placeName(v.departureCity, departureCountry, locale)}</dd>
<dt>${t.to}</dt><dd id="to">${placeName(v.arrivalCity, arrivalCountry, locale)}</dd>
<dt>${t.expected}</dt><dd id="expected">${dateOnly(v.arrivalDate, locale)}</dd>
<dt>${t.carrier}</dt><dd>${v.carrierName}</dd>
<dt>${t.position}</dt><dd id="position">${positionText(v, locale)}</dd>
</dl>
<section id="qr-section">
<h2>${t.code}</h2>
<p class="muted" id="qr-help">${v.deliveryQr ? t.showCode : v.status === 'DELIVERED' ? t.delivered : t.codeLater}</p>
<div id="delivery-qr" role="img" aria-label="${t.qrLabel}" data-payload="${v.deliveryQr?.payload ?? ''}" data-expires-at="${v.deliveryQr?.expiresAt ?? ''}">${raw(v.deliveryQr?.svg ?? '')}</div>
</section>
<script nonce="${nonce}">${raw(SCRIPT)}</script>
</body>
</html>`;
}

// Reloads the page itself every few seconds (same address, same language) and swaps in its live
// parts: the texts come readable from the server, and the server hands out a new code well
// before the current one expires. A link that stopped working leaves the page as it is.
const SCRIPT = `(function(){
function swap(doc){
['status','position','qr-help'].forEach(function(id){var from=doc.getElementById(id),to=document.getElementById(id);if(from&&to)to.textContent=from.textContent;});
var next=doc.getElementById('delivery-qr'),box=document.getElementById('delivery-qr');if(!next||!box)return;
if(box.getAttribute('data-payload')!==next.getAttribute('data-payload')){box.innerHTML=next.innerHTML;box.setAttribute('data-payload',next.getAttribute('data-payload')||'');box.setAttribute('data-expires-at',next.getAttribute('data-expires-at')||'');}
}
function tick(){fetch(location.href,{cache:'no-store',credentials:'omit'}).then(function(r){return r.ok?r.text():null}).then(function(t){if(t)swap(new DOMParser().parseFromString(t,'text/html'))}).catch(function(){}).then(function(){setTimeout(tick,3000)});}
setTimeout(tick,3000);
})();`;

const notFoundPage = (locale: Locale) => html`<!doctype html>
<html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${TEXT[locale].notFoundTitle}</title></head>
<body><h1>${TEXT[locale].notFoundTitle}</h1><p>${TEXT[locale].notFound}</p></body></html>`;

/** `?lang=fr|en`, then the browser's Accept-Language, then `fallback` (the recipient's rule). */
function pageLanguage(c: Context<AppEnv>, fallback: Locale): Locale {
  const lang = c.req.query('lang');
  if (lang === 'fr' || lang === 'en') return lang;
  return preferredLocale(c.req.header('Accept-Language'), fallback);
}

export const recipientPageRouter = createRouter().openapi(
  createRoute({
    method: 'get',
    operationId: 'recipientPage',
    path: '/r/{recipientToken}',
    tags: ['Handover'],
    summary: "Recipient's page (HTML, no account): parcel status, where it is, delivery QR",
    description:
      "In the recipient's language (that of their SMS: the arrival country's, else the sender's); `lang` then Accept-Language override it. " +
      'Places by name, times in words (UTC); no position once delivered; 404 for an unknown link and 30 days after the reservation finishes.',
    security: [],
    // Any path segment is accepted: a browser gets the 404 page, never a JSON validation error.
    request: {
      params: z.object({ recipientToken: z.string().openapi({ param: { name: 'recipientToken', in: 'path' } }) }),
      query: z.object({ lang: z.string().optional().openapi({ param: { name: 'lang', in: 'query' }, description: 'fr or en (anything else is ignored)' }) }),
    },
    responses: { 200: htmlResponse('The recipient page'), 404: htmlResponse('Unknown, revoked or expired link') },
  }),
  async (c) => {
    const token = c.req.valid('param').recipientToken;
    const data = RecipientTokenParams.safeParse({ recipientToken: token }).success ? await recipientPageData(c.get('deps'), token) : null;
    c.header('Cache-Control', 'no-store');
    if (!data) return c.html(notFoundPage(pageLanguage(c, 'fr')), 404);
    const locale = pageLanguage(c, recipientLocale(data.arrivalCountry, data.senderLocale));
    c.header('Content-Language', locale);
    return c.html(page(data, locale, cspNonce(c)), 200);
  },
);
