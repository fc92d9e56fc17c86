// The Cameroon walk of `npm run e2e` (issue 46, CONTRACT section 29): a sender books the Douala demo
// carrier's trip priced in XAF, pays by MTN Mobile Money on the local pawaPay sandbox (checkout
// answers 202 PENDING: a PIN prompt; the sandbox page stands in for the phone and its Approve button
// sends the callback pawaPay would POST), the parcel is handed over and delivered, the share is held
// for the dispute window, the window is closed and the cron makes it available; a withdrawal in XAF
// goes to the carrier's Orange Money number (pawaPay payout, PENDING until its callback, which the
// cron delivers) and the XAF wallet is back to 0.
import { closeDisputeWindow, fail, handOverAndDeliver, runCron } from '../e2e-xof.mjs';

const DOUALA_CARRIER = 'carrier.douala@demo.local';
/** An MTN Cameroon number of the demo's own (pawaPay's sandbox approves it; it is not one of its failing endings). */
const SENDER_MTN = '+237677000100';

async function xafWallet(step, { call, expect }, token) {
  const wallet = expect(step, await call('GET', '/user/me/wallet?currency=XAF', { token }), 200);
  if (wallet.currency !== 'XAF') fail(`${step}: the wallet answered in ${wallet.currency}, not XAF`);
  if (!Number.isInteger(wallet.balance) || !Number.isInteger(wallet.heldBalance)) fail(`${step}: francs with decimals (${wallet.balance}, ${wallet.heldBalance})`);
  return wallet;
}

async function bookXafTrip({ call, expect }, sender, carrier) {
  const trips = expect('search XAF trips from Douala', await call('GET', '/annonces?departureCity=Douala&currency=XAF&size=100'), 200);
  const trip = trips.content.find((t) => t.carrierId === carrier.user.id && t.currency === 'XAF' && t.remainingWeight >= 1);
  if (!trip) fail(`no XAF trip of ${DOUALA_CARRIER} from Douala with 1 kg left: run npm start to seed`);
  const categories = expect('categories', await call('GET', '/categories?size=100'), 200);
  const category = categories.content.find((c) => !c.prohibited && (trip.acceptedCategoryIds.length === 0 || trip.acceptedCategoryIds.includes(c.id)));
  const booking = expect(
    `sender books 1 kg on trip ${trip.id} (Douala -> ${trip.arrivalCity}) at ${trip.pricePerKg} XAF/kg`,
    await call('POST', '/bookings', {
      token: sender.accessToken,
      body: {
        announcementId: trip.id,
        reservedWeight: 1,
        contentInfo: 'Poivre de Penja',
        items: [{ categoryId: category.id, name: 'Poivre', reservedQuantity: 2, weight: 1 }],
        recipient: { firstName: 'Marie', lastName: 'Recipient', phone: '+33612345678', city: trip.arrivalCity },
      },
    }),
    201,
  );
  if (booking.currency !== 'XAF' || !Number.isInteger(booking.totalAmount)) fail(`the booking is not in whole XAF francs: ${booking.totalAmount} ${booking.currency}`);
  return booking;
}

/** Pays by MTN on the pawaPay sandbox: 202 PENDING, then the PIN prompt approved on the sandbox page. */
async function payWithMtn({ call, expect, BASE }, sender, booking) {
  const methods = expect('payment methods of the XAF booking', await call('GET', `/payments/methods?reservationId=${booking.id}`, { token: sender.accessToken }), 200);
  const mtn = methods.methods.find((m) => m.provider === 'MTN_MOMO_CMR');
  if (!mtn || mtn.approval !== 'PIN_PROMPT' || mtn.decimals !== 0) fail(`MTN Cameroon not offered as a PIN prompt in whole francs: ${JSON.stringify(methods).slice(0, 400)}`);
  const checkout = expect(
    'checkout with MOBILE_MONEY by MTN (202: a PIN prompt on the phone)',
    await call('POST', '/payments/checkout', { token: sender.accessToken, body: { reservationId: booking.id, method: 'MOBILE_MONEY', provider: 'MTN_MOMO_CMR', phone: SENDER_MTN } }),
    202,
  );
  if (checkout.status !== 'PENDING' || checkout.approval !== 'PIN_PROMPT' || !/^[0-9a-f-]{36}$/.test(checkout.paymentId)) fail(`not a pending PIN prompt: ${JSON.stringify(checkout)}`);
  const pending = expect('the XAF booking while the prompt waits', await call('GET', `/bookings/${booking.id}`, { token: sender.accessToken }), 200);
  if (pending.status !== 'PENDING_PAYMENT') fail(`paid before the payer approved: ${pending.status}`);
  const page = await fetch(`${BASE}/sandbox/pawapay/deposits/${checkout.paymentId}`);
  const html = await page.text();
  const approve = html.match(/action="([^"]+\/approve)"/);
  if (page.status !== 200 || !approve) fail(`no Approve button on the pawaPay sandbox page (${page.status})`);
  const approved = await fetch(new URL(approve[1], BASE), { method: 'POST', redirect: 'manual' });
  if (approved.status !== 303) fail(`Approve answered ${approved.status}, not 303`);
  console.log(`✓ the PIN prompt approved on the pawaPay sandbox page (deposit ${checkout.paymentId}): its callback went through the pawaPay callback code`);
  const after = expect('the XAF booking after the MTN payment', await call('GET', `/bookings/${booking.id}`, { token: sender.accessToken }), 200);
  if (after.status !== 'PAID' || after.paymentStatus !== 'CAPTURED') fail(`expected PAID and CAPTURED, got ${after.status} / ${after.paymentStatus}`);
}

