// `npm run test:browser`: the pages a person uses, in headless Chromium against a real local service.
// Starts wrangler dev on a free loopback port with its own throw-away state (QR lifetime shortened
// to 20 s so the refresh is seen quickly) and the example's local settings (sandbox providers), seeds
// the demo data, signs in on the sandbox Google page and sends its token to the API, opens
// /dev/outbox and clicks the verification and reset links of a new account's e-mails, opens
// /r/<demo token>, checks the QR image and that it is replaced by a new one before the old expires,
// prints the demo reservation's customs declaration (CN23 PDF, in Chromium's viewer), works the operator console (KYC, dispute, suspension, roles, the retry of a DEAD delivery, each
// checked through the API), opens the API reference with every non-local request blocked, keeps screenshots in test-artifacts/,
// and stops only the process group it started, by PID.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { scheduledUrl } from './lib/local-cron.mjs';

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
// The example, not a developer's .dev.vars: the pages under test are the sandbox providers'.
const envFile = '.dev.vars.example';
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
    '--var', `PUBLIC_BASE_URL:${base}`,
    '--show-interactive-dev-session=false',
    // The watchdog's cron is fired by the Incidents test (wrangler dev's test-scheduled endpoint).
    '--test-scheduled',
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


const DEMO_PASSWORD = 'Demo-password-1';
const shot = (p, name) => p.screenshot({ path: path.join(ARTIFACTS, name), fullPage: true });

async function apiLogin(base, email) {
  const res = await fetch(`${base}/v1/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password: DEMO_PASSWORD }),
  });
  return { status: res.status, body: await res.json() };
}

async function consoleSignIn(page, base, email) {
  await page.goto(`${base}/console`);
  check(page.url() === `${base}/console/login`, 'without a session the console redirects to its sign-in page');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  const [response] = await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Sign in' }).click()]);
  return response;
}

/**
 * Erasing an account from the console (CONTRACT section 24): refused with the reason while the
 * demo carrier has open trips, done for a fresh account (which then cannot sign in); the
 * Métriques page with real figures, in English and in French.
 */
async function erasureAndMetricsTests(browser, page, base, asSuperadmin) {
  await page.goto(`${base}/console/users?q=carrier%40demo.local`);
  await Promise.all([page.waitForNavigation(), page.getByRole('link', { name: /Carla Carrier/ }).click()]);
  const blocker = await page.textContent('#erase-blocker');
  check(Boolean(blocker?.includes('The account cannot be deleted')), `the user page says why the demo carrier cannot be erased yet (${blocker?.trim()})`);
  await page.getByLabel('Type the account’s e-mail address to confirm').fill('carrier@demo.local');
  const [refusedErase] = await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Erase the account' }).click()]);
  check(refusedErase?.status() === 409 && Boolean((await page.textContent('.flash.error'))?.includes('The account cannot be deleted')), 'erasing the demo carrier is refused (409) with the reason on the page');
  await shot(page, 'console-user-erase-refused.png');

  const email = `erase-me-${Date.now()}@example.test`;
  const registered = await fetch(`${base}/v1/api/auth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password: DEMO_PASSWORD, firstName: 'Erin', lastName: 'Erased' }),
  });
  const { user } = await registered.json();
  await page.goto(`${base}/console/users/${user.id}`);
  await page.getByLabel('Type the account’s e-mail address to confirm').fill(email);
  await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Erase the account' }).click()]);
  check((await page.textContent('.flash.ok'))?.includes(`Account ${user.id} erased`), 'erasing a fresh account from the console says so');
  check((await page.textContent('#erase'))?.includes('Personal data erased on'), 'the user page shows the erasure and no more form');
  await shot(page, 'console-user-erased.png');
  const erasedLogin = await fetch(`${base}/v1/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email, password: DEMO_PASSWORD }) });
  check(erasedLogin.status === 401, `the erased account cannot sign in (${erasedLogin.status})`);
  const audited = await asSuperadmin(`superadmin/audit-logs?action=ACCOUNT_DELETED&targetId=${user.id}`);
  check(audited.content?.[0]?.details?.erasedBy === 'SUPERADMIN', 'the audit log records the erasure by the super-admin');

  const metricsPage = await page.goto(`${base}/console/metrics`);
  check(metricsPage?.status() === 200 && (await page.locator('#metrics tbody tr').count()) === 11, 'the Metrics page shows its eleven figures');
  const requests = Number((await page.locator('#metrics tbody tr').first().locator('td').nth(1).textContent())?.replace(/\D/g, ''));
  check(requests > 0, `the Metrics page counts this run's requests (${requests} in the last hour)`);
  await shot(page, 'console-metrics.png');
  const french = await browser.newContext({ viewport: { width: 1366, height: 900 }, locale: 'fr-FR', storageState: await page.context().storageState() });
  const frenchPage = await french.newPage();
  await frenchPage.goto(`${base}/console/metrics`);
  check((await frenchPage.textContent('h1')) === 'Métriques' && (await frenchPage.textContent('#metrics'))?.includes('Dernière heure'), 'the Métriques page is in French for a French browser');
  await shot(frenchPage, 'console-metrics-fr.png');
  await french.close();
}

