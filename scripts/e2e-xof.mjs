// The corridor walk of `npm run e2e` (issue 29, CONTRACT section 20): a sender books the Dakar demo
// carrier's trip priced in CFA francs, pays by MOBILE_MONEY on the Wave sandbox page (the HTTP steps a
// browser takes: open the launch URL, post its "Pay with Wave" form, which signs the event Wave would
// send and hands it to the webhook code), the parcel is handed over and delivered, the dispute window
// is closed and the cron makes the share available: the carrier's XOF wallet has grown by exactly
// the carrier share in whole francs; a withdrawal in XOF is paid out to the carrier's Wave wallet by
// the Wave sandbox payout (COMPLETED, Wave's payout id) and the wallet is back where it was.
//
// The 72 h dispute window (CONTRACT section 19) cannot pass in an e2e run: like the soak, the walk
// moves this reservation's hold due in the local D1 (`wrangler d1 execute --local`, the state
// `npm start` serves), then fires the cron through wrangler dev's test-scheduled endpoint.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DAKAR_CARRIER = 'carrier.dakar@demo.local';

/**
 * Runs one SQL statement on the local D1 of this checkout (the one `npm start` serves), or on the
 * state directory E2E_PERSIST_TO names (a `wrangler dev --persist-to`, as the backup drill runs).
 */
export function localSql(sql) {
  const persist = process.env.E2E_PERSIST_TO ? ['--persist-to', process.env.E2E_PERSIST_TO] : [];
  const run = spawnSync(`${ROOT}node_modules/.bin/wrangler`, ['d1', 'execute', 'DB', '--local', ...persist, '--command', sql], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, CI: 'true' },
  });
  if (run.status !== 0) throw new Error(`wrangler d1 execute failed (${run.status}): ${(run.stderr || run.stdout).slice(-400)}`);
}

export const fail = (message) => {
  console.error(`✗ ${message}`);
  process.exit(1);
};

/** The XOF wallet: the top-level figures in francs (whole numbers: XOF has no minor unit). */
async function xofWallet(step, { call, expect }, token) {
  const wallet = expect(step, await call('GET', '/user/me/wallet?currency=XOF', { token }), 200);
  if (wallet.currency !== 'XOF') fail(`${step}: the wallet answered in ${wallet.currency}, not XOF`);
  if (!Number.isInteger(wallet.balance) || !Number.isInteger(wallet.heldBalance)) fail(`${step}: francs with decimals (${wallet.balance}, ${wallet.heldBalance})`);
  return wallet;
}

/** Books the Dakar carrier's XOF trip as `sender` (1 kg); returns the reservation. */
async function bookXofTrip(h, sender, carrier) {
  const { call, expect } = h;
  const trips = expect('search XOF trips from Dakar', await call('GET', '/annonces?departureCity=Dakar&size=100'), 200);
  const trip = trips.content.find((t) => t.carrierId === carrier.user.id && t.currency === 'XOF' && t.remainingWeight >= 1);
  if (!trip) fail(`no XOF trip of ${DAKAR_CARRIER} with 1 kg left: run npm start to seed`);
  if (!Number.isInteger(trip.pricePerKg)) fail(`the XOF trip's price has decimals: ${trip.pricePerKg}`);
  const categories = expect('categories', await call('GET', '/categories?size=100'), 200);
  const category = categories.content.find((c) => !c.prohibited && (trip.acceptedCategoryIds.length === 0 || trip.acceptedCategoryIds.includes(c.id)));
  const booking = expect(
    `sender books 1 kg on trip ${trip.id} (Dakar -> ${trip.arrivalCity}) at ${trip.pricePerKg} XOF/kg`,
    await call('POST', '/bookings', {
      token: sender.accessToken,
      body: {
        announcementId: trip.id,
        reservedWeight: 1,
        contentInfo: 'Tissus wax',
        items: [{ categoryId: category.id, name: 'Tissus', reservedQuantity: 2, weight: 1 }],
        recipient: { firstName: 'Koffi', lastName: 'Recipient', phone: '+2250700000000', city: trip.arrivalCity },
      },
    }),
    201,
  );
  if (booking.currency !== 'XOF' || !Number.isInteger(booking.totalAmount)) fail(`the booking is not in whole francs: ${booking.totalAmount} ${booking.currency}`);
  return booking;
}

