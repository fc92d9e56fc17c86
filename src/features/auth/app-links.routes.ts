// Universal links (iOS) and app links (Android): the files that let the phone open the app for the
// links the e-mails carry (/verify-email, /reset-password, /r/...), built from configuration
// (APPLE_APP_IDS, ANDROID_APP_PACKAGE, ANDROID_CERT_FINGERPRINTS in wrangler.toml).
import { createRoute, z } from '@hono/zod-openapi';
import { createRouter } from '../../env';

const TAGS = ['Account pages'];

/** The paths the app handles: every link a message carries. */
export const APP_LINK_PATHS = ['/verify-email', '/reset-password', '/r/*'];

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

export const appLinksRouter = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'appleAppSiteAssociation',
      path: '/.well-known/apple-app-site-association',
      tags: TAGS,
      summary: 'iOS universal links: the app ids that open the e-mail links',
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
