// `npm run test:browser`: the recipient page and the API reference in headless Chromium against a
// real local service.
// Starts wrangler dev on a free loopback port with its own throw-away state (QR lifetime shortened
// to 20 s so the refresh is seen quickly), seeds the demo data, opens /r/<demo token>, checks the QR
// image and that it is replaced by a new one before the old expires, keeps a screenshot in
// test-artifacts/, and stops only the process group it started, by PID.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

const DEMO_RECIPIENT_TOKEN = 'demo-recipient-token-0123456789abcdef0123456789abcdef';
const QR_TTL_SECONDS = 20;
const WRANGLER = 'node_modules/.bin/wrangler';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARTIFACTS = 'test-artifacts';
const started = Date.now();

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

async function waitForHealth(base, deadline) {
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${base}/v1/api/health`)).ok) return true;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  return false;
}

function check(condition, message) {
  if (!condition) throw new Error(`browser test failed: ${message}`);
  console.log(`  ok - ${message}`);
}

if (!existsSync(CHROMIUM)) {
  console.error(`Chromium not found at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH).`);
  process.exit(2);
}

mkdirSync(ARTIFACTS, { recursive: true });
const state = mkdtempSync(path.join(tmpdir(), 'browser-test-state-'));
const envFile = existsSync('.dev.vars') ? '.dev.vars' : '.dev.vars.example';
const port = await freePort();
const base = `http://127.0.0.1:${port}`;

const migrate = spawnSync(WRANGLER, ['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', state], {
  stdio: ['ignore', 'ignore', 'inherit'],
  env: { ...process.env, CI: 'true' },
});
if (migrate.status !== 0) {
  rmSync(state, { recursive: true, force: true });
  process.exit(migrate.status ?? 1);
}

// Own process group, so stopping it also stops workerd, and nothing else.
const server = spawn(
  WRANGLER,
  [
    'dev',
    '--ip', '127.0.0.1',
    '--port', String(port),
    '--inspector-port', String(await freePort()),
    '--persist-to', state,
    '--env-file', envFile,
    '--var', `QR_TTL_SECONDS:${QR_TTL_SECONDS}`,
    '--show-interactive-dev-session=false',
  ],
  { detached: true, stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, CI: 'true' } },
);
console.log(`wrangler dev started, pid ${server.pid}, ${base}`);

function stopServer() {
  if (server.exitCode === null && server.pid) {
    try {
      process.kill(-server.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
}
process.on('SIGINT', () => {
  stopServer();
  process.exit(130);
});

let browser;
let failed = false;
try {
  if (!(await waitForHealth(base, Date.now() + 90_000))) throw new Error('service did not become healthy within 90 s');
  const seed = await fetch(`${base}/v1/api/dev/seed`, { method: 'POST' });
  if (!seed.ok) throw new Error(`seed failed: ${seed.status} ${await seed.text()}`);

  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
  const page = await browser.newPage({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 }); // a phone
  const res = await page.goto(`${base}/r/${DEMO_RECIPIENT_TOKEN}`);
  check(res?.status() === 200, 'recipient page answers 200');
  check((await page.textContent('h1'))?.includes('DEMO-HANDOVER-1'), 'page shows the parcel number');
  check((await page.textContent('#status')) === 'With the carrier', 'page shows the status');

  const qr = page.locator('#delivery-qr svg');
  await qr.waitFor({ state: 'visible' });
  const box = await qr.boundingBox();
  check(box !== null && box.width > 150 && box.height > 150, `QR image is visible (${Math.round(box?.width ?? 0)} px wide)`);
  const first = await page.getAttribute('#delivery-qr', 'data-payload');
  const firstExpiry = Date.parse((await page.getAttribute('#delivery-qr', 'data-expires-at')) ?? '');
  const firstSvg = await page.innerHTML('#delivery-qr');
  check(Boolean(first) && firstSvg.includes('<path'), 'QR image carries a payload');
  await page.screenshot({ path: path.join(ARTIFACTS, 'recipient-page-before.png'), fullPage: true });

  // Without reloading: the page's own script must swap in a new code before the old one expires.
  await page.waitForFunction(
    (old) => {
      const el = document.getElementById('delivery-qr');
      return el && el.getAttribute('data-payload') && el.getAttribute('data-payload') !== old;
    },
    first,
    { timeout: (QR_TTL_SECONDS + 10) * 1000, polling: 250 },
  );
  const replacedAt = Date.now();
  const second = await page.getAttribute('#delivery-qr', 'data-payload');
  const secondExpiry = Date.parse((await page.getAttribute('#delivery-qr', 'data-expires-at')) ?? '');
  check(second !== first, 'QR payload was replaced');
  check((await page.innerHTML('#delivery-qr')) !== firstSvg, 'QR image was redrawn');
  check(secondExpiry > firstExpiry, 'new code expires later than the old one');
  check(replacedAt <= firstExpiry + 1000, `replaced before the old code expired (${Math.round((firstExpiry - replacedAt) / 1000)} s left)`);
  await page.screenshot({ path: path.join(ARTIFACTS, 'recipient-page.png'), fullPage: true });
  check(true, `screenshots kept in ${ARTIFACTS}/recipient-page.png and recipient-page-before.png`);

  const missing = await page.goto(`${base}/r/not-a-real-token-000000000000000`);
  check(missing?.status() === 404 && (await page.textContent('h1')) === 'Not found', 'unknown link shows the 404 page');

  // The API reference, offline: every request that is not to the local service is refused.
  const docs = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const foreign = [];
  const violations = [];
  await docs.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.hostname === '127.0.0.1') return route.continue();
    foreign.push(url.href);
    return route.abort();
  });
  docs.on('console', (m) => /Content.Security.Policy/i.test(m.text()) && violations.push(m.text()));
  const docsRes = await docs.goto(`${base}/v1/api/docs`);
  check(docsRes?.status() === 200, 'reference page answers 200');
  await docs.getByText('Log in with email and password').first().waitFor({ timeout: 30_000 });
  check(true, `reference page shows the operations with no network (${foreign.length} foreign requests blocked)`);
  check(violations.length === 0, `no Content-Security-Policy violation on the reference page ${violations.join(' | ')}`);
  await docs.screenshot({ path: path.join(ARTIFACTS, 'api-reference.png') });
} catch (err) {
  failed = true;
  console.error(err instanceof Error ? err.message : err);
} finally {
  await browser?.close();
  stopServer();
  rmSync(state, { recursive: true, force: true });
}
console.log(`browser test ${failed ? 'FAILED' : 'passed'} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(failed ? 1 : 0);
