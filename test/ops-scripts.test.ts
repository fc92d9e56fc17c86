// The operations scripts' rules (issue 33): what `npm run deploy:check` refuses
// (scripts/lib/deploy-rules.mjs) and the order that lets a `wrangler d1 export` file load into an
// empty database (scripts/lib/d1-dump-order.mjs, used by `npm run backup:drill` and docs/OPERATIONS.md).
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { importOrder } from '../scripts/lib/d1-dump-order.mjs';
import { appLinkProblems, bundleProblems, firesInRetentionSlot, legalIdentityProblems, placeholderProblems, RETENTION_SLOT, retentionProblems, stagingProblems } from '../scripts/lib/deploy-rules.mjs';
import { cronTriggers } from '../scripts/lib/local-cron.mjs';
import { isRetentionSlot } from '../src/features/privacy/privacy.jobs';
import wranglerToml from '../wrangler.toml?raw';

// The repository's samples, as wrangler.toml ships them.
const SAMPLE_APP_LINKS = {
  APPLE_APP_IDS: 'ABCDE12345.com.example.parcel',
  ANDROID_APP_PACKAGE: 'com.example.parcel',
  ANDROID_CERT_FINGERPRINTS: '00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF',
};
const REAL_APP_LINKS = {
  APPLE_APP_IDS: 'Q7XK29LMPA.fr.colis.app',
  ANDROID_APP_PACKAGE: 'fr.colis.app',
  ANDROID_CERT_FINGERPRINTS: '14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5',
};
const SAMPLE_LEGAL = {
  PLATFORM_LEGAL_NAME: 'Parcel Marketplace SAS (development)',
  PLATFORM_LEGAL_ADDRESS: "1 rue de l'Exemple, 75001 Paris, France",
  PLATFORM_VAT_NUMBER: 'FR00000000000',
  PLATFORM_COMPANY_REGISTRATION: 'RCS Paris 000 000 000',
};
const REAL_LEGAL = {
  PLATFORM_LEGAL_NAME: 'Colis Partagés SAS',
  PLATFORM_LEGAL_ADDRESS: '12 rue des Colis, 75011 Paris, France',
  PLATFORM_VAT_NUMBER: 'FR40303265045',
  PLATFORM_COMPANY_REGISTRATION: 'RCS Paris 303 265 045',
};

describe('deploy:check refuses placeholder app-link identifiers', () => {
  it("refuses each of the repository's samples, naming the variable and what to set", () => {
    expect(appLinkProblems(SAMPLE_APP_LINKS)).toEqual([
      `APPLE_APP_IDS "ABCDE12345.com.example.parcel" is the repository's placeholder: set the iOS app's team id and bundle id`,
      `ANDROID_APP_PACKAGE "com.example.parcel" is the repository's placeholder: set the Android app's package name`,
      `ANDROID_CERT_FINGERPRINTS "${SAMPLE_APP_LINKS.ANDROID_CERT_FINGERPRINTS}" is a placeholder: set the signing certificate's SHA-256 fingerprint`,
    ]);
  });

  it('wrangler.toml still ships the samples in [env.production] (an operator must replace them)', () => {
    const production = wranglerToml.slice(wranglerToml.indexOf('[env.production.vars]'));
    for (const [name, value] of Object.entries(SAMPLE_APP_LINKS)) expect(production).toContain(`${name} = "${value}"`);
  });

  it('refuses missing, malformed and uniform values; accepts real ones', () => {
    expect(appLinkProblems({})).toHaveLength(3);
    expect(appLinkProblems({ ...REAL_APP_LINKS, APPLE_APP_IDS: 'fr.colis.app' })).toEqual(['APPLE_APP_IDS "fr.colis.app" is not "<10-character team id>.<bundle id>"']);
    expect(appLinkProblems({ ...REAL_APP_LINKS, ANDROID_CERT_FINGERPRINTS: 'AB:CD' })[0]).toMatch(/^ANDROID_CERT_FINGERPRINTS "AB:CD" is not a SHA-256 fingerprint/);
    expect(appLinkProblems({ ...REAL_APP_LINKS, ANDROID_CERT_FINGERPRINTS: Array(32).fill('00').join(':') })[0]).toMatch(/is a placeholder/);
    expect(appLinkProblems({ ...REAL_APP_LINKS, ANDROID_APP_PACKAGE: 'fr.colis app' })).toEqual(['ANDROID_APP_PACKAGE "fr.colis app" is not a package name']);
    expect(appLinkProblems(REAL_APP_LINKS)).toEqual([]);
    // Several ids and fingerprints, comma-separated, lower-case hex accepted.
    expect(appLinkProblems({ ...REAL_APP_LINKS, APPLE_APP_IDS: 'Q7XK29LMPA.fr.colis.app, Q7XK29LMPA.fr.colis.pro', ANDROID_CERT_FINGERPRINTS: `${REAL_APP_LINKS.ANDROID_CERT_FINGERPRINTS.toLowerCase()},${REAL_APP_LINKS.ANDROID_CERT_FINGERPRINTS}` })).toEqual([]);
  });
});

