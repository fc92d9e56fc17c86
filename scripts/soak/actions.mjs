// What the simulated users do, through the API only. Readers (search, reviews, notifications,
// lists, wallet) run beside a money flow that follows each booking to the end:
//
//   sender books (a hot trip: the overbooking race; or a roomy one, so that bookings keep going
//   through; or a roomy trip in CFA francs, Dakar -> Abidjan) -> sender opens the checkout and
//   presses "Pay" (EUR: CARD on the Stripe sandbox page; XOF: MOBILE_MONEY on the Wave sandbox
//   page, whose "Pay with Wave" goes through the Wave webhook code) -> carrier accepts -> sender
//   reads the deposit and delivery codes (shown to the sender only) and hands them to the
//   carrier -> carrier deposits with the deposit code -> carrier delivers with the delivery code
//   (escrow released to the carrier's wallet) -> carrier withdraws from the wallet, in one of its
//   currencies (EUR through the Stripe connected account, XOF to its Wave wallet).
//
// Some presses are doubled (two identical requests at once, as a double click or a retry would
// send them): the "Pay" button, deposit, delivery, withdrawal. At most one deposit or delivery of a
// reservation may succeed; the ledger checks catch a payment or withdrawal applied twice.
// Senders also cancel some bookings (unpaid hot ones, which frees capacity so the race goes on;
// and paid ones not yet accepted, which refunds the escrow). Hand-offs between users go through
// queues in `s` (in-process state): `s.carrier(id)` and `s.sender(id)` are the users.
//
// Both parties of every booking chat in its conversation meanwhile (CONTRACT section 17): each
// message they were answered 201 for is remembered, and the run ends by reading every conversation
// back (scripts/soak/run.mjs): each message exactly once, in id order.
//
// An action is `{ name, role, weight, run(u, s, call) }`; `run` returns false when it had nothing
// to do. `call(name, user, req)` sends and records one request (user null: anonymous).

const pick = (list) => list[Math.floor(Math.random() * list.length)];
/** Removes and returns the first element that is still live (not cancelled), or undefined. */
const takeLive = (list) => {
  while (list.length) {
    const b = list.shift();
    if (!b.cancelled) return b;
  }
  return undefined;
};
/** Minor units per major unit of the currencies the soak uses (XOF has no minor unit). */
const SCALE = { EUR: 100, XOF: 1 };
const minor = (amount, currency) => Math.round(Number(amount) * SCALE[currency]);
const DOUBLE_PRESS = 0.15;
/** Sends `req` once, or twice at once with probability DOUBLE_PRESS; returns every answer. */
const press = (call, name, u, req) => Promise.all(Array.from({ length: Math.random() < DOUBLE_PRESS ? 2 : 1 }, () => call(name, u, req)));
const major = (m, currency) => Math.floor(m) / SCALE[currency];

/** A carrier-facing reservation must never carry the codes (CONTRACT section 7). */
function codesHidden(s, where, reservation) {
  if (reservation && (reservation.depositCode != null || reservation.deliveryCode != null)) {
    s.problems.push(`${where}: the carrier was shown the codes of reservation ${reservation.id}`);
  }
}

const bookingBody = (s, trip) => ({
  announcementId: trip.id,
  reservedWeight: pick([0.5, 1, 1.5, 2]),
  contentInfo: 'Clothes',
  items: [{ categoryId: s.categoryId, name: 'Clothes', reservedQuantity: 1, weight: 0.5 }],
  recipient: { firstName: 'Rita', lastName: 'Recipient', phone: '+221700000000', city: trip.arrivalCity },
});