/** The XAF walk; `h` is the e2e's helpers ({call, expect, login, BASE}). Exits non-zero on a failed step. */
export async function walkXaf(h) {
  const { call, expect, login } = h;
  console.log('— Cameroon in XAF: MTN on the pawaPay sandbox, delivery, payout to Orange Money —');
  const sender = await login('sender@demo.local');
  const carrier = await login(DOUALA_CARRIER);
  const accounts = expect('the Douala carrier’s payout accounts', await call('GET', '/payout-accounts', { token: carrier.accessToken }), 200);
  const orange = accounts.content.find((a) => a.currency === 'XAF' && a.isDefault);
  if (orange?.provider !== 'ORANGE_CMR') fail(`the default XAF wallet is not an Orange Money one: ${JSON.stringify(accounts.content)}`);
  const before = await xafWallet('Douala carrier XAF wallet before', h, carrier.accessToken);

  const booking = await bookXafTrip(h, sender, carrier);
  await payWithMtn(h, sender, booking);
  const delivered = await handOverAndDeliver(h, sender, carrier, booking, { carrier: 'Douala carrier', arrival: booking.arrivalCity ?? 'Paris' });
  const held = await xafWallet('Douala carrier XAF wallet after delivery', h, carrier.accessToken);
  if (held.heldBalance - before.heldBalance !== delivered.carrierAmount) fail(`held grew by ${held.heldBalance - before.heldBalance} XAF, the carrier share is ${delivered.carrierAmount} XAF`);
  console.log(`✓ ${delivered.carrierAmount} XAF held for the dispute window (total ${delivered.totalAmount}, commission ${delivered.platformCommission})`);

  await closeDisputeWindow(h, booking.id);
  const available = await xafWallet('Douala carrier XAF wallet once the window closed', h, carrier.accessToken);
  if (available.balance - before.balance !== delivered.carrierAmount) fail(`the XAF balance grew by ${available.balance - before.balance}, the carrier share is ${delivered.carrierAmount}`);

  const withdrawal = expect(
    `withdraw ${available.balance} XAF to Orange Money ${orange.phone}`,
    await call('POST', '/withdrawals', { token: carrier.accessToken, body: { amount: available.balance, currency: 'XAF' } }),
    201,
  );
  if (withdrawal.currency !== 'XAF' || withdrawal.amount !== available.balance) fail(`the withdrawal is not the XAF balance: ${JSON.stringify(withdrawal)}`);
  if (withdrawal.status === 'PENDING') console.log(`✓ the pawaPay payout ${withdrawal.id} is PENDING (its callback comes later); the cron delivers it (${await runCron(h)})`);
  const listed = expect('the carrier lists its withdrawals', await call('GET', '/withdrawals?size=20', { token: carrier.accessToken }), 200);
  const found = listed.content.find((w) => w.id === withdrawal.id);
  if (found?.status !== 'COMPLETED') fail(`withdrawal ${withdrawal.id} listed as ${JSON.stringify(found)}`);
  console.log(`✓ pawaPay sandbox payout to ORANGE_CMR: COMPLETED, ${found.amount} XAF`);
  const after = await xafWallet('Douala carrier XAF wallet after the payout', h, carrier.accessToken);
  if (after.balance !== 0) fail(`the XAF wallet holds ${after.balance} XAF after paying out all of it`);
  console.log('✓ the XAF wallet is back to 0 XAF');
}
