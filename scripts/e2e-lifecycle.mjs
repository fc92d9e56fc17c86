// The full parcel lifecycle against a running local service (`npm start`), as the apps would do it:
// negotiate a booking (offer, counter-offer, acceptance), chat before payment (contact details hidden), pay in the sandbox checkout (the "Pay"
// button), accept, chat over the live socket, deposit by QR, track, deliver by the recipient page's
// QR, and check the carrier's wallet (the share held for the dispute window); then a fresh account's
// data export (built by the cron, linked by e-mail, downloaded by its owner) and another's erasure. Usage: `npm run e2e` (BASE_URL to change
// the target; loopback only). Exits non-zero on the first step that does not behave. Then the corridor in XOF
// (scripts/e2e-xof.mjs): a booking paid on the Wave sandbox page through delivery to a Wave payout; Cameroon
// in XAF (scripts/e2e/xaf-walk.mjs): MTN on the pawaPay sandbox through delivery to an Orange payout; and a
// protected parcel (scripts/e2e/protection-walk.mjs): customs declaration, a loss paid by the protection.
import { walkXof } from './e2e-xof.mjs';
import { protectionWalk } from './e2e/protection-walk.mjs';
import { walkXaf } from './e2e/xaf-walk.mjs';

const BASE = process.env.BASE_URL ?? 'http://127.0.0.1:8787';
const API = `${BASE}/v1/api`;
const PASSWORD = process.env.DEMO_PASSWORD || 'Demo-password-1';

if (!/^https?:\/\/(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?$/.test(BASE)) {
  console.error(`Refusing to run against ${BASE}: loopback only`);
  process.exit(2);
}

async function call(method, path, { token, body, base = API } = {}) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(body ? { 'Content-Type': 'application/json' } : {}), ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
    redirect: 'manual',
  });
  const text = await res.text();
  let json;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = text;
  }
  return { status: res.status, body: json };
}

function expect(step, res, status) {
  if (res.status !== status) {
    console.error(`✗ ${step}: expected ${status}, got ${res.status} ${JSON.stringify(res.body).slice(0, 400)}`);
    process.exit(1);
  }
  console.log(`✓ ${step}`);
  return res.body;
}

const login = async (email) => expect(`login ${email}`, await call('POST', '/auth/login', { body: { email, password: PASSWORD } }), 200);

const sender = await login('sender@demo.local');
const carrier = await login('carrier@demo.local');
const walletBefore = expect('carrier wallet before', await call('GET', '/user/me/wallet', { token: carrier.accessToken }), 200);

const trips = expect('search trips', await call('GET', '/annonces?size=100&sort=departureDate,asc'), 200);
const trip = trips.content.find((t) => t.carrierId === carrier.user.id && t.remainingWeight >= 1);
if (!trip) throw new Error('no trip of carrier@demo.local with 1 kg left: run npm start to seed');
const categories = expect('categories', await call('GET', '/categories?size=100'), 200);
const category = categories.content.find(
  (c) => !c.prohibited && (trip.acceptedCategoryIds.length === 0 || trip.acceptedCategoryIds.includes(c.id)),
);

// Agreeing on terms (CONTRACT 22): the sender offers less than the listed price, the carrier
// counters, the sender accepts the counter: a PENDING_PAYMENT reservation at the agreed price.
const decimals = ['XOF', 'XAF'].includes(trip.currency) ? 0 : 2;
const priced = (v) => Math.round(v * 10 ** decimals) / 10 ** decimals;
const offered = priced(trip.pricePerKg * 0.8);
const countered = priced((offered + trip.pricePerKg) / 2);
const earlier = expect('sender offers so far', await call('GET', '/offers/mine?role=sender&size=100', { token: sender.accessToken }), 200);
for (const open of earlier.content.filter((o) => o.announcementId === trip.id && ['PENDING', 'COUNTERED'].includes(o.status))) {
  expect(`withdraw the open offer ${open.id} of an earlier run`, await call('POST', `/offers/${open.id}/withdraw`, { token: sender.accessToken }), 200);
}
const offer = expect(
  `sender offers 1 kg at ${offered} ${trip.currency}/kg`,
  await call('POST', `/annonces/${trip.id}/offers`, {
    token: sender.accessToken,
    body: {
      reservedWeight: 1,
      pricePerKg: offered,
      message: 'Would you take a little less?',
      contentInfo: 'Two books',
      items: [{ categoryId: category.id, name: 'Books', reservedQuantity: 2, weight: 1 }],
      recipient: { firstName: 'Rita', lastName: 'Recipient', phone: '+221770000000', city: trip.arrivalCity },
    },
  }),
  201,
);
const incoming = expect('carrier sees the offer', await call('GET', '/offers/mine?role=carrier&status=PENDING&size=100', { token: carrier.accessToken }), 200);
if (!incoming.content.some((o) => o.id === offer.id)) throw new Error(`offer ${offer.id} not in the carrier's pending offers`);
const counter = expect(
  `carrier counters at ${countered} ${trip.currency}/kg`,
  await call('POST', `/offers/${offer.id}/counter`, { token: carrier.accessToken, body: { pricePerKg: countered } }),
  200,
);
if (counter.status !== 'COUNTERED') throw new Error(`expected COUNTERED, got ${counter.status}`);
const agreed = expect('sender accepts the counter-offer', await call('POST', `/offers/${offer.id}/accept`, { token: sender.accessToken }), 200);
if (agreed.status !== 'ACCEPTED' || !agreed.reservationId) throw new Error(`offer not accepted: ${JSON.stringify(agreed)}`);
const booking = expect('the booking at the agreed price', await call('GET', `/bookings/${agreed.reservationId}`, { token: sender.accessToken }), 200);
if (booking.status !== 'PENDING_PAYMENT' || booking.pricePerKg !== countered) {
  throw new Error(`expected PENDING_PAYMENT at ${countered}/kg, got ${booking.status} at ${booking.pricePerKg}/kg`);
}