function book(name, trips, hot) {
  return {
    name,
    role: 'sender',
    weight: 3,
    run: async (u, s, call) => {
      const trip = pick(trips(s));
      const res = await call(name, u, { method: 'POST', path: '/v1/api/bookings', body: bookingBody(s, trip) });
      if (res.status !== 201) return true;
      if (!Number.isInteger(res.body?.id) || res.body.carrierId !== trip.carrierId) {
        s.problems.push(`${name}: 201 without the reservation id or with another carrier: ${JSON.stringify(res.body).slice(0, 200)}`);
        return true;
      }
      s.flow.booked += 1;
      if (res.body.currency !== trip.currency) s.problems.push(`${name}: a ${trip.currency} trip booked in ${res.body.currency}`);
      u.unpaid.push({ id: res.body.id, senderId: u.id, carrierId: trip.carrierId, currency: trip.currency, hot });
      // The conversation opens with the booking, for both parties.
      const chat = { id: res.body.id, sent: [] };
      s.chats.push(chat);
      u.chats.push(chat);
      s.carrier(trip.carrierId).chats.push(chat);
      return true;
    },
  };
}

/** A carrier's code entry (deposit or delivery) on the next reservation of its `queue`. */
function handover(name, queue, verb, body, expected, onDone) {
  return {
    name,
    role: 'carrier',
    weight: 3,
    run: async (u, s, call) => {
      const b = takeLive(u[queue]);
      if (!b) return false;
      const answers = await press(call, name, u, { method: 'POST', path: `/v1/api/bookings/${b.id}/${verb}`, body: body(b) });
      const ok = answers.filter((res) => res.status === 200);
      if (ok.length === 0) return true;
      if (ok.length > 1) s.problems.push(`${verb}: two identical requests at once both answered 200 for reservation ${b.id}`);
      for (const res of ok) {
        codesHidden(s, verb, res.body);
        if (res.body?.status !== expected) s.problems.push(`${verb}: 200 with status ${res.body?.status} for reservation ${b.id}`);
      }
      onDone(u, s, b, ok[0].body);
      return true;
    },
  };
}

const simple = (name, role, weight, request) => ({
  name,
  role,
  weight,
  run: async (u, s, call) => {
    await call(name, u, request(u, s));
    return true;
  },
});


/** A party writes in one of its conversations, sometimes reads it and marks it read. */
const chatting = {
  name: 'chat',
  role: 'any',
  weight: 3,
  run: async (u, s, call) => {
    if (!u.chats.length) return false;
    const chat = pick(u.chats);
    const body = `soak u${u.id} m${(s.chatSeq += 1)} au rendez-vous`;
    const res = await call('chat: post a message', u, { method: 'POST', path: `/v1/api/bookings/${chat.id}/messages`, body: { body } });
    if (res.status === 201) {
      if (res.body?.body !== body || res.body?.authorId !== u.id) s.problems.push(`chat: 201 with another message: ${JSON.stringify(res.body).slice(0, 200)}`);
      chat.sent.push({ id: res.body?.id, body });
      s.flow.messages += 1;
    }
    if (Math.random() < 0.3) {
      await call('chat: read the conversation', u, { method: 'GET', path: `/v1/api/bookings/${chat.id}/messages?size=20` });
      await call('chat: mark read', u, { method: 'PUT', path: `/v1/api/bookings/${chat.id}/messages/read` });
      await call('chat: conversations', u, { method: 'GET', path: '/v1/api/conversations' });
    }
    return true;
  },
};