/**
 * Proof of travel (CONTRACT 21): the demo carrier uploads a ticket (PDF) for an open trip through
 * the API and attaches it; the operator finds it in the console's queue, opens it and approves it;
 * the API then shows the trip travelVerified.
 */
async function travelProofTest(page, base) {
  const carrier = await apiLogin(base, 'carrier@demo.local');
  const auth = { Authorization: `Bearer ${carrier.body.accessToken}` };
  const mine = await (await fetch(`${base}/v1/api/annonces/mine?status=ACTIVE&size=50`, { headers: auth })).json();
  const trip = mine.content?.find((a) => !a.travelVerified);
  check(Boolean(trip), 'the demo carrier has an open trip without proof of travel');
  const form = new FormData();
  form.set('purpose', 'TRAVEL_PROOF');
  form.set('file', new Blob(['%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n'], { type: 'application/pdf' }), 'boarding-pass.pdf');
  const file = await (await fetch(`${base}/v1/api/files`, { method: 'POST', headers: auth, body: form })).json();
  const attached = await fetch(`${base}/v1/api/annonces/${trip.id}/travel-proof`, {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({ fileId: file.id }),
  });
  check(attached.status === 201, `the carrier attaches the boarding pass to trip ${trip.id} (${attached.status})`);

  await page.goto(`${base}/console/travel-proofs`);
  const row = page.locator('tr', { hasText: `${trip.departureCity} → ${trip.arrivalCity} (${trip.departureDate})` }).first();
  check((await row.count()) === 1, 'the proof-of-travel queue lists the pending proof');
  await shot(page, 'console-travel-proofs.png');
  await Promise.all([page.waitForNavigation(), row.getByRole('link', { name: 'Open' }).click()]);
  await shot(page, 'console-travel-proof.png');
  await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Approve' }).click()]);
  check((await page.textContent('.flash.ok'))?.length > 0, 'approving the proof says so');
  const read = await (await fetch(`${base}/v1/api/annonces/${trip.id}`)).json();
  check(read.travelVerified === true, 'the API shows the trip travelVerified once approved');
}

/** The demo sender's disputes, through the API. */
async function senderDisputes(base) {
  const sender = await apiLogin(base, 'sender@demo.local');
  const res = await fetch(`${base}/v1/api/disputes/mine?size=50`, { headers: { Authorization: `Bearer ${sender.body.accessToken}` } });
  return (await res.json()).content ?? [];
}

/**
 * Protection (CONTRACT 21): the seeded protected reservation DEMO-PROTECTED-1, reported LOST, is
 * resolved PROTECTION_PAYOUT with an amount from the console's dispute page; the API then shows
 * the claim paid and the sender's wallet credited with the amount.
 */
async function protectionPayoutTest(page, base) {
  const sender = await apiLogin(base, 'sender@demo.local');
  const api = (p) => fetch(`${base}/v1/api${p}`, { headers: { Authorization: `Bearer ${sender.body.accessToken}` } }).then((r) => r.json());
  const lost = (await senderDisputes(base)).find((d) => d.reason === 'LOST' && d.status === 'OPEN');
  check(Boolean(lost), 'the demo sender has an open LOST dispute (DEMO-PROTECTED-1)');
  const terms = await api(`/bookings/${lost.reservationId}/protection`);
  check(terms.protected === true && terms.coverage > 0 && terms.claim?.status === 'OPEN', `the reservation is protected (coverage ${terms.coverage} ${terms.currency}), its claim open`);
  const balance = async () => (await api(`/user/me/wallet?currency=${terms.currency}`)).balance;
  const before = await balance();
  await page.goto(`${base}/console/disputes/${lost.id}`);
  const option = page.getByLabel('Protection payout (amount) on top of a full refund');
  check((await option.count()) === 1, 'the dispute page offers PROTECTION_PAYOUT for the protected reservation');
  check((await page.textContent('body'))?.includes('Protected parcel, coverage'), "the page shows the reservation's coverage");
  const amount = Math.round(terms.coverage * 0.625 * 100) / 100;
  await option.check();
  await page.getByLabel('Amount', { exact: true }).fill(String(amount));
  await page.getByLabel('Note').fill('Lost in transit: paid by the protection.');
  await shot(page, 'console-dispute-protection.png');
  await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Resolve' }).click()]);
  check((await page.textContent('.flash.ok'))?.includes(`Dispute ${lost.id} resolved`), 'resolving with a protection payout says so');
  check((await page.textContent('#protection-payout'))?.includes(String(amount)), `the resolved dispute shows the protection payout (${await page.textContent('#protection-payout')})`);
  await shot(page, 'console-dispute-protection-resolved.png');
  const claim = (await api(`/bookings/${lost.reservationId}/protection`)).claim;
  check(claim?.resolution === 'PROTECTION_PAYOUT' && claim.payoutAmount === amount, `the API shows the claim paid (${claim?.resolution}, ${claim?.payoutAmount} ${terms.currency})`);
  const after = await balance();
  check(Math.round((after - before) * 100) / 100 === amount, `the sender's wallet got the payout (${before} -> ${after} ${terms.currency})`);
}