/** Pays `booking` by MOBILE_MONEY through the Wave sandbox page, as a browser would. */
async function payWithWave(h, sender, booking) {
  const { call, expect, BASE } = h;
  const methods = expect('payment methods of the XOF booking', await call('GET', `/payments/methods?reservationId=${booking.id}`, { token: sender.accessToken }), 200);
  const offered = methods.methods.map((m) => m.method);
  if (!offered.includes('MOBILE_MONEY')) fail(`MOBILE_MONEY not offered for XOF: ${JSON.stringify(methods).slice(0, 300)}`);
  const checkout = expect(
    'checkout with MOBILE_MONEY (a Wave checkout session)',
    await call('POST', '/payments/checkout', { token: sender.accessToken, body: { reservationId: booking.id, method: 'MOBILE_MONEY' } }),
    200,
  );
  if (!/^cos-/.test(checkout.paymentId)) fail(`the payment id is not a Wave checkout session: ${checkout.paymentId}`);
  const launch = new URL(checkout.paymentApprovalUrl);
  if (!launch.pathname.startsWith('/sandbox/wave/checkout/')) fail(`the launch URL is not the Wave sandbox page: ${checkout.paymentApprovalUrl}`);
  // The browser opens Wave's launch URL on this service (same path, this run's base).
  const page = await fetch(new URL(launch.pathname, BASE));
  const html = await page.text();
  const pay = html.match(/action="([^"]+\/pay)"[^>]*>\s*<button[^>]*>Pay with Wave<\/button>/);
  if (page.status !== 200 || !pay) fail(`no "Pay with Wave" button on the sandbox page (${page.status}) ${checkout.paymentApprovalUrl}`);
  console.log(`✓ the Wave sandbox page opened (methods offered: ${offered.join(', ')})`);
  const paid = await fetch(new URL(pay[1], BASE), { method: 'POST', redirect: 'manual' });
  if (paid.status !== 303) fail(`"Pay with Wave" answered ${paid.status}, not 303`);
  console.log(`✓ "Pay with Wave" (303 to ${paid.headers.get('location')}): the signed event went through the Wave webhook code`);
  const after = expect('the XOF booking after the Wave payment', await call('GET', `/bookings/${booking.id}`, { token: sender.accessToken }), 200);
  if (after.status !== 'PAID' || after.paymentStatus !== 'CAPTURED') fail(`expected PAID and CAPTURED at once (Wave), got ${after.status} / ${after.paymentStatus}`);
}

/** Acceptance, deposit by QR, delivery by the recipient page's QR; returns the delivered reservation. */
export async function handOverAndDeliver({ call, expect }, sender, carrier, booking, who = { carrier: 'Dakar carrier', arrival: 'Abidjan' }) {
  expect(`${who.carrier} accepts`, await call('POST', `/bookings/${booking.id}/accept`, { token: carrier.accessToken }), 200);
  const depositQr = expect('sender shows the deposit QR', await call('GET', `/bookings/${booking.id}/qrcode/deposit`, { token: sender.accessToken }), 200);
  const deposited = expect(`${who.carrier} scans it`, await call('POST', '/qrcode/process/depot', { token: carrier.accessToken, body: { payload: depositQr.payload } }), 200);
  if (deposited.status !== 'DEPOSITED') fail(`expected DEPOSITED, got ${deposited.status}`);
  const link = expect('sender gets the recipient link', await call('GET', `/bookings/${booking.id}/recipient-link`, { token: sender.accessToken }), 200);
  const recipient = expect('recipient page data', await call('GET', `/public/recipient/${link.token}`), 200);
  const delivered = expect(
    `${who.carrier} scans the recipient QR in ${who.arrival}`,
    await call('POST', '/qrcode/process/livraison', { token: carrier.accessToken, body: { payload: recipient.deliveryQr.payload } }),
    200,
  );
  if (delivered.status !== 'DELIVERED') fail(`expected DELIVERED, got ${delivered.status}`);
  const { totalAmount, platformCommission, carrierAmount } = delivered;
  if (![totalAmount, platformCommission, carrierAmount].every(Number.isInteger)) fail(`the split has decimals in ${booking.currency}: ${totalAmount} = ${platformCommission} + ${carrierAmount}`);
  if (carrierAmount <= 0 || carrierAmount + platformCommission !== totalAmount) fail(`the split does not add up: ${totalAmount} != ${platformCommission} + ${carrierAmount}`);
  return delivered;
}

