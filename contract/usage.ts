// What a mobile team writes against the generated client: log in, search trips, book one, open the
// checkout, list my bookings. If the document drifts from what this needs, this stops compiling.
import createClient from 'openapi-fetch';
import type { components, paths } from './generated/api';

type Reservation = components['schemas']['Reservation'];

export async function bookTheFirstTrip(baseUrl: string, email: string, password: string): Promise<Reservation[]> {
  const api = createClient<paths>({ baseUrl });

  const login = await api.POST('/v1/api/auth/login', { body: { email, password } });
  if (!login.data) throw new Error(login.error?.message ?? 'login failed');
  const headers = { Authorization: `Bearer ${login.data.accessToken}` };

  const trips = await api.GET('/v1/api/annonces', {
    params: { query: { departureCity: 'Paris', arrivalCity: 'Dakar', page: 0, size: 10, sort: 'departureDate,asc' } },
  });
  const trip = trips.data?.content[0];
  if (!trip) return [];

  const categories = await api.GET('/v1/api/categories', { params: { query: { size: 100 } } });
  const category = categories.data?.content.find((c) => !c.prohibited);
  if (!category) throw new Error('no allowed category');

  // Fields with defaults (reservedQuantity, isFragile, containsLiquids) may be left out.
  const booking = await api.POST('/v1/api/bookings', {
    headers: { ...headers, 'Idempotency-Key': crypto.randomUUID() },
    body: {
      announcementId: trip.id,
      reservedWeight: 2.5,
      items: [{ categoryId: category.id, name: 'Books' }],
      recipient: { firstName: 'Awa', lastName: 'Diop', phone: '+221770000000' },
    },
  });
  if (!booking.data) throw new Error(`${booking.error?.errorCode}: ${booking.error?.message}`);

  const checkout = await api.POST('/v1/api/payments/checkout', { headers, body: { reservationId: booking.data.id } });
  // null when the payer approves a PIN prompt on the phone (mobile money); a card checkout has a page.
  const payHere: string | null | undefined = checkout.data?.paymentApprovalUrl;
  if (!payHere) throw new Error('no checkout');

  const mine = await api.GET('/v1/api/bookings/as-sender', { headers, params: { query: { page: 0, size: 20 } } });
  return mine.data?.content ?? [];
}