const masked = expect(
  'sender writes before payment',
  await call('POST', `/bookings/${booking.id}/messages`, { token: sender.accessToken, body: { body: 'Hello, call me on 06 12 34 56 78' } }),
  201,
);
if (masked.body !== 'Hello, call me on [hidden until payment]') throw new Error(`phone number not hidden before payment: ${masked.body}`);

const checkout = expect('checkout', await call('POST', '/payments/checkout', { token: sender.accessToken, body: { reservationId: booking.id } }), 200);
const page = await fetch(checkout.paymentApprovalUrl);
const html = await page.text();
const pay = html.match(/action="([^"]+\/pay)"[^>]*>\s*<button[^>]*>Pay<\/button>/);
if (!pay) throw new Error(`no "Pay" button on ${checkout.paymentApprovalUrl}`);
const paid = await fetch(new URL(pay[1], BASE), { method: 'POST', redirect: 'manual' });
console.log(`✓ sandbox "Pay" button (${paid.status})`);
const afterPay = expect('reservation after payment', await call('GET', `/bookings/${booking.id}`, { token: sender.accessToken }), 200);
if (afterPay.status !== 'PAID') throw new Error(`expected PAID, got ${afterPay.status}`);

expect('carrier accepts', await call('POST', `/bookings/${booking.id}/accept`, { token: carrier.accessToken }), 200);
// The sender's app holds the live conversation open (the token as the subprotocol, as browsers must).
const live = new WebSocket(`${API.replace(/^http/, 'ws')}/bookings/${booking.id}/messages/live?afterId=${masked.id}`, [`bearer.${sender.accessToken}`]);
const frames = [];
live.addEventListener('message', (event) => frames.push(JSON.parse(event.data)));
const arrived = async (count) => {
  for (const until = Date.now() + 5_000; frames.length < count; await new Promise((r) => setTimeout(r, 50))) {
    if (Date.now() > until) throw new Error(`live conversation: ${frames.length} of ${count} frames after 5 s`);
  }
  return frames;
};
await new Promise((resolve, reject) => {
  live.addEventListener('open', resolve, { once: true });
  live.addEventListener('error', () => reject(new Error('live conversation: the socket did not open')), { once: true });
});
console.log('✓ sender opens the live conversation');
const reply = expect(
  'carrier writes after payment',
  await call('POST', `/bookings/${booking.id}/messages`, { token: carrier.accessToken, body: { body: 'Meet me at the station, 06 12 34 56 78' } }),
  201,
);
const [pushed] = await arrived(1);
if (pushed.type !== 'message' || pushed.message.id !== reply.id || pushed.message.body !== 'Meet me at the station, 06 12 34 56 78') {
  throw new Error(`live conversation pushed ${JSON.stringify(pushed)}`);
}
console.log('✓ the reply reaches the sender over the socket at once, unmasked after payment');
live.close(1000, 'done');

const depositQr = expect('sender shows the deposit QR', await call('GET', `/bookings/${booking.id}/qrcode/deposit`, { token: sender.accessToken }), 200);
const deposited = expect('carrier scans it', await call('POST', '/qrcode/process/depot', { token: carrier.accessToken, body: { payload: depositQr.payload } }), 200);
if (deposited.status !== 'DEPOSITED') throw new Error(`expected DEPOSITED, got ${deposited.status}`);