describe('deploy:check refuses a missing legal identity (invoices)', () => {
  it('refuses every missing detail', () => {
    expect(legalIdentityProblems({})).toEqual([
      "PLATFORM_LEGAL_NAME is missing: invoices must name their issuer (the company's legal details)",
      "PLATFORM_LEGAL_ADDRESS is missing: invoices must name their issuer (the company's legal details)",
      "PLATFORM_VAT_NUMBER is missing: invoices must name their issuer (the company's legal details)",
      "PLATFORM_COMPANY_REGISTRATION is missing: invoices must name their issuer (the company's legal details)",
    ]);
    expect(legalIdentityProblems({ ...REAL_LEGAL, PLATFORM_LEGAL_ADDRESS: '   ' })).toEqual([
      "PLATFORM_LEGAL_ADDRESS is missing: invoices must name their issuer (the company's legal details)",
    ]);
  });

  it('refuses the samples and a VAT number of no known shape; accepts a real identity', () => {
    expect(legalIdentityProblems(SAMPLE_LEGAL)).toEqual(
      Object.entries(SAMPLE_LEGAL).map(([name, value]) => `${name} = "${value}" is a sample: set the company's own (printed on every invoice)`),
    );
    expect(legalIdentityProblems({ ...REAL_LEGAL, PLATFORM_VAT_NUMBER: '40303265045' })).toEqual([
      'PLATFORM_VAT_NUMBER "40303265045" is not a VAT identification number (country prefix and 2 to 13 characters, e.g. FR12345678901)',
    ]);
    expect(legalIdentityProblems(REAL_LEGAL)).toEqual([]);
    expect(legalIdentityProblems({ ...REAL_LEGAL, PLATFORM_VAT_NUMBER: 'FR 40 303 265 045' })).toEqual([]);
  });
});

describe('deploy:check refuses a schedule without the daily retention run', () => {
  it("its slot is the retention job's own (isRetentionSlot)", () => {
    for (let minute = 0; minute < 60 * 24; minute++) {
      const at = new Date(Date.UTC(2026, 10, 27, 0, minute));
      const inSlot = at.getUTCHours() === RETENTION_SLOT.hour && RETENTION_SLOT.minutes.includes(at.getUTCMinutes());
      expect(isRetentionSlot(at), at.toISOString()).toBe(inSlot);
    }
  });

  it("accepts wrangler.toml's schedule and the daily ones that reach the slot", () => {
    expect(retentionProblems(cronTriggers(wranglerToml))).toEqual([]);
    for (const cron of ['*/5 * * * *', '* * * * *', '0 3 * * *', '2 */3 * * *', '0-10/5 1-4 * * *', '0,30 * * * *']) expect(firesInRetentionSlot(cron), cron).toBe(true);
  });

  it('refuses no cron, one outside the slot, and one that does not run every day', () => {
    for (const cron of ['*/5 4-23 * * *', '5 3 * * *', '6-59/7 * * * *', '0 3 * * 1', '0 3 1 * *', '0 2 * * *', 'nonsense']) expect(firesInRetentionSlot(cron), cron).toBe(false);
    expect(retentionProblems([])).toEqual([
      'no cron of [env.production] fires every day between 03:00 and 03:04 UTC (crons: []): the retention job (CONTRACT section 24, docs/PRIVACY.md) would never run; keep "*/5 * * * *" in [triggers]',
    ]);
    expect(retentionProblems(undefined)).toHaveLength(1);
  });
});

