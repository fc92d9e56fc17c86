// The protection walk of `npm run e2e` (CONTRACT section 21): the sender books a protected parcel
// (a declared value per item, protection: true), pays price + premium in the card sandbox, prints
// the customs declaration (JSON checked, the CN23 PDF fetched), the carrier takes the parcel, the
// sender reports it LOST, an administrator resolves the dispute PROTECTION_PAYOUT through the API,
// and GET /bookings/{id}/protection and the sender's wallet show the payout.
// `call(method, path, {token, body})` and `expect(step, res, status)` are the lifecycle script's.

const round = (v, decimals) => Math.round(v * 10 ** decimals) / 10 ** decimals;

/** Pays a PENDING_PAYMENT reservation through the sandbox checkout's "Pay" button; returns the charged amount. */
async function payInSandbox({ call, expect, base }, sender, reservationId) {
  const checkout = expect('checkout of the protected booking', await call('POST', '/payments/checkout', { token: sender.accessToken, body: { reservationId } }), 200);
  const page = await fetch(checkout.paymentApprovalUrl);
  const pay = (await page.text()).match(/action="([^"]+\/pay)"[^>]*>\s*<button[^>]*>Pay<\/button>/);
  if (!pay) throw new Error(`no "Pay" button on ${checkout.paymentApprovalUrl}`);
  const paid = await fetch(new URL(pay[1], base), { method: 'POST', redirect: 'manual' });
  console.log(`✓ sandbox "Pay" button for price + premium (${paid.status})`);
  return checkout;
}

/** Fetches the CN23 PDF with the sender's token: a PDF, served as one. */
async function fetchCustomsPdf(api, sender, id) {
  const res = await fetch(`${api}/bookings/${id}/customs-declaration?format=pdf`, {
    headers: { Authorization: `Bearer ${sender.accessToken}`, 'Accept-Language': 'fr' },
  });
  const bytes = new Uint8Array(await res.arrayBuffer());
  const head = new TextDecoder().decode(bytes.slice(0, 5));
  if (res.status !== 200 || !res.headers.get('content-type')?.startsWith('application/pdf') || head !== '%PDF-') {
    throw new Error(`customs PDF: ${res.status} ${res.headers.get('content-type')} starting ${JSON.stringify(head)}`);
  }
  console.log(`✓ the customs declaration as a PDF (${bytes.length} bytes, ${res.headers.get('content-type')}, ${res.headers.get('content-language')})`);
}

