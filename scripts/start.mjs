// `npm start`: local secrets from the example, D1 migrations, wrangler dev on 127.0.0.1:$PORT
// (8787 by default; links follow the port), then the idempotent development seed, the demo
// accounts and the sandbox providers printed.
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, copyFileSync, existsSync, readFileSync } from 'node:fs';
import { cronPeriodMs, cronTriggers, scheduledUrl } from './lib/local-cron.mjs';
import { localServer } from './lib/local-server.mjs';

const { base: BASE, devArgs } = localServer(process.env.PORT || undefined);
const WRANGLER = 'node_modules/.bin/wrangler';
const wrangler = (args) => spawn(WRANGLER, args, { stdio: 'inherit' });

if (!existsSync('.dev.vars')) {
  copyFileSync('.dev.vars.example', '.dev.vars');
  console.log('Created .dev.vars from .dev.vars.example (sandbox providers, development keys).');
} else {
  // A .dev.vars made before a new secret was introduced gets that secret's example value, so an
  // older checkout keeps starting (the values already there are never touched).
  const names = (text) => new Set([...text.matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]));
  const have = names(readFileSync('.dev.vars', 'utf8'));
  const missing = readFileSync('.dev.vars.example', 'utf8')
    .split('\n')
    .filter((line) => /^[A-Z][A-Z0-9_]*=/.test(line) && !have.has(line.split('=')[0]));
  if (missing.length) {
    appendFileSync('.dev.vars', `\n# Added from .dev.vars.example by npm start\n${missing.join('\n')}\n`);
    console.log(`Added to .dev.vars from the example: ${missing.map((l) => l.split('=')[0]).join(', ')}.`);
  }
}

const migrate = spawnSync(WRANGLER, ['d1', 'migrations', 'apply', 'DB', '--local'], {
  stdio: ['ignore', 'inherit', 'inherit'],
  env: { ...process.env, CI: 'true' },
});
if (migrate.status !== 0) process.exit(migrate.status ?? 1);

const server = wrangler(devArgs);
const stop = (signal) => {
  server.kill(signal);
};
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
server.on('exit', (code) => process.exit(code ?? 0));

/** The health report once the service answers 200, or null. */
async function waitForHealth(deadline) {
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`${BASE}/v1/api/health`);
      if (res.ok) return await res.json();
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  return null;
}

const health = await waitForHealth(Date.now() + 90_000);
if (!health) {
  console.error('The API did not become healthy within 90 s.');
  stop('SIGTERM');
} else {
  const res = await fetch(`${BASE}/v1/api/dev/seed`, { method: 'POST' });
  const seed = await res.json();
  if (!res.ok) {
    console.error('Seeding failed:', JSON.stringify(seed));
  } else {
    console.log('\nDemo accounts (password: %s):', seed.password);
    for (const a of seed.accounts) console.log(`  ${a.email.padEnd(24)} ${a.roles.join(', ')}`);
    console.log(`\nAPI:        ${BASE}/v1/api/health`);
    console.log(`Reference:  ${BASE}/v1/api/docs`);
    console.log(`Console:    ${BASE}/console (sign in as superadmin@demo.local)`);
    printProviders(health.providers ?? {});
  }
  runCrons();
}

/** Which providers are the local sandboxes, and where a person tries them. */
function printProviders(providers) {
  const mode = (name) => (providers[name] === 'SANDBOX' ? 'sandbox' : 'real');
  console.log(`\nProviders:  payments ${mode('payment')}, KYC ${mode('kyc')}, Google ${mode('googleLogin')}, Apple ${mode('appleLogin')}, e-mail outbox`);
  for (const [name, slug] of [['googleLogin', 'google'], ['appleLogin', 'apple']]) {
    if (providers[name] === 'SANDBOX') console.log(`  Sign in with ${slug} (sandbox): ${BASE}/sandbox/social/${slug}/sign-in`);
  }
  console.log('');
}

/**
 * wrangler dev never fires the cron triggers by itself: run each on its schedule, as production
 * would (unpaid bookings expire, payouts run, card holds are captured before they lapse).
 */
function runCrons() {
  for (const cron of cronTriggers(readFileSync('wrangler.toml', 'utf8'))) {
    const every = cronPeriodMs(cron);
    if (!every) {
      console.log(`Cron "${cron}": not a schedule npm start can run; fire it by hand: curl "${scheduledUrl(BASE, cron)}"`);
      continue;
    }
    const fire = () =>
      fetch(scheduledUrl(BASE, cron)).then(
        (res) => res.ok || console.error(`Cron "${cron}" answered ${res.status}`),
        (err) => console.error(`Cron "${cron}" failed: ${err.message}`),
      );
    setInterval(fire, every).unref();
    console.log(`Cron "${cron}": the scheduled jobs run every ${every / 60_000} min, as in production (expiry, payouts, captures).`);
  }
}
