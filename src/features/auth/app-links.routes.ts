// Universal links (iOS) and app links (Android): the files that let the phone open the app for the
// links the e-mails carry (/verify-email, /reset-password, /r/...), built from configuration
// (APPLE_APP_IDS, ANDROID_APP_PACKAGE, ANDROID_CERT_FINGERPRINTS in wrangler.toml).
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { html } from 'hono/html';
import type { Locale } from '../../db/schema';
import { createRouter, type AppEnv } from '../../env';
import { htmlPage, htmlResponse } from '../../lib/html-page';
import { preferredLocale } from '../../lib/locale';
import { APP_SECTIONS, type AppSection } from '../deliveries/templates/item-link';

const TAGS = ['Account pages'];

/** The paths the app handles: every link a message carries (`/app/*`: the item links of notifications). */
export const APP_LINK_PATHS = ['/verify-email', '/reset-password', '/r/*', '/app/*'];

const list = (csv: string | undefined) =>
  (csv ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

const AppleAssociation = z
  .object({
    applinks: z.object({
      details: z.array(z.object({ appIDs: z.array(z.string()), components: z.array(z.object({ '/': z.string() })) })),
    }),
  })
  .openapi('AppleAppSiteAssociation');

const AssetLinks = z
  .array(
    z.object({
      relation: z.array(z.string()),
      target: z.object({ namespace: z.literal('android_app'), package_name: z.string(), sha256_cert_fingerprints: z.array(z.string()) }),
    }),
  )
  .openapi('AndroidAssetLinks');

// The web fallback of an item link (`/app/bookings/42`): the phone opens the app for these paths
// when it is installed (the files above); anywhere else this page says what the link is and how
// to reach it. The API has no web client, so it names the item and the place in the app.
const SECTION_NAMES: Record<AppSection, Record<Locale, string>> = {
  bookings: { fr: 'Votre réservation', en: 'Your booking' },
  conversations: { fr: 'Votre conversation', en: 'Your conversation' },
  disputes: { fr: 'Votre litige', en: 'Your dispute' },
  'agency-invitations': { fr: "Votre invitation d'agence", en: 'Your agency invitation' },
  withdrawals: { fr: 'Votre retrait', en: 'Your withdrawal' },
  annonces: { fr: 'Un trajet', en: 'A trip' },
  reports: { fr: 'Votre signalement', en: 'Your report' },
  agencies: { fr: 'Votre agence', en: 'Your agency' },
  kyc: { fr: "Votre vérification d'identité", en: 'Your identity verification' },
  wallet: { fr: 'Votre portefeuille', en: 'Your wallet' },
  notifications: { fr: 'Vos notifications', en: 'Your notifications' },
  offers: { fr: 'Votre offre', en: 'Your offer' },
};

const FALLBACK_TEXT: Record<Locale, { open: string; install: string; notFound: string; title404: string }> = {
  fr: {
    open: "Ce lien s'ouvre dans l'application Parcel Marketplace. Ouvrez-le sur le téléphone où l'application est installée et où vous êtes connecté.",
    install: "Pas encore l'application ? Installez-la depuis l'App Store ou Google Play, connectez-vous, puis ouvrez à nouveau ce lien.",
    notFound: "Ce lien ne correspond à rien dans l'application.",
    title404: 'Lien inconnu',
  },
  en: {
    open: 'This link opens in the Parcel Marketplace app. Open it on the phone where the app is installed and you are signed in.',
    install: 'No app yet? Install it from the App Store or Google Play, sign in, then open this link again.',
    notFound: 'This link does not lead anywhere in the app.',
    title404: 'Unknown link',
  },
};

// Any path segment is accepted: a browser gets the 404 page, never a JSON validation error.
const SectionParam = z.string().openapi({ param: { name: 'section', in: 'path' }, description: `One of ${APP_SECTIONS.join(', ')}` });
const ItemParam = z.string().openapi({ param: { name: 'id', in: 'path' }, description: 'The item id (letters, digits, _ and -, at most 64)' });

function fallbackPage(c: Context<AppEnv>, section: string, id?: string) {
  const locale = preferredLocale(c.req.header('Accept-Language'), 'fr');
  const t = FALLBACK_TEXT[locale];
  c.header('Cache-Control', 'public, max-age=300');
  c.header('Referrer-Policy', 'no-referrer');
  const known = (APP_SECTIONS as readonly string[]).includes(section) && (id === undefined || /^[A-Za-z0-9_-]{1,64}$/.test(id));
  if (!known) return c.html(htmlPage(t.title404, html`<p>${t.notFound}</p>`, '', locale), 404);
  const name = SECTION_NAMES[section as AppSection][locale];
  const title = id ? `${name} · ${id}` : name;
  return c.html(htmlPage(title, html`<p id="open">${t.open}</p><p>${t.install}</p>`, '', locale), 200);
}

const fallbackResponses = { 200: htmlResponse('What the link is and how to open it in the app'), 404: htmlResponse('A link to nothing the app knows') };

export const appLinksRouter = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'appSectionLinkPage',
      path: '/app/{section}',
      tags: TAGS,
      summary: 'Web fallback of an item link that names a section of the app (HTML; the app opens the link when installed)',
      description: 'The page a browser shows for a link into a section of the app (/app/wallet, /app/notifications...) on a device without the app; with the app installed the phone opens the app instead. Known sections get a page saying what the link is and how to open it (French or English by Accept-Language, cached 5 minutes); any other section an HTML 404 page, never a JSON error.',
      security: [],
      request: { params: z.object({ section: SectionParam }) },
      responses: fallbackResponses,
    }),
    (c) => fallbackPage(c, c.req.valid('param').section),
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'appItemLinkPage',
      path: '/app/{section}/{id}',
      tags: TAGS,
      summary: "Web fallback of a notification's item link, e.g. /app/bookings/42 (HTML; the app opens the link when installed)",
      description: 'The page a browser shows for a notification\'s item link (/app/bookings/42) on a device without the app; with the app installed the phone opens the app instead. A known section with an id of letters, digits, _ and - (at most 64) gets a page naming the item and how to open it in the app (French or English, cached 5 minutes); anything else an HTML 404 page.',
      security: [],
      request: { params: z.object({ section: SectionParam, id: ItemParam }) },
      responses: fallbackResponses,
    }),
    (c) => fallbackPage(c, c.req.valid('param').section, c.req.valid('param').id),
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'appleAppSiteAssociation',
      path: '/.well-known/apple-app-site-association',
      tags: TAGS,
      summary: 'iOS universal links: the app ids that open the e-mail links',
      description: 'The association file iOS reads to open the e-mail and notification links (/verify-email, /reset-password, /r/*, /app/*) in the app: one entry with the app ids of APPLE_APP_IDS, or no entry when none is configured. Public JSON, cached one hour.',
      security: [],
      responses: { 200: { description: 'The association file', content: { 'application/json': { schema: AppleAssociation } } } },
    }),
    (c) => {
      c.header('Cache-Control', 'public, max-age=3600');
      const appIDs = list(c.env.APPLE_APP_IDS);
      return c.json({ applinks: { details: appIDs.length ? [{ appIDs, components: APP_LINK_PATHS.map((path) => ({ '/': path })) }] : [] } }, 200);
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'androidAssetLinks',
      path: '/.well-known/assetlinks.json',
      tags: TAGS,
      summary: 'Android app links: the app package and signing certificates that open the e-mail links',
      description: 'The Digital Asset Links statement Android reads to open the same links in the app: the package of ANDROID_APP_PACKAGE with the certificate fingerprints of ANDROID_CERT_FINGERPRINTS, or an empty list while either is unset. Public JSON, cached one hour.',
      security: [],
      responses: { 200: { description: 'The Digital Asset Links statement list', content: { 'application/json': { schema: AssetLinks } } } },
    }),
    (c) => {
      c.header('Cache-Control', 'public, max-age=3600');
      const packageName = c.env.ANDROID_APP_PACKAGE?.trim();
      const fingerprints = list(c.env.ANDROID_CERT_FINGERPRINTS);
      const statements = packageName && fingerprints.length
        ? [{ relation: ['delegate_permission/common.handle_all_urls'], target: { namespace: 'android_app' as const, package_name: packageName, sha256_cert_fingerprints: fingerprints } }]
        : [];
      return c.json(statements, 200);
    },
  );