expect(
  'carrier posts a position',
  await call('POST', `/tracking/${booking.id}/positions`, {
    token: carrier.accessToken,
    body: { lat: 48.8566, lng: 2.3522, recordedAt: new Date().toISOString() },
  }),
  201,
);

const link = expect('sender gets the recipient link', await call('GET', `/bookings/${booking.id}/recipient-link`, { token: sender.accessToken }), 200);
const recipient = expect('recipient page data', await call('GET', `/public/recipient/${link.token}`), 200);
const delivered = expect(
  'carrier scans the recipient QR',
  await call('POST', '/qrcode/process/livraison', { token: carrier.accessToken, body: { payload: recipient.deliveryQr.payload } }),
  200,
);
if (delivered.status !== 'DELIVERED') throw new Error(`expected DELIVERED, got ${delivered.status}`);

const walletAfter = expect('carrier wallet after', await call('GET', '/user/me/wallet', { token: carrier.accessToken }), 200);
// The share waits for the 72 h dispute window (CONTRACT section 19): held, not yet withdrawable.
const gained = Math.round((walletAfter.heldBalance - walletBefore.heldBalance) * 100) / 100;
if (gained !== delivered.carrierAmount) throw new Error(`held balance grew by ${gained}, carrier amount is ${delivered.carrierAmount}`);
if (walletAfter.balance !== walletBefore.balance) throw new Error(`the available balance moved (${walletBefore.balance} -> ${walletAfter.balance}) before the dispute window closed`);
console.log(`✓ carrier wallet: +${gained} ${walletAfter.currency} held for the dispute window (total ${delivered.totalAmount}, commission ${delivered.platformCommission})`);

await walkXof({ call, expect, login, BASE });
await walkXaf({ call, expect, login, BASE });

// Personal data (CONTRACT section 24): a fresh account asks for its archive, the cron builds it,
// the link arrives in the development outbox, only its owner downloads it; another fresh account
// is erased and can no longer sign in.
const fresh = async (name) =>
  expect(
    `register ${name}`,
    await call('POST', '/auth/register', {
      body: { email: `e2e-${name}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.test`, password: PASSWORD, firstName: 'Eve', lastName: 'Tester' },
    }),
    201,
  );

/** Polls `probe` until it returns a value (every 250 ms, for `seconds`), or fails the step. */
async function eventually(step, probe, seconds = 20) {
  for (const until = Date.now() + seconds * 1000; ; await new Promise((r) => setTimeout(r, 250))) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > until) {
      console.error(`✗ ${step}: nothing after ${seconds} s`);
      process.exit(1);
    }
  }
}

const owner = await fresh('export');
const asked = expect('ask for a data export', await call('POST', '/user/me/exports', { token: owner.accessToken }), 202);
if (asked.status !== 'PENDING') throw new Error(`a new export is PENDING, got ${asked.status}`);
// The archive is built by the cron (never on the request path): fire it as production's would fire.
const cron = await fetch(`${BASE}/cdn-cgi/local/scheduled?cron=${encodeURIComponent('*/5 * * * *')}`);
console.log(`✓ the cron runs (${cron.status})`);
const mail = await eventually('the export e-mail in the development outbox', async () => {
  const outbox = await call('GET', `/dev/outbox?to=${encodeURIComponent(owner.user.email)}&channel=EMAIL`);
  return outbox.body?.content?.find((m) => m.template === 'DATA_EXPORT_READY');
});
const exportLink = mail.links.find((l) => l.includes(`/exports/${asked.id}`));
if (!exportLink) throw new Error(`the export e-mail carries no link to export ${asked.id}: ${JSON.stringify(mail.links)}`);
console.log(`✓ the e-mail links to the archive (${exportLink})`);
const archive = expect('the owner downloads the archive', await call('GET', `/user/me/exports/${asked.id}`, { token: owner.accessToken }), 200);
if (archive.profile?.email !== owner.user.email) throw new Error(`the archive is not the owner's: ${JSON.stringify(archive.profile)}`);
expect("anyone else gets 404 for it", await call('GET', `/user/me/exports/${asked.id}`, { token: sender.accessToken }), 404);

const leaving = await fresh('erasure');
expect('erase the account (DELETE /user/me)', await call('DELETE', '/user/me', { token: leaving.accessToken }), 200);
expect('the erased account cannot sign in', await call('POST', '/auth/login', { body: { email: leaving.user.email, password: PASSWORD } }), 401);
expect("the erased account's token is refused", await call('GET', '/user/me', { token: leaving.accessToken }), 401);
await protectionWalk({ call, expect, base: BASE, api: API, password: PASSWORD });
console.log('lifecycle OK');