/**
 * The watchdog as the operator meets it (CONTRACT 27): eleven forged Wave webhooks, then the
 * 5-minute cron (fired through wrangler dev's test-scheduled endpoint) opens WEBHOOKS_REFUSED; its
 * alerts, to the example's ALERT_* addresses, reach the dev outbox by e-mail, SMS and webhook; the
 * Incidents page shows it open with the three alerts sent; a run six minutes on resolves it, and
 * the page shows it resolved with its resolution alerts, in English and in French.
 */
async function incidentsTest(browser, page, base) {
  for (let i = 0; i < 11; i++) {
    const res = await fetch(`${base}/v1/api/webhooks/wave`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'Wave-Signature': 't=1,v1=forged' }, body: '{"id":"evt_forged"}' });
    if (res.status !== 401) check(false, `a forged Wave webhook is refused (${res.status})`);
  }
  const cron = async (at) => (await fetch(`${scheduledUrl(base, '*/5 * * * *')}&time=${at}`)).status;
  /** The page until `row` (a row of `table` naming the rule) shows `n` alerts sent. */
  const alertsSent = async (table, n) => {
    let sent = 0;
    for (let i = 0; i < 40 && sent < n; i++) {
      if (i) await new Promise((r) => setTimeout(r, 500));
      await page.goto(`${base}/console/incidents`);
      sent = await page.locator(`#${table} tr`, { hasText: 'Webhooks refused' }).locator('[data-code="SENT"]').count();
    }
    return sent;
  };
  const t0 = Date.now();
  check((await cron(t0)) === 200, 'the 5-minute cron runs after eleven forged Wave webhooks (401 each)');
  check((await alertsSent('incidents-open', 3)) === 3, 'the Incidents page shows WEBHOOKS_REFUSED open, its alert sent by e-mail, SMS and webhook');
  check((await page.textContent('#alert-channels'))?.includes('hooks.slack.com'), `the page says where alerts go (${(await page.textContent('#alert-channels'))?.trim()})`);
  await shot(page, 'console-incidents-open.png');
  const outbox = await (await fetch(`${base}/v1/api/dev/outbox?size=50`)).json();
  const alerts = outbox.content.filter((m) => m.template === 'INCIDENT_OPENED').map((m) => m.channel).sort();
  check(alerts.join() === 'EMAIL,SMS,WEBHOOK', `the dev outbox holds one opening alert per channel (${alerts.join(', ')})`);

  check((await cron(t0 + 6 * 60_000)) === 200, 'the cron runs again six minutes on, the refusals out of its window');
  check((await alertsSent('incidents-resolved', 6)) === 6, 'the Incidents page shows it resolved, with its opening and resolution alerts sent');
  await shot(page, 'console-incidents.png');
  const french = await browser.newContext({ viewport: { width: 1366, height: 900 }, locale: 'fr-FR', storageState: await page.context().storageState() });
  const frenchPage = await french.newPage();
  await frenchPage.goto(`${base}/console/incidents`);
  const resolvedFr = await frenchPage.textContent('#incidents-resolved');
  check((await frenchPage.textContent('h1')) === 'Incidents' && resolvedFr?.includes('Webhooks refusés') && resolvedFr.includes('À la résolution'), 'the Incidents page is in French for a French browser');
  await shot(frenchPage, 'console-incidents-fr.png');
  await french.close();
}

/**
 * Privacy operations (CONTRACT 27): the daily retention run (the cron fired at 03:02 UTC) recorded
 * and listed on the Privacy page with each rule's count; a user's export run from their page for a
 * request by mail, listed on their page with who ran it.
 */