/** Fires the cron as production's trigger would (wrangler dev's test-scheduled endpoint). */
export async function runCron({ BASE }) {
  const cron = await fetch(`${BASE}/cdn-cgi/local/scheduled?cron=${encodeURIComponent('*/5 * * * *')}`);
  if (!cron.ok) fail(`the cron did not run (${cron.status})`);
  return cron.status;
}

/** Closes this reservation's dispute window and fires the cron: its held share becomes available. */
export async function closeDisputeWindow({ BASE }, reservationId) {
  const past = new Date(Date.now() - 60_000).toISOString();
  localSql(`UPDATE payout_holds SET release_after = '${past}' WHERE reservation_id = ${Number(reservationId)} AND released_at IS NULL`);
  const cron = await fetch(`${BASE}/cdn-cgi/local/scheduled?cron=${encodeURIComponent('*/5 * * * *')}`);
  if (!cron.ok) fail(`the cron did not run (${cron.status})`);
  console.log(`✓ the dispute window of reservation ${reservationId} closed (local D1) and the cron ran (${cron.status})`);
}

/** The XOF walk; `h` is the e2e's helpers ({call, expect, login, BASE}). Exits non-zero on a failed step. */
export async function walkXof(h) {
  const { call, expect, login } = h;
  console.log('— the corridor in XOF: Wave checkout, delivery, Wave payout —');
  const sender = await login('sender@demo.local');
  const carrier = await login(DAKAR_CARRIER);
  const before = await xofWallet('Dakar carrier XOF wallet before', h, carrier.accessToken);

  const booking = await bookXofTrip(h, sender, carrier);
  await payWithWave(h, sender, booking);
  const delivered = await handOverAndDeliver(h, sender, carrier, booking);
  const held = await xofWallet('Dakar carrier XOF wallet after delivery', h, carrier.accessToken);
  if (held.heldBalance - before.heldBalance !== delivered.carrierAmount) fail(`held grew by ${held.heldBalance - before.heldBalance} XOF, the carrier share is ${delivered.carrierAmount} XOF`);
  console.log(`✓ ${delivered.carrierAmount} XOF held for the dispute window (total ${delivered.totalAmount}, commission ${delivered.platformCommission})`);

  await closeDisputeWindow(h, booking.id);
  const available = await xofWallet('Dakar carrier XOF wallet once the window closed', h, carrier.accessToken);
  if (available.balance - before.balance !== delivered.carrierAmount) fail(`the XOF balance grew by ${available.balance - before.balance}, the carrier share is ${delivered.carrierAmount}`);
  if (available.heldBalance !== before.heldBalance) fail(`the share is still held (${available.heldBalance} XOF held)`);
  console.log(`✓ the XOF wallet balance is ${available.balance} XOF: exactly the carrier share, in whole francs`);

  const withdrawal = expect(
    `withdraw ${available.balance} XOF to the Wave wallet`,
    await call('POST', '/withdrawals', { token: carrier.accessToken, body: { amount: available.balance, currency: 'XOF' } }),
    201,
  );
  if (withdrawal.status !== 'COMPLETED' || withdrawal.currency !== 'XOF' || withdrawal.amount !== available.balance || !withdrawal.transferId) {
    fail(`the Wave payout did not complete: ${JSON.stringify(withdrawal)}`);
  }
  const listed = expect('the carrier lists its withdrawals', await call('GET', '/withdrawals?size=20', { token: carrier.accessToken }), 200);
  const found = listed.content.find((w) => w.id === withdrawal.id);
  if (found?.status !== 'COMPLETED' || found.transferId !== withdrawal.transferId) fail(`withdrawal ${withdrawal.id} listed as ${JSON.stringify(found)}`);
  console.log(`✓ Wave sandbox payout ${withdrawal.transferId}: COMPLETED, ${withdrawal.amount} XOF`);
  const after = await xofWallet('Dakar carrier XOF wallet after the payout', h, carrier.accessToken);
  if (after.balance !== 0) fail(`the XOF wallet holds ${after.balance} XOF after paying out all of it`);
  console.log('✓ the XOF wallet is back to 0 XOF');
}
