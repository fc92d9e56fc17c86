#!/usr/bin/env node
// `npm run backup:nightly -- --env production`: the nightly backup (docs/OPERATIONS.md section 2),
// run by .github/workflows/backup.yml (or any scheduler with Node 22). Three steps, each named in the
// log, the job failing (exit 1) at the first error so the scheduler's failure notice pages someone:
//   1. `wrangler d1 export` of the environment's database, gzipped;
//   2. that file into the backups bucket of the account (R2) and into the second location outside
//      it (any S3-compatible store), under d1/;
//   3. the uploads bucket mirrored into the second location under uploads/ (R2 read through its S3
//      API): new and changed objects copied, erased ones deleted (kept 30 days by the store's versioning).
// Settings (environment variables; missing ones are named and nothing runs):
//   CLOUDFLARE_API_TOKEN, CLOUDFLARE_ACCOUNT_ID  wrangler (D1 export, R2 put)
//   R2_ACCESS_KEY_ID, R2_SECRET_ACCESS_KEY       an R2 API token that reads the uploads bucket
//   OFFSITE_S3_ENDPOINT, OFFSITE_S3_BUCKET, OFFSITE_S3_ACCESS_KEY_ID, OFFSITE_S3_SECRET_ACCESS_KEY,
//   OFFSITE_S3_REGION (optional, default auto)   the second location
// Options: --env production|staging (default production); --dry-run (export, and say what would be
// copied and deleted, without writing anywhere); --restore-uploads (the way back, docs/OPERATIONS.md
// "Restoring uploads": the objects of the second location's uploads/ that the uploads bucket lacks
// copied into it, nothing overwritten or deleted, no export; the R2 token must then allow writing).
// `npm run backup:drill` runs steps 3 and --restore-uploads with this same code against local stores.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { unstable_readConfig } from 'wrangler';
import { mirror, restoreMissing, s3Bucket } from './lib/offsite.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const argument = (name) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const ENV = argument('--env') ?? 'production';
const DRY_RUN = process.argv.includes('--dry-run');
const RESTORE_UPLOADS = process.argv.includes('--restore-uploads');
const BACKUPS_BUCKET = `parcel-marketplace${ENV === 'production' ? '' : `-${ENV}`}-backups`;

const REQUIRED = [
  'CLOUDFLARE_API_TOKEN',
  'CLOUDFLARE_ACCOUNT_ID',
  'R2_ACCESS_KEY_ID',
  'R2_SECRET_ACCESS_KEY',
  'OFFSITE_S3_ENDPOINT',
  'OFFSITE_S3_BUCKET',
  'OFFSITE_S3_ACCESS_KEY_ID',
  'OFFSITE_S3_SECRET_ACCESS_KEY',
];
// The way back touches no D1 and no wrangler: no API token needed.
const missing = REQUIRED.filter((name) => !(RESTORE_UPLOADS && name === 'CLOUDFLARE_API_TOKEN') && !process.env[name]?.trim());
if (missing.length) {
  console.error(`backup: not configured, nothing done: missing ${missing.join(', ')}`);
  process.exit(1);
}
if (!['production', 'staging'].includes(ENV)) {
  console.error(`backup: --env ${ENV} is not a deployed environment (production or staging)`);
  process.exit(1);
}

const config = unstable_readConfig({ config: path.join(ROOT, 'wrangler.toml'), env: ENV });
const database = config.d1_databases.find((d) => d.binding === 'DB')?.database_name;
const uploads = config.r2_buckets.find((b) => b.binding === 'UPLOADS')?.bucket_name;
const wrangler = (...args) => execFileSync(path.join(ROOT, 'node_modules/.bin/wrangler'), args, { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, CI: 'true' } });

const offsite = s3Bucket({
  endpoint: process.env.OFFSITE_S3_ENDPOINT,
  bucket: process.env.OFFSITE_S3_BUCKET,
  accessKeyId: process.env.OFFSITE_S3_ACCESS_KEY_ID,
  secretAccessKey: process.env.OFFSITE_S3_SECRET_ACCESS_KEY,
  region: process.env.OFFSITE_S3_REGION || 'auto',
});
const r2Uploads = s3Bucket({
  endpoint: `https://${process.env.CLOUDFLARE_ACCOUNT_ID}.r2.cloudflarestorage.com`,
  bucket: uploads,
  accessKeyId: process.env.R2_ACCESS_KEY_ID,
  secretAccessKey: process.env.R2_SECRET_ACCESS_KEY,
});

if (RESTORE_UPLOADS) {
  try {
    console.log(`uploads restored from ${offsite.label}/uploads/ into ${uploads} (missing objects only)`);
    const done = await restoreMissing(offsite, r2Uploads, { prefix: 'uploads/', dryRun: DRY_RUN });
    console.log(`   ${done.copied} copied, ${done.present} already there${DRY_RUN ? ' (dry run: nothing written)' : ''}`);
  } catch (err) {
    console.error(`restore FAILED: ${err instanceof Error ? err.message : err}`);
    process.exitCode = 1;
  }
  process.exit();
}

const work = mkdtempSync(path.join(tmpdir(), 'backup-'));
try {
  const stamp = new Date().toISOString().replace(/:\d\d\.\d+Z$/, 'Z').replace(/:/g, '');
  const name = `${database}-${stamp}.sql`;
  console.log(`1. D1 export of ${database} (--env ${ENV})`);
  wrangler('d1', 'export', database, '--env', ENV, '--remote', '--output', path.join(work, name));
  if (statSync(path.join(work, name)).size === 0) throw new Error('the export is empty');
  const gz = gzipSync(readFileSync(path.join(work, name)), { level: 9 });
  writeFileSync(path.join(work, `${name}.gz`), gz);
  console.log(`   ${name}.gz: ${(gz.length / 1024).toFixed(0)} KiB`);

  console.log(`2. the export into R2 ${BACKUPS_BUCKET} and ${offsite.label}`);
  if (!DRY_RUN) {
    wrangler('r2', 'object', 'put', `${BACKUPS_BUCKET}/d1/${name}.gz`, '--file', path.join(work, `${name}.gz`), '--remote', '--content-type', 'application/gzip');
    await offsite.put(`d1/${name}.gz`, gz, 'application/gzip');
  }

  console.log(`3. uploads (${uploads}) mirrored into ${offsite.label}/uploads/`);
  const done = await mirror(r2Uploads, offsite, { prefix: 'uploads/', dryRun: DRY_RUN });
  console.log(`   ${done.copied} copied, ${done.deleted} deleted, ${done.unchanged} unchanged${DRY_RUN ? ' (dry run: nothing written)' : ''}`);
  console.log('backup: done');
} catch (err) {
  console.error(`backup FAILED: ${err instanceof Error ? err.message : err}`);
  process.exitCode = 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