export const ACTIONS = [
  simple('search trips', 'any', 4, () => ({ method: 'GET', path: `/v1/api/annonces?departureCity=${pick(['Paris', 'Lyon', 'Dakar'])}&size=20` })),
  simple('customer reviews', 'any', 2, () => ({ method: 'GET', path: `/v1/api/reviews/customers?page=${Math.floor(Math.random() * 3)}` })),
  simple('carrier profile reviews', 'any', 2, (_u, s) => ({ method: 'GET', path: `/v1/api/users/${1 + Math.floor(Math.random() * s.carrierCount)}/reviews` })),
  simple('notifications', 'any', 2, () => ({ method: 'GET', path: '/v1/api/notifications?unreadOnly=true' })),
  simple('transaction history', 'any', 1, () => ({ method: 'GET', path: '/v1/api/transactions?size=10' })),
  simple('report a user', 'any', 1, (_u, s) => ({
    method: 'POST',
    path: '/v1/api/reports',
    body: { targetType: 'USER', targetId: 1 + Math.floor(Math.random() * s.carrierCount), reason: 'Suspicious messages' },
  })),

  chatting,

  // Sender side of the flow.
  book('book a hot trip', (s) => s.hotTrips, true),
  book('book a roomy trip', (s) => s.roomyTrips, false),
  book('book an XOF trip', (s) => s.xofTrips, false),
  {
    name: 'pay a booking',
    role: 'sender',
    weight: 3,
    run: async (u, s, call) => {
      if (!u.unpaid.length) return false;
      const b = u.unpaid.splice(Math.floor(Math.random() * u.unpaid.length), 1)[0];
      // XOF pays by mobile money (Wave), EUR by card (Stripe): each through its own sandbox page.
      const wave = b.currency === 'XOF';
      const body = wave ? { reservationId: b.id, method: 'MOBILE_MONEY' } : { reservationId: b.id };
      const checkout = await call(wave ? 'pay: open the Wave checkout' : 'pay: open the checkout', u, { method: 'POST', path: '/v1/api/payments/checkout', body });
      if (checkout.status !== 200) return true;
      if (typeof checkout.body?.paymentId !== 'string' || typeof checkout.body?.paymentApprovalUrl !== 'string') {
        s.problems.push(`pay: checkout 200 without paymentId/paymentApprovalUrl: ${JSON.stringify(checkout.body).slice(0, 200)}`);
        return true;
      }
      // The sandbox page's "Pay" button (root path, a browser form post answered 303).
      const id = encodeURIComponent(checkout.body.paymentId);
      const pay = wave
        ? await press(call, 'pay: Wave sandbox "Pay with Wave" button', null, { method: 'POST', path: `/sandbox/wave/checkout/${id}/pay` })
        : await press(call, 'pay: sandbox "Pay" button', null, { method: 'POST', path: `/sandbox/checkout/${id}/pay` });
      if (!pay.some((res) => res.status === 303)) return true;
      s.flow.paid += 1;
      s.flow.paidBy[wave ? 'MOBILE_MONEY' : 'CARD'] += 1;
      u.paid.push(b);
      s.carrier(b.carrierId).toAccept.push(b);
      return true;
    },
  },
  {
    name: 'read the handover codes',
    role: 'sender',
    weight: 3,
    run: async (u, s, call) => {
      const b = takeLive(u.accepted);
      if (!b) return false;
      const res = await call('read the handover codes', u, { method: 'GET', path: `/v1/api/bookings/${b.id}` });
      if (res.status !== 200 || res.body?.status !== 'CONFIRMED') return true; // cancelled meanwhile
      if (!/^\d{6}$/.test(res.body.depositCode ?? '') || !/^\d{6}$/.test(res.body.deliveryCode ?? '')) {
        s.problems.push(`read the handover codes: the sender got no codes for CONFIRMED reservation ${b.id}`);
        return true;
      }
      b.depositCode = res.body.depositCode;
      b.deliveryCode = res.body.deliveryCode;
      s.carrier(b.carrierId).toDeposit.push(b);
      return true;
    },
  },
  {
    name: 'cancel a booking',
    role: 'sender',
    weight: 1,
    run: async (u, s, call) => {
      // An unpaid hot booking (gives the capacity back to the race), else sometimes a paid one.
      let list = u.unpaid;
      let i = list.findIndex((b) => b.hot);
      if (i === -1 && Math.random() < 0.3) {
        list = u.paid;
        i = list.findIndex((b) => !b.cancelled && !b.accepted);
      }
      if (i === -1) return false;
      const b = list.splice(i, 1)[0];
      const res = await call('cancel a booking', u, { method: 'POST', path: `/v1/api/bookings/${b.id}/cancel`, body: { reason: 'Plans changed' } });
      if (res.status === 200) {
        b.cancelled = true;
        s.flow.cancelled += 1;
      }
      return true;
    },
  },
  simple('my bookings', 'sender', 1, () => ({ method: 'GET', path: '/v1/api/bookings/as-sender' })),

  // Carrier side of the flow.
  {
    name: 'accept a paid booking',
    role: 'carrier',
    weight: 3,
    run: async (u, s, call) => {
      const b = takeLive(u.toAccept);
      if (!b) return false;
      const res = await call('accept a paid booking', u, { method: 'POST', path: `/v1/api/bookings/${b.id}/accept` });
      if (res.status !== 200) return true;
      codesHidden(s, 'accept', res.body);
      b.accepted = true;
      s.flow.accepted += 1;
      s.sender(b.senderId).accepted.push(b);
      return true;
    },
  },
  handover('deposit with the code', 'toDeposit', 'deposit', (b) => ({ depositCode: b.depositCode }), 'DEPOSITED', (u, s, b) => {
    s.flow.deposited += 1;
    u.toDeliver.push(b);
  }),
  handover('deliver with the code', 'toDeliver', 'deliver', (b) => ({ deliveryCode: b.deliveryCode }), 'DELIVERED', (u, s, b, body) => {
    s.flow.delivered += 1;
    const earned = minor(body?.carrierAmount ?? 0, b.currency);
    s.flow.earned[b.currency] += earned;
    u.balance[b.currency] += earned;
  }),
  {
    name: 'withdraw',
    role: 'carrier',
    weight: 2,
    run: async (u, s, call) => {
      // In one of its currencies (XOF most often when it believes it holds francs: XOF shares come
      // later in a run than EUR ones, and the Wave payout must happen too): all of it, half,
      // all of it twice at once (the race the wallet guard must win), or more than it holds (422
      // INSUFFICIENT_FUNDS). XOF goes to the carrier's Wave wallet, EUR through Stripe Connect.
      const currency = u.balance.XOF > 0 && (u.balance.EUR <= 0 || Math.random() < 0.7) ? 'XOF' : 'EUR';
      const known = u.balance[currency];
      const whole = (m) => major(m, currency);
      const r = Math.random();
      const amounts =
        known < 1 ? [whole(SCALE[currency])] : r < 0.4 ? [whole(known)] : r < 0.7 ? [whole(Math.max(1, known / 2))] : r < 0.85 ? [whole(known), whole(known)] : [whole(known + 100_000)];
      const results = await Promise.all(amounts.map((amount) => call(`withdraw ${currency}`, u, { method: 'POST', path: '/v1/api/withdrawals', body: { amount, currency } })));
      for (const res of results) {
        if (res.status !== 201) continue;
        if (!['COMPLETED', 'PENDING'].includes(res.body?.status)) s.problems.push(`withdraw: 201 with status ${res.body?.status}`);
        if (res.body?.currency !== currency) s.problems.push(`withdraw: asked ${currency}, answered ${res.body?.currency}`);
        const paidOut = minor(res.body?.amount ?? 0, currency);
        s.flow.withdrawals[currency] += 1;
        s.flow.withdrawn[currency] += paidOut;
        u.balance[currency] -= paidOut;
      }
      return true;
    },
  },
  {
    name: 'wallet',
    role: 'carrier',
    weight: 1,
    run: async (u, _s, call) => {
      const res = await call('wallet', u, { method: 'GET', path: '/v1/api/user/me/wallet' });
      for (const b of res.status === 200 && Array.isArray(res.body?.balances) ? res.body.balances : []) {
        if (b.currency in u.balance) u.balance[b.currency] = minor(b.balance, b.currency);
      }
      return true;
    },
  },
  {
    name: 'carrier bookings',
    role: 'carrier',
    weight: 2,
    run: async (u, s, call) => {
      const res = await call('carrier bookings', u, { method: 'GET', path: '/v1/api/bookings/as-carrier' });
      for (const r of res.status === 200 && Array.isArray(res.body?.data) ? res.body.data : []) codesHidden(s, 'as-carrier list', r);
      return true;
    },
  },
];