describe('deploy:check refuses an unminified bundle', () => {
  const readable = Array.from({ length: 400 }, (_, i) => `function handler${i}(request) {\n  const url = new URL(request.url);\n  return url.pathname;\n}\n`).join('');
  const minified = `${Array.from({ length: 400 }, (_, i) => `function h${i}(r){const u=new URL(r.url);return u.pathname}`).join(';')}\n`.repeat(4);

  it('refuses code laid out for reading, saying how it measured', () => {
    expect(bundleProblems(readable)).toEqual([expect.stringMatching(/^the bundle is not minified \(\d+\.\d lines a KiB, 50% of them indented\): deploy with minify = true in \[env\.production\]$/)]);
  });

  it('accepts minified code', () => {
    expect(bundleProblems(minified)).toEqual([]);
  });
});

describe('a wrangler d1 export loads into an empty database once reordered', () => {
  // As the export writes them: the child table and its row before the parent table, which a later
  // migration re-created (cloudflare/workers-sdk#5683).
  const exported = [
    'PRAGMA defer_foreign_keys=TRUE',
    'CREATE TABLE drill_child (id INTEGER PRIMARY KEY AUTOINCREMENT, parent_id INTEGER NOT NULL REFERENCES drill_parent(id))',
    'INSERT INTO "drill_child" ("id","parent_id") VALUES(1,7)',
    'CREATE TABLE drill_parent (id INTEGER PRIMARY KEY AUTOINCREMENT, note TEXT)',
    `INSERT INTO "drill_parent" ("id","note") VALUES(7,'a; b')`,
    'DELETE FROM sqlite_sequence',
    `INSERT INTO "sqlite_sequence" ("name","seq") VALUES('drill_parent',7)`,
    'CREATE INDEX drill_child_parent_idx ON drill_child (parent_id)',
  ];

  it('puts PRAGMAs, then every table, then the rows, then sequences and indexes', () => {
    expect(importOrder([...exported, '  '])).toEqual([
      'PRAGMA defer_foreign_keys=TRUE;',
      `${exported[1]};`,
      `${exported[3]};`,
      `${exported[2]};`,
      `${exported[4]};`,
      `${exported[5]};`,
      `${exported[6]};`,
      `${exported[7]};`,
    ]);
  });

  it('D1 refuses the export as written and loads the reordered statements with every row', async () => {
    const run = async (statements: string[]) => {
      for (const sql of statements) await env.DB.prepare(sql).run();
    };
    await expect(run(exported.slice(0, 3))).rejects.toThrow(/no such table: main\.drill_parent/);
    await env.DB.prepare('DROP TABLE IF EXISTS drill_child').run();
    await env.DB.batch(importOrder(exported).map((sql) => env.DB.prepare(sql)));
    const rows = await env.DB.prepare('SELECT c.id, p.note FROM drill_child c JOIN drill_parent p ON p.id = c.parent_id').all();
    expect(rows.results).toEqual([{ id: 1, note: 'a; b' }]);
    expect(await env.DB.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'drill_parent'").first('seq')).toBe(7);
  });
});

describe('deploy:check refuses placeholders, not only warns (CONTRACT section 27)', () => {
  it('all-zero or empty resource ids, example.com vars and routes are refused; real ones pass', () => {
    expect(
      placeholderProblems({
        resources: [
          { name: 'DB', kind: 'D1 database', id: '00000000-0000-0000-0000-000000000000' },
          { name: 'KV', kind: 'KV namespace', id: '' },
          { name: 'UPLOADS', kind: 'R2 bucket', id: 'colis-uploads' },
        ],
        vars: { PUBLIC_BASE_URL: 'https://api.example.com', CORS_ORIGINS: 'https://app.colis.fr' },
        routes: [{ pattern: 'api.example.com' }],
      }),
    ).toEqual([
      'DB: the D1 database id "00000000-0000-0000-0000-000000000000" is a placeholder: create it and put its id in [env.production] (docs/DEPLOY.md, step 2)',
      'KV: the KV namespace id "" is a placeholder: create it and put its id in [env.production] (docs/DEPLOY.md, step 2)',
      'var PUBLIC_BASE_URL = "https://api.example.com" is a placeholder (example.com): set your own',
      'route "api.example.com" is a placeholder (example.com): set your API\'s domain (docs/DEPLOY.md, step 3)',
    ]);
    expect(
      placeholderProblems({
        resources: [{ name: 'DB', kind: 'D1 database', id: '3f2b9c1e-7d4a-4e8b-9a51-0c6d2e8f1a7b' }],
        vars: { PUBLIC_BASE_URL: 'https://api.colis.fr' },
        routes: ['api.colis.fr'],
      }),
    ).toEqual([]);
  });

  it('staging takes test money on resources of its own: XOF, a live pawaPay, production\'s address or a shared resource are refused', () => {
    const production = {
      vars: { PUBLIC_BASE_URL: 'https://api.colis.fr' },
      resources: [
        { name: 'DB', kind: 'D1 database', id: 'colis' },
        { name: 'UPLOADS', kind: 'R2 bucket', id: 'colis-uploads' },
        { name: 'queue', kind: 'queue', id: 'deliveries' },
        { name: 'CONVERSATION', kind: 'Durable Object', id: 'Conversation' },
      ],
    };
    const staging = {
      vars: { PUBLIC_BASE_URL: 'https://staging.colis.fr', CURRENCIES: 'EUR,XAF', PAWAPAY_ENVIRONMENT: 'sandbox' },
      resources: [
        { name: 'DB', kind: 'D1 database', id: 'colis-staging' },
        { name: 'UPLOADS', kind: 'R2 bucket', id: 'colis-staging-uploads' },
        { name: 'queue', kind: 'queue', id: 'deliveries-staging' },
        { name: 'CONVERSATION', kind: 'Durable Object', id: 'Conversation' },
      ],
    };
    expect(stagingProblems(staging, production)).toEqual([]);
    expect(
      stagingProblems(
        {
          vars: { PUBLIC_BASE_URL: 'https://api.colis.fr', CURRENCIES: 'EUR,XOF', PAWAPAY_ENVIRONMENT: 'production' },
          resources: [...staging.resources.slice(1), { name: 'DB', kind: 'D1 database', id: 'colis' }, { name: 'queue', kind: 'queue', id: 'deliveries' }],
        },
        production,
      ),
    ).toEqual([
      '[env.staging.vars] CURRENCIES must be set without XOF (Wave, its provider, has no test mode)',
      '[env.staging.vars] PAWAPAY_ENVIRONMENT must be "sandbox" (test money only)',
      "[env.staging.vars] PUBLIC_BASE_URL is production's: links would send people to production",
      'DB: staging uses production\'s D1 database "colis": give it its own',
      'queue: staging uses production\'s queue "deliveries": give it its own',
    ]);
    // The repository's own [env.staging] passes it (CI runs deploy:check --env staging on the template).
    expect(wranglerToml).toMatch(/^\[env\.staging\.vars\][\s\S]*?ENVIRONMENT = "staging"[\s\S]*?CURRENCIES = "EUR,XAF"/m);
  });

  it("the sample company name of wrangler.toml's [env.production.vars] is refused", () => {
    expect(legalIdentityProblems({ ...REAL_LEGAL, PLATFORM_LEGAL_NAME: 'Parcel Marketplace SAS' })).toEqual([
      'PLATFORM_LEGAL_NAME = "Parcel Marketplace SAS" is a sample: set the company\'s own (printed on every invoice)',
    ]);
    expect(wranglerToml).toMatch(/^\[env\.production\.vars\][\s\S]*?PLATFORM_LEGAL_NAME = "Parcel Marketplace SAS"/m);
  });
});