export async function protectionWalk({ call, expect, base, api, password }) {
  const login = async (email) => expect(`login ${email}`, await call('POST', '/auth/login', { body: { email, password } }), 200);
  const [sender, carrier, admin] = [await login('sender@demo.local'), await login('carrier@demo.local'), await login('admin@demo.local')];

  const trips = expect('search trips for the protected parcel', await call('GET', '/annonces?size=100&sort=departureDate,asc'), 200);
  const trip = trips.content.find((t) => t.carrierId === carrier.user.id && t.remainingWeight >= 1);
  if (!trip) throw new Error('no trip of carrier@demo.local with 1 kg left: run npm start to seed');
  const categories = expect('categories', await call('GET', '/categories?size=100'), 200);
  const category = categories.content.find((c) => !c.prohibited && (trip.acceptedCategoryIds.length === 0 || trip.acceptedCategoryIds.includes(c.id)));
  const decimals = ['XOF', 'XAF', 'GNF'].includes(trip.currency) ? 0 : 2;
  // About 300 and 150 EUR worth, in the trip's currency (whole francs for XOF).
  const unit = decimals === 0 ? 655 : 1;
  const values = [round(300 * unit, decimals), round(150.5 * unit, decimals)];

  const booking = expect(
    `sender books 1 kg with protection (declared ${values.join(' + ')} ${trip.currency})`,
    await call('POST', '/bookings', {
      token: sender.accessToken,
      body: {
        announcementId: trip.id,
        reservedWeight: 1,
        contentInfo: 'A camera and a jacket',
        items: [
          { categoryId: category.id, name: 'Camera', description: 'Compact camera', reservedQuantity: 1, weight: 0.6, declaredValue: values[0] },
          { categoryId: category.id, name: 'Jacket', reservedQuantity: 1, weight: 0.4, declaredValue: values[1] },
        ],
        recipient: { firstName: 'Rita', lastName: 'Recipient', phone: '+221770000000', city: trip.arrivalCity },
        declarations: { noProhibitedItems: true },
        // A camera carries a lithium battery: the corridor asks the sender to accept its conditions.
        acknowledgedRestrictions: ['LITHIUM_IN_DEVICE'],
        protection: true,
      },
    }),
    201,
  );
  const terms = expect('its protection before payment', await call('GET', `/bookings/${booking.id}/protection`, { token: sender.accessToken }), 200);
  const declared = round(values[0] + values[1], decimals);
  if (!terms.protected || terms.declaredValue !== declared || !(terms.premium > 0) || terms.currency !== trip.currency || terms.claim !== null) {
    throw new Error(`protection terms: ${JSON.stringify(terms)} (declared ${declared} ${trip.currency})`);
  }
  console.log(`✓ protected: premium ${terms.premium} ${terms.currency}, coverage ${terms.coverage}`);

  const checkout = await payInSandbox({ call, expect, base }, sender, booking.id);
  const charged = round(booking.totalAmount + terms.premium, decimals);
  if (checkout.amount !== undefined && checkout.amount !== charged) throw new Error(`checkout amount ${checkout.amount}, expected price + premium ${charged}`);
  const paid = expect('the protected booking after payment', await call('GET', `/bookings/${booking.id}`, { token: sender.accessToken }), 200);
  if (paid.status !== 'PAID') throw new Error(`expected PAID, got ${paid.status}`);

  const customs = expect('sender prints the customs declaration (JSON)', await call('GET', `/bookings/${booking.id}/customs-declaration`, { token: sender.accessToken }), 200);
  const listed = customs.items.map((i) => i.declaredValue);
  if (customs.reservationNumber !== booking.reservationNumber || customs.currency !== trip.currency || customs.totalValue !== declared || JSON.stringify(listed) !== JSON.stringify(values)) {
    throw new Error(`customs declaration: ${JSON.stringify(customs)}`);
  }
  console.log(`✓ customs: ${customs.items.length} items, ${customs.totalValue} ${customs.currency}, ${customs.originCountry} -> ${customs.destinationCountry}`);
  await fetchCustomsPdf(api, sender, booking.id);

  expect('carrier accepts the protected booking', await call('POST', `/bookings/${booking.id}/accept`, { token: carrier.accessToken }), 200);
  const depositQr = expect('sender shows the deposit QR', await call('GET', `/bookings/${booking.id}/qrcode/deposit`, { token: sender.accessToken }), 200);
  const deposited = expect('carrier scans it', await call('POST', '/qrcode/process/depot', { token: carrier.accessToken, body: { payload: depositQr.payload } }), 200);
  if (deposited.status !== 'DEPOSITED') throw new Error(`expected DEPOSITED, got ${deposited.status}`);

  const walletBefore = expect('sender wallet before the claim', await call('GET', `/user/me/wallet?currency=${trip.currency}`, { token: sender.accessToken }), 200);
  const dispute = expect(
    'sender reports the parcel LOST',
    await call('POST', '/disputes', {
      token: sender.accessToken,
      body: { reservationId: booking.id, reason: 'LOST', description: 'The carrier says the bag never reached Dakar: the parcel is lost.' },
    }),
    201,
  );
  const payout = round(Math.min(terms.coverage, declared * 0.8), decimals);
  const resolved = expect(
    `admin resolves it PROTECTION_PAYOUT ${payout} ${trip.currency}`,
    await call('POST', `/admin/disputes/${dispute.id}/resolve`, {
      token: admin.accessToken,
      body: { resolution: 'PROTECTION_PAYOUT', amount: payout, note: 'Lost in transit: covered by the protection' },
    }),
    200,
  );
  if (resolved.status !== 'RESOLVED' || resolved.resolution !== 'PROTECTION_PAYOUT') throw new Error(`resolution: ${JSON.stringify(resolved)}`);

  const claim = expect('GET /bookings/{id}/protection after the claim', await call('GET', `/bookings/${booking.id}/protection`, { token: sender.accessToken }), 200).claim;
  if (claim?.disputeId !== dispute.id || claim.reason !== 'LOST' || claim.resolution !== 'PROTECTION_PAYOUT' || claim.payoutAmount !== payout || !claim.resolvedAt) {
    throw new Error(`protection claim: ${JSON.stringify(claim)}`);
  }
  const walletAfter = expect('sender wallet after the payout', await call('GET', `/user/me/wallet?currency=${trip.currency}`, { token: sender.accessToken }), 200);
  const gained = round(walletAfter.balance - walletBefore.balance, decimals);
  if (walletAfter.currency !== trip.currency || gained !== payout) throw new Error(`sender wallet grew by ${gained} ${walletAfter.currency}, the payout is ${payout} ${trip.currency}`);
  console.log(`✓ the sender's wallet: +${gained} ${walletAfter.currency} available (the price ${booking.totalAmount} refunded to the card besides)`);
}
