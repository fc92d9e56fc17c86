#!/usr/bin/env node
// `npm run deploy:check`: what can be checked before `wrangler deploy --env production`, offline and
// without a Cloudflare account. Builds the production bundle (wrangler's dry run) and reports its
// compressed size against the Workers limits; checks wrangler.toml's [env.production] against what
// src/config.ts requires (bindings and vars there, secrets never there); refuses the repository's
// placeholder app-link identifiers and legal identity (the sample company name included), all-zero
// resource ids and example.com domains, a schedule without the daily retention run and a bundle that
// is not minified (scripts/lib/deploy-rules.mjs); lists the secrets to set. Exit 1 on a failure.
//
// Options: --config <wrangler.toml> (another configuration file); --template (the repository's own
// template, as CI checks it: what only an operator's values can lift, app links and legal identity,
// is listed as "refused at deploy" without failing).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { unstable_readConfig } from 'wrangler';
import { appLinkProblems, BUDGET_GZIP_KIB, bundleProblems, LEGAL_IDENTITY, legalIdentityProblems, placeholderProblems, retentionProblems, stagingProblems } from './lib/deploy-rules.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
// The deployable environments: production (live money) and staging (test money, resources of its own).
const DEPLOYABLE = ['production', 'staging'];
const MiB = 1024 * 1024;
const LIMITS = { free: 3 * MiB, paid: 10 * MiB };

const failures = [];
const warnings = [];
const fail = (message) => failures.push(message);
const argument = (name) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const CONFIG = path.resolve(argument('--config') ?? path.join(ROOT, 'wrangler.toml'));
const TEMPLATE = process.argv.includes('--template');
// What the operator's own values lift: refused, except when checking the repository's template.
const deferred = [];
const refuse = (message) => (TEMPLATE ? deferred.push(message) : fail(message));
const warn = (message) => warnings.push(message);
const mib = (bytes) => `${(bytes / MiB).toFixed(2)} MiB`;

// The top-level configuration is local development, with its sandboxes: deploying it would put a
// free "pay" page on the internet. Only production and staging are ever checked or deployed.
const requested = process.argv.includes('--env') ? process.argv[process.argv.indexOf('--env') + 1] : process.env.CLOUDFLARE_ENV;
if (requested !== undefined && !DEPLOYABLE.includes(requested)) {
  console.error(`deploy:check refuses environment "${requested || '(top level)'}": only --env ${DEPLOYABLE.join(' or --env ')} is deployable.`);
  process.exit(1);
}
const ENV = requested ?? 'production';