async function privacyTest(page, base, asSuperadmin) {
  const slot = new Date();
  slot.setUTCHours(3, 2, 0, 0);
  const fired = await fetch(`${scheduledUrl(base, '*/5 * * * *')}&time=${slot.getTime()}`);
  check(fired.status === 200, 'the cron runs in its daily retention slot');
  await page.goto(`${base}/console/privacy`);
  const runs = (await page.textContent('#retention-runs')) ?? '';
  check(/offerRecipients \d+ · travelProofs \d+ · phoneCodes \d+ · auditIps \d+/.test(runs), `the Privacy page lists the run with each rule's count (${runs.replace(/\s+/g, ' ').slice(0, 160)})`);
  await shot(page, 'console-privacy.png');

  const { content } = await asSuperadmin('admin/users?q=sender%40demo.local');
  const user = content?.[0];
  await page.goto(`${base}/console/users/${user.id}`);
  await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Export their data' }).click()]);
  check((await page.textContent('.flash.ok'))?.includes('requested'), 'running a user\'s export from the console says so');
  // Building it (the cron) and the download are covered by test/privacy.operations.test.ts.
  const card = (await page.textContent('#exports'))?.replace(/\s+/g, ' ') ?? '';
  check(/#\d+ · .* · by operator #\d+ · (PENDING|READY)/.test(card), `the user's page lists the export with who ran it (${card.slice(-80)})`);
  await page.locator('#exports').scrollIntoViewIfNeeded();
  await shot(page, 'console-user-export.png');
}

/**
 * Reconciliation (CONTRACT 27): a super-admin reconciles today so far from the console; the page
 * shows one report per provider and the pending captures, refunds and payouts; in French too.
 */
async function reconciliationTest(browser, page, base) {
  await page.goto(`${base}/console/reconciliation`);
  await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Reconcile today so far' }).click()]);
  check((await page.textContent('.flash.ok'))?.includes('Reconciled'), 'reconciling from the console says so');
  const reports = (await page.textContent('#reconciliation-reports'))?.replace(/\s+/g, ' ') ?? '';
  check(reports.includes('STRIPE') && reports.includes('WAVE') && /Matched|Differences/.test(reports) && reports.includes('statement:'), `the page lists today's report of each provider, Wave's with its statement (${reports.slice(0, 200)})`);
  const tables = await Promise.all(['#reconciliation-differences', '#pending-captures', '#pending-refunds', '#pending-payouts'].map((id) => page.locator(id).count()));
  check(tables.every((n) => n === 1), 'the page shows the differences and the pending captures, refunds and payouts');
  await shot(page, 'console-reconciliation.png');
  const french = await browser.newContext({ viewport: { width: 1366, height: 900 }, locale: 'fr-FR', storageState: await page.context().storageState() });
  const frenchPage = await french.newPage();
  await frenchPage.goto(`${base}/console/reconciliation`);
  check((await frenchPage.textContent('h1')) === 'Rapprochement' && (await frenchPage.textContent('#pending-captures'))?.length > 0, 'the Reconciliation page is in French for a French browser');
  const frenchReports = (await frenchPage.textContent('#reconciliation-reports'))?.replace(/\s+/g, ' ') ?? '';
  check(/Concordant|Écarts/.test(frenchReports) && frenchReports.includes('vérifiées une à une par identifiant') && frenchReports.includes('relevé :'), `each report's status and how it was read are in French (${frenchReports.slice(0, 200)})`);
  // Every entry of the navigation is visible on a 1366 px screen (a second row, no hidden scroll).
  const nav = await frenchPage.evaluate(() => ({ scroll: document.querySelector('nav.main').scrollWidth, width: document.querySelector('nav.main').clientWidth }));
  check(nav.scroll <= nav.width, `the French navigation fits 1366 px (${nav.scroll} <= ${nav.width})`);
  await shot(frenchPage, 'console-reconciliation-fr.png');
  await french.close();
}

/** The operator console (CONTRACT section 18) as an operator uses it, with screenshots of each page. */
async function consoleTests(browser, base) {
  const violations = [];
  const desktop = { viewport: { width: 1366, height: 900 }, locale: 'en-GB' };

  // A client is refused.
  const clientContext = await browser.newContext(desktop);
  const client = await clientContext.newPage();
  const refused = await consoleSignIn(client, base, 'sender@demo.local');
  check(refused?.status() === 403 && (await client.textContent('.flash.error'))?.includes('no operator role'), 'console sign-in is refused for a client (403, with the reason)');
  await shot(client, 'console-login-refused.png');
  await clientContext.close();

  // The super-admin signs in and lands on the overview.
  const context = await browser.newContext(desktop);
  const page = await context.newPage();
  page.on('console', (m) => /Content.Security.Policy/i.test(m.text()) && violations.push(m.text()));
  const signedIn = await consoleSignIn(page, base, 'superadmin@demo.local');
  check(signedIn?.status() === 200 && page.url() === `${base}/console`, 'the demo super-admin signs in and sees the overview');
  const cookie = (await context.cookies()).find((c) => c.name === 'console_session');
  check(cookie?.httpOnly === true && cookie?.sameSite === 'Strict', 'the session cookie is HttpOnly and SameSite=Strict');
  check((await page.locator('#figures .figure').count()) >= 8, 'the overview shows its figures');
  check(await page.locator('.chart svg rect').count() >= 28, 'the overview draws the daily chart');
  await shot(page, 'console-overview.png');

  const phone = await browser.newContext({ viewport: { width: 360, height: 780 }, deviceScaleFactor: 2, locale: 'fr-FR', storageState: await context.storageState() });
  const phonePage = await phone.newPage();
  await phonePage.goto(`${base}/console`);
  check((await phonePage.textContent('h1')) === 'Vue d’ensemble', 'the overview is in French for a French browser');
  const overflow = await phonePage.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  check(overflow <= 1, `the overview fits a 360 px phone (${overflow} px overflow)`);
  await shot(phonePage, 'console-overview-phone.png');
  await phonePage.goto(`${base}/console/kyc`);
  await shot(phonePage, 'console-kyc-queue-phone.png');
  await phone.close();

  // KYC queue: the demo record with its document inline, approved.
  await page.goto(`${base}/console/kyc`);
  const row = page.locator('tr', { hasText: 'kyc-pending@demo.local' });
  check((await row.count()) === 1, 'the KYC queue lists the pending demo record');
  await shot(page, 'console-kyc-queue.png');
  await Promise.all([page.waitForNavigation(), row.getByRole('link', { name: 'Open' }).click()]);
  await page.waitForSelector('.doc img');
  const imageWidth = await page.$eval('.doc img', (img) => img.naturalWidth);
  check(imageWidth > 100, `the identity document from R2 is shown inline (${imageWidth} px wide)`);
  await shot(page, 'console-kyc-detail.png');
  await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Approve' }).click()]);
  check((await page.textContent('.flash.ok'))?.includes('approved'), 'approving says so');
  check((await page.textContent('#user-roles'))?.includes('ROLE_VERIFIED_USER'), 'the page shows the granted role');
  const verified = await apiLogin(base, 'kyc-pending@demo.local');
  check(verified.status === 200 && verified.body.user.roles.includes('ROLE_VERIFIED_USER'), 'the API confirms ROLE_VERIFIED_USER on the approved user');

  // CSRF: a forged token is refused with a 403 page.
  await page.goto(`${base}/console/users?q=carrier%40demo.local`);
  await Promise.all([page.waitForNavigation(), page.getByRole('link', { name: /Carla Carrier/ }).click()]);
  await page.$eval('form[action$="/suspend"] input[name=csrf]', (el) => { el.value = 'forged.token'; });
  const [forged] = await Promise.all([page.waitForNavigation(), page.$eval('form[action$="/suspend"]', (f) => f.submit())]);
  check(forged?.status() === 403 && (await page.textContent('h1')) === 'The form has expired', 'a forged CSRF token is refused with the 403 page');
  await shot(page, 'console-csrf-refused.png');

  // Dispute: the demo dispute, released to the carrier; the carrier's wallet moves (read through the API).
  const carrier = await apiLogin(base, 'carrier@demo.local');
  const wallet = async () =>
    (await (await fetch(`${base}/v1/api/user/me/wallet`, { headers: { Authorization: `Bearer ${carrier.body.accessToken}` } })).json()).balance;
  const before = await wallet();
  await page.goto(`${base}/console/disputes`);
  await shot(page, 'console-disputes.png');
  // Two demo disputes (CONTRACT 21 added DEMO-PROTECTED-1, LOST): open DEMO-DISPUTE-1's (DAMAGED).
  const demoDisputes = await senderDisputes(base);
  const damaged = demoDisputes.find((d) => d.reason === 'DAMAGED' && d.status === 'OPEN');
  await Promise.all([page.waitForNavigation(), page.locator(`a[href="/console/disputes/${damaged?.id}"]`).click()]);
  // The evidence image loads after the page: wait for it, as for the KYC document.
  await page.waitForFunction(() => document.querySelector('.doc img')?.complete, null, { timeout: 10_000 }).catch(() => {});
  const disputeMessages = await page.locator('#dispute-messages .msg').count();
  const evidenceWidth = await page.$eval('.doc img', (img) => img.naturalWidth).catch(() => 0);
  check(disputeMessages === 2 && evidenceWidth > 100, `the dispute shows the conversation and the evidence (${disputeMessages} messages, image ${evidenceWidth} px wide)`);
  await shot(page, 'console-dispute.png');
  await page.getByLabel('Release to the carrier').check();
  await page.getByLabel('Note').fill('The photo shows transport damage covered by the carrier; released.');
  await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Resolve' }).click()]);
  check((await page.textContent('.flash.ok'))?.includes('resolved'), 'resolving the dispute says so');
  const after = await wallet();
  check(after - before > 0, `the carrier's wallet moved through the ledger (${before} -> ${after})`);
  await Promise.all([page.waitForNavigation(), page.getByRole('link', { name: 'DEMO-DISPUTE-1' }).click()]);
  check((await page.locator('#ledger tbody tr').count()) >= 4, 'the reservation shows its ledger entries');
  await shot(page, 'console-reservation.png');
  await protectionPayoutTest(page, base);

  // Users: suspend the demo sender, who then cannot log in.
  await page.goto(`${base}/console/users`);
  await shot(page, 'console-users.png');
  await page.getByLabel('Search').fill('sender@demo.local');
  await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Filter' }).click()]);
  await Promise.all([page.waitForNavigation(), page.getByRole('link', { name: /Sid Sender/ }).click()]);
  await page.getByLabel('Reason').fill('Repeated chargebacks');
  await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Suspend' }).click()]);
  check((await page.textContent('#user-status'))?.includes('Suspended'), 'the user page shows the suspension');
  await shot(page, 'console-user.png');
  const suspended = await apiLogin(base, 'sender@demo.local');
  check(suspended.status === 403, 'the suspended user cannot log in (403)');

  // The API as the super-admin, to check what the console did.
  const superadmin = await apiLogin(base, 'superadmin@demo.local');
  const asSuperadmin = async (pathname) => (await fetch(`${base}/v1/api/${pathname}`, { headers: { Authorization: `Bearer ${superadmin.body.accessToken}` } })).json();

  // Roles: the super-admin makes the demo carrier an administrator from the user page; the API confirms it.
  await page.goto(`${base}/console/users?q=carrier%40demo.local`);
  await Promise.all([page.waitForNavigation(), page.getByRole('link', { name: /Carla Carrier/ }).click()]);
  const carrierId = Number(new URL(page.url()).pathname.split('/').pop());
  await page.getByLabel('ROLE_ADMIN', { exact: true }).check();
  await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Save roles' }).click()]);
  check((await page.textContent('.flash.ok'))?.includes(`Roles of user ${carrierId} saved`), 'saving the roles from the user page says so');
  check(await page.getByLabel('ROLE_ADMIN', { exact: true }).isChecked(), 'the user page shows the new role checked');
  await shot(page, 'console-user-roles.png');
  const carrierNow = await asSuperadmin(`admin/users/${carrierId}`);
  check(carrierNow.roles?.includes('ROLE_ADMIN') && carrierNow.roles.includes('ROLE_VERIFIED_USER'), `the API confirms the roles set from the console (${carrierNow.roles?.join(', ')})`);

  // Deliveries: the demo's DEAD e-mail, with the provider's reason and the masked address, retried
  // from the console; the queue sends it again (sandbox) and the API sees it SENT.
  const listed = await asSuperadmin('superadmin/deliveries?status=DEAD&template=PASSWORD_CHANGED');
  const dead = listed.content?.find((d) => d.to === 'c***@demo.local');
  check(dead?.status === 'DEAD', 'the API lists the demo DEAD e-mail, its address masked');
  await page.goto(`${base}/console/deliveries`);
  const deadRow = page.locator('tr', { hasText: 'E_RECIPIENT_SUPPRESSED' });
  check((await deadRow.count()) === 1 && (await deadRow.textContent()).includes('c***@demo.local'), 'the deliveries page shows the DEAD e-mail with the provider reason and the masked address');
  await shot(page, 'console-deliveries.png');
  await Promise.all([page.waitForNavigation(), deadRow.getByRole('button', { name: 'Retry' }).click()]);
  check((await page.textContent('.flash.ok'))?.includes(`Delivery ${dead.id} queued again`), 'retrying from the console says so');
  let retried;
  for (let i = 0; i < 60 && retried?.status !== 'SENT'; i++) {
    if (i) await new Promise((r) => setTimeout(r, 500));
    retried = (await asSuperadmin('superadmin/deliveries?template=PASSWORD_CHANGED&size=100')).content?.find((d) => d.id === dead.id);
  }
  check(retried?.status === 'SENT' && retried.attempts === 1, `the API sees the retried delivery sent (${retried?.status}, ${retried?.attempts} attempt)`);
  await page.goto(`${base}/console/deliveries?status=ALL&template=PASSWORD_CHANGED`);
  check((await page.locator('tr', { hasText: 'c***@demo.local' }).first().textContent())?.includes('Sent'), 'the deliveries page shows it SENT');
  await shot(page, 'console-deliveries-retried.png');

  await travelProofTest(page, base);
  await erasureAndMetricsTests(browser, page, base, asSuperadmin);
  await incidentsTest(browser, page, base);
  await privacyTest(page, base, asSuperadmin);
  await reconciliationTest(browser, page, base);

  for (const [pathname, name] of [['/console/withdrawals', 'withdrawals'], ['/console/agencies', 'agencies'], ['/console/reservations', 'reservations'], ['/console/audit', 'audit']]) {
    const res = await page.goto(`${base}${pathname}`);
    check(res?.status() === 200, `${pathname} answers 200`);
    await shot(page, `console-${name}.png`);
  }
  check(violations.length === 0, `no Content-Security-Policy violation in the console ${violations.join(' | ')}`);

  await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Sign out' }).click()]);
  await page.goto(`${base}/console`);
  check(page.url() === `${base}/console/login`, 'after signing out the console asks to sign in again');
  await context.close();
  check(true, `console screenshots kept in ${ARTIFACTS}/console-*.png`);
}

/**
 * The CN23-style customs declaration of the demo DEPOSITED reservation as its carrier prints it, in
 * French, opened in Chromium's PDF viewer for a screenshot (test-artifacts/customs-declaration-fr.png).
 */
async function customsDeclarationTest(browser, base) {
  const carrier = await apiLogin(base, 'carrier@demo.local');
  const auth = { Authorization: `Bearer ${carrier.body.accessToken}` };
  const list = await (await fetch(`${base}/v1/api/bookings/as-carrier?size=50`, { headers: auth })).json();
  const demo = list.data.find((r) => r.reservationNumber === 'DEMO-HANDOVER-1');
  check(Boolean(demo), 'the demo carrier sees the demo DEPOSITED reservation');
  const res = await fetch(`${base}/v1/api/bookings/${demo.id}/customs-declaration?format=pdf`, { headers: { ...auth, 'Accept-Language': 'fr-FR,fr;q=0.9' } });
  const bytes = Buffer.from(await res.arrayBuffer());
  const text = bytes.toString('latin1');
  check(
    res.status === 200 && res.headers.get('content-type') === 'application/pdf' && text.startsWith('%PDF-1.4') && text.includes('(D\\311CLARATION EN DOUANE) Tj') && text.includes('DEMO-HANDOVER-1'),
    'the carrier gets the customs declaration as a French CN23 PDF',
  );
  const file = path.resolve(ARTIFACTS, 'customs-declaration-fr.pdf');
  writeFileSync(file, bytes);
  const page = await browser.newPage({ viewport: { width: 1000, height: 1300 } });
  await page.goto(`file://${file}`);
  await page.waitForTimeout(2500);
  await page.screenshot({ path: path.join(ARTIFACTS, 'customs-declaration-fr.png') });
  await page.close();
  check(true, `the customs declaration as Chromium shows it kept in ${ARTIFACTS}/customs-declaration-fr.png`);
}

let browser;
let failed = false;
try {
  if (!(await waitForHealth(base, Date.now() + 90_000))) throw new Error('service did not become healthy within 90 s');
  const seed = await fetch(`${base}/v1/api/dev/seed`, { method: 'POST' });
  if (!seed.ok) throw new Error(`seed failed: ${seed.status} ${await seed.text()}`);

  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
  // A phone, in French (the e-mail pages answer in the reader's language).
  const page = await browser.newPage({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, locale: 'fr-FR' });

  // Social login through the sandbox issuer: the page signs a token, the API accepts it.
  const signIn = await page.goto(`${base}/sandbox/social/google/sign-in`);
  check(signIn?.status() === 200, 'sandbox Google sign-in page answers 200');
  const email = `browser-${Date.now()}@example.com`;
  await page.fill('#email', email);
  await page.fill('#firstName', 'Gaia');
  await page.fill('#lastName', 'Sandbox');
  await page.screenshot({ path: path.join(ARTIFACTS, 'social-sandbox-sign-in.png'), fullPage: true });
  await Promise.all([page.waitForURL(`${base}/sandbox/social/google/sign-in`), page.click('button[type=submit]')]);
  check((await page.textContent('#signed-in-email')) === email, 'the page says who signed in');
  const idToken = (await page.inputValue('#id-token')).trim();
  check(idToken.split('.').length === 3, 'the page shows a signed ID token');
  await page.screenshot({ path: path.join(ARTIFACTS, 'social-sandbox-token.png'), fullPage: true });
  const login = await fetch(`${base}/v1/api/auth/oauth2/google`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ idToken }),
  });
  const session = await login.json();
  check(login.status === 200 && session.user?.email === email && session.user?.firstName === 'Gaia', 'the API signs that person in with the token (200)');
  check(true, `screenshots kept in ${ARTIFACTS}/social-sandbox-sign-in.png and social-sandbox-token.png`);

  // The e-mails of the local run: registering puts a verification e-mail in the development outbox
  // (written by the request's batch, sent through the DELIVERIES queue to the sandbox); a person
  // opens /dev/outbox, clicks its link and sees the confirmation; the same for a password reset.
  const mailbox = `outbox-${Date.now()}@example.com`;
  const registered = await fetch(`${base}/v1/api/auth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Accept-Language': 'fr-FR,fr;q=0.9' },
    body: JSON.stringify({ email: mailbox, password: 'Browser-password-1', firstName: 'Olive', lastName: 'Outbox' }),
  });
  check(registered.status === 201, 'registration answers 201');
  const openOutbox = async (template) => {
    for (let i = 0; i < 40; i++) {
      await page.goto(`${base}/dev/outbox?to=${encodeURIComponent(mailbox)}`);
      if ((await page.locator(`article[data-template="${template}"]`).count()) > 0) return;
      await new Promise((r) => setTimeout(r, 500));
    }
    throw new Error(`no ${template} e-mail reached the development outbox`);
  };
  await openOutbox('EMAIL_VERIFICATION');
  check((await page.textContent('article[data-template="EMAIL_VERIFICATION"] h2')) === 'Confirmez votre adresse e-mail', 'the outbox shows the verification e-mail, in French');
  await page.screenshot({ path: path.join(ARTIFACTS, 'dev-outbox.png'), fullPage: true });
  await Promise.all([page.waitForURL(/\/verify-email\?token=/), page.click('article[data-template="EMAIL_VERIFICATION"] a.link')]);
  check((await page.textContent('h1')) === 'Adresse e-mail confirmée', 'clicking its link confirms the address and says so');
  await page.screenshot({ path: path.join(ARTIFACTS, 'verify-email.png'), fullPage: true });
  const logIn = (password) =>
    fetch(`${base}/v1/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email: mailbox, password }) });
  const me = await logIn('Browser-password-1').then((r) => r.json());
  check(me.user?.emailVerified === true, 'the account is verified');

  await fetch(`${base}/v1/api/auth/password/forgot`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email: mailbox }) });
  await openOutbox('PASSWORD_RESET');
  await Promise.all([page.waitForURL(/\/reset-password\?token=/), page.click('article[data-template="PASSWORD_RESET"] a.link')]);
  await page.fill('#password', 'short');
  await Promise.all([page.waitForEvent('framenavigated'), page.click('button[type=submit]')]);
  await page.waitForLoadState('load');
  check((await page.textContent('#password-error'))?.includes('au moins 10 caractères'), 'a short password is refused next to the field');
  await page.screenshot({ path: path.join(ARTIFACTS, 'reset-password-error.png'), fullPage: true });
  await page.fill('#password', 'Browser-password-2');
  await Promise.all([page.waitForEvent('framenavigated'), page.click('button[type=submit]')]);
  await page.waitForLoadState('load');
  check((await page.textContent('h1')) === 'Mot de passe modifié', 'a good password is saved and the page says so');
  await page.screenshot({ path: path.join(ARTIFACTS, 'reset-password-done.png'), fullPage: true });
  const relogin = await logIn('Browser-password-2');
  check(relogin.status === 200, 'the new password logs in');
  check(true, `screenshots kept in ${ARTIFACTS}/dev-outbox.png, verify-email.png, reset-password-error.png and reset-password-done.png`);

  const res = await page.goto(`${base}/r/${DEMO_RECIPIENT_TOKEN}`);
  check(res?.status() === 200, 'recipient page answers 200');
  check((await page.textContent('h1'))?.includes('DEMO-HANDOVER-1'), 'page shows the parcel number');
  // The page speaks the recipient's language (CONTRACT section 19): this browser asks for French.
  check((await page.getAttribute('html', 'lang')) === 'fr', 'page is in French for a French-speaking browser');
  check((await page.textContent('#status')) === 'Chez le transporteur', 'page shows the status in French');
  const shown = (await page.textContent('body')) ?? '';
  check(!/\d{4}-\d{2}-\d{2}/.test(shown.replace(/\(function[\s\S]*$/, '')), 'page shows no ISO date');
  check(/\d{1,2} [a-zéû]+ \d{4}/.test((await page.textContent('#expected')) ?? ''), 'arrival date in words');
  await page.screenshot({ path: path.join(ARTIFACTS, 'recipient-page-fr.png'), fullPage: true });

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

  const english = await page.goto(`${base}/r/${DEMO_RECIPIENT_TOKEN}?lang=en`);
  check(english?.status() === 200 && (await page.textContent('#status')) === 'With the carrier', '?lang=en shows the page in English');
  await page.screenshot({ path: path.join(ARTIFACTS, 'recipient-page-en.png'), fullPage: true });

  const missing = await page.goto(`${base}/r/not-a-real-token-000000000000000`);
  check(missing?.status() === 404 && (await page.textContent('h1')) === 'Lien introuvable', 'unknown link shows the 404 page (in French)');

  await customsDeclarationTest(browser, base);
  await consoleTests(browser, base);

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