const work = mkdtempSync(path.join(tmpdir(), 'deploy-check-'));
try {
  // 1. The requirements, from the code itself (config.ts bundled for Node).
  const configModule = path.join(work, 'config.mjs');
  await build({
    entryPoints: [path.join(ROOT, 'src/config.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: configModule,
    logLevel: 'error',
  });
  const { PRODUCTION_REQUIREMENTS, PRODUCTION_SECRETS, PRODUCTION_BINDINGS } = await import(pathToFileURL(configModule).href);
  const secrets = new Set(PRODUCTION_SECRETS);
  const bindings = new Set(PRODUCTION_BINDINGS);
  const vars = PRODUCTION_REQUIREMENTS.filter((name) => !secrets.has(name) && !bindings.has(name));

  // 2. wrangler.toml as wrangler resolves it for the environment (inherited keys included).
  const config = unstable_readConfig({ config: CONFIG, env: ENV });
  if (!config.definedEnvironments?.includes(ENV)) fail(`wrangler.toml has no [env.${ENV}]`);
  if (config.vars.ENVIRONMENT !== ENV) fail(`[env.${ENV}.vars] ENVIRONMENT must be "${ENV}" (is ${JSON.stringify(config.vars.ENVIRONMENT)})`);

  const declared = new Map([
    ...config.d1_databases.map((b) => [b.binding, { kind: 'D1 database', id: b.database_id }]),
    ...config.kv_namespaces.map((b) => [b.binding, { kind: 'KV namespace', id: b.id }]),
    ...config.r2_buckets.map((b) => [b.binding, { kind: 'R2 bucket', id: b.bucket_name }]),
    ...config.durable_objects.bindings.map((b) => [b.name, { kind: 'Durable Object', id: b.class_name }]),
    ...config.ratelimits.map((b) => [b.name, { kind: 'rate limit', id: b.namespace_id }]),
    ...(config.queues.producers ?? []).map((b) => [b.binding, { kind: 'queue producer', id: b.queue }]),
    ...config.send_email.map((b) => [b.name, { kind: 'send_email', id: b.name }]),
    ...(config.analytics_engine_datasets ?? []).map((b) => [b.binding, { kind: 'Analytics Engine dataset', id: b.dataset }]),
  ]);
  for (const name of bindings) {
    if (!declared.has(name)) fail(`binding ${name} is missing from [env.${ENV}] (bindings are not inherited from the top level)`);
  }
  const resources = [...bindings].filter((name) => declared.has(name)).map((name) => ({ name, ...declared.get(name) }));
  const declaredQueues = (c) => [...(c.queues.producers ?? []).map((q) => q.queue), ...(c.queues.consumers ?? []).flatMap((q) => [q.queue, q.dead_letter_queue].filter(Boolean))];
  if (ENV === 'staging') {
    const production = unstable_readConfig({ config: CONFIG, env: 'production' });
    const own = (c) => ({
      vars: c.vars,
      resources: [
        ...c.d1_databases.map((b) => ({ name: b.binding, kind: 'D1 database', id: b.database_name })),
        ...c.d1_databases.map((b) => ({ name: b.binding, kind: 'D1 database id', id: b.database_id })).filter((r) => !/^[0-]+$/.test(r.id ?? '')),
        ...c.kv_namespaces.map((b) => ({ name: b.binding, kind: 'KV namespace', id: b.id })).filter((r) => !/^[0-]+$/.test(r.id ?? '')),
        ...c.r2_buckets.map((b) => ({ name: b.binding, kind: 'R2 bucket', id: b.bucket_name })),
        ...declaredQueues(c).map((q) => ({ name: 'queue', kind: 'queue', id: q })),
        ...c.ratelimits.map((b) => ({ name: b.name, kind: 'rate limit', id: b.namespace_id })),
        ...(c.analytics_engine_datasets ?? []).map((b) => ({ name: b.binding, kind: 'Analytics Engine dataset', id: b.dataset })),
      ],
    });
    for (const problem of stagingProblems(own(config), own(production))) fail(problem);
  }
  for (const name of vars) {
    if (!String(config.vars[name] ?? '').trim()) fail(`var ${name} is missing from [env.${ENV}.vars]`);
  }
  for (const name of secrets) {
    if (name in config.vars) fail(`${name} is a secret: remove it from wrangler.toml and set it with wrangler secret put`);
  }
  if ('SENTRY_DSN' in config.vars) fail('SENTRY_DSN is a secret: remove it from wrangler.toml');

  for (const problem of [...appLinkProblems(config.vars), ...legalIdentityProblems(config.vars)]) refuse(problem);
  for (const problem of retentionProblems(config.triggers?.crons)) fail(problem);
  const ruled = new Set([...LEGAL_IDENTITY, 'APPLE_APP_IDS', 'ANDROID_APP_PACKAGE', 'ANDROID_CERT_FINGERPRINTS']);

  // All-zero resource ids and example.com hosts: refused like the legal identity (CONTRACT section 27).
  const sampleVars = Object.fromEntries(Object.entries(config.vars).filter(([name]) => !ruled.has(name)));
  for (const problem of placeholderProblems({ resources, vars: sampleVars, routes: config.routes ?? [], env: ENV })) refuse(problem);

  if (config.workers_dev !== false) fail(`[env.${ENV}] must set workers_dev = false (served on the custom domain only)`);
  if (!config.routes?.length && !config.route) fail(`[env.${ENV}] has no routes: with workers_dev = false the API would be unreachable`);
  const host = (() => {
    try {
      return new URL(config.vars.PUBLIC_BASE_URL).host;
    } catch {
      return null;
    }
  })();
  const patterns = (config.routes ?? []).map((r) => (typeof r === 'string' ? r : r.pattern).replace(/\/.*$/, ''));
  if (host && patterns.length && !patterns.includes(host)) fail(`PUBLIC_BASE_URL's host ${host} is not among the routes (${patterns.join(', ')}): links would point elsewhere`);
  if (config.upload_source_maps !== true) fail(`[env.${ENV}] must set upload_source_maps = true`);
  if (config.minify !== true) fail(`[env.${ENV}] must set minify = true (the bundle budget is for the minified bundle)`);
  if (config.observability?.enabled !== true) fail('[observability] enabled = true is required (Workers Logs)');
  if (!config.triggers?.crons?.length) fail('[triggers] crons is empty: expiry, payouts and clean-ups would never run');

  // 3. The production bundle, exactly as `wrangler deploy --env production` would upload it.
  const outdir = path.join(work, 'bundle');
  const started = Date.now();
  try {
    execFileSync('npx', ['wrangler', 'deploy', '--dry-run', '--config', CONFIG, '--env', ENV, '--outdir', outdir], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
    });
  } catch (err) {
    process.stderr.write(String(err.stdout ?? ''));
    process.stderr.write(String(err.stderr ?? ''));
    fail(`wrangler deploy --dry-run --env ${ENV} failed (output above)`);
  }
  let bundleLine = 'not built';
  if (!failures.some((f) => f.startsWith('wrangler deploy'))) {
    const script = readFileSync(path.join(outdir, 'index.js'));
    const unminified = bundleProblems(script.toString('utf8'));
    for (const problem of unminified) fail(problem);
    const gzipped = gzipSync(script, { level: 9 }).length;
    const kib = (bytes) => `${(bytes / 1024).toFixed(0)} KiB`;
    bundleLine = `${kib(script.length)} ${unminified.length ? 'NOT minified' : 'minified'}, ${kib(gzipped)} gzip (budget ${BUDGET_GZIP_KIB} KiB gzip; limit ${mib(LIMITS.free)} on Workers Free, ${mib(LIMITS.paid)} on Workers Paid), source maps uploaded, built in ${((Date.now() - started) / 1000).toFixed(1)} s`;
    if (gzipped > BUDGET_GZIP_KIB * 1024) fail(`the deployed bundle (${kib(gzipped)} gzip) is over its ${BUDGET_GZIP_KIB} KiB budget`);
    if (gzipped > LIMITS.paid) fail(`the bundle (${mib(gzipped)} gzip) exceeds the Workers Paid limit`);
    else if (gzipped > LIMITS.free) warn(`the bundle (${mib(gzipped)} gzip) exceeds the Workers Free limit: a paid plan is required`);
  }

  console.log(`deploy:check — worker ${config.name}, environment ${ENV}`);
  console.log(`  bundle: ${bundleLine}`);
  console.log(`  bindings: ${[...bindings].join(', ')}`);
  console.log(`  vars: ${vars.join(', ')}`);
  console.log(`  secrets to set (wrangler cannot list them offline; \`npx wrangler secret list --env ${ENV}\` once logged in):`);
  // Staging takes no Wave key (Wave has no test mode) and test keys only (src/config.ts).
  for (const name of secrets) {
    if (ENV === 'staging' && name.startsWith('WAVE_')) continue;
    const test = ENV === 'staging' && { STRIPE_SECRET_KEY: 'sk_test_...', KYC_PROVIDER_API_KEY: "the provider's test key", TWILIO_ACCOUNT_SID: "Twilio's test credentials", TWILIO_AUTH_TOKEN: "Twilio's test credentials", TWILIO_FROM: '+15005550006' }[name];
    console.log(`    npx wrangler secret put ${name} --env ${ENV}${test ? `   (${test})` : ''}`);
  }
  console.log(`    optional: npx wrangler secret put SENTRY_DSN --env ${ENV}   (error tracking; unset, errors are reported nowhere)`);
  for (const w of warnings) console.log(`  to fill in: ${w}`);
  for (const d of deferred) console.log(`  refused at deploy (template checked): ${d}`);
  for (const f of failures) console.error(`  FAIL: ${f}`);
  const left = [warnings.length && `${warnings.length} placeholder(s) to fill in`, deferred.length && `${deferred.length} value(s) a deploy refuses until set`].filter(Boolean);
  console.log(failures.length ? `deploy:check failed (${failures.length})` : `deploy:check passed${TEMPLATE ? ' (template)' : ''}${left.length ? ` with ${left.join(' and ')}` : ''}`);
  process.exitCode = failures.length ? 1 : 0;
} finally {
  rmSync(work, { recursive: true, force: true });
}
