// The link of the item a message is about (CONTRACT section 19): an https universal link under
// PUBLIC_BASE_URL (`/app/...`, declared in the .well-known files) that opens the app on the phone,
// and a web page that explains how to get there otherwise. Read from the notification's data, not
// per template, so a new notification kind gets its link from the ids it carries.
import { rootUrl } from '../../../lib/urls';

/** Where each kind of id leads, most specific first (a dispute's data also names its reservation). */
const BY_ID: ReadonlyArray<{ key: string; section: string }> = [
  { key: 'disputeId', section: 'disputes' },
  { key: 'invitationId', section: 'agency-invitations' },
  { key: 'reservationId', section: 'bookings' },
  { key: 'offerId', section: 'offers' },
  { key: 'withdrawalId', section: 'withdrawals' },
  { key: 'announcementId', section: 'annonces' },
  { key: 'reportId', section: 'reports' },
  { key: 'agencyId', section: 'agencies' },
];

/** The sections an item link may name: the web fallback page knows each of them. */
export const APP_SECTIONS = ['bookings', 'conversations', 'disputes', 'agency-invitations', 'withdrawals', 'annonces', 'reports', 'agencies', 'kyc', 'wallet', 'notifications', 'offers'] as const;
export type AppSection = (typeof APP_SECTIONS)[number];

const idOf = (value: unknown): string | null => {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value : '';
  return /^[A-Za-z0-9_-]{1,64}$/.test(text) ? text : null;
};

/** The app path of a notification (`/app/bookings/42`); the notifications list when the data names no item. */
export function itemPath(kind: string, payload: Record<string, unknown>): string {
  const data = (payload.data ?? {}) as Record<string, unknown>;
  // A new message opens the conversation of its reservation, not the reservation.
  if (kind === 'NEW_MESSAGE' && idOf(data.reservationId)) return `/app/conversations/${idOf(data.reservationId)}`;
  for (const { key, section } of BY_ID) {
    const id = idOf(data[key]);
    if (id) return `/app/${section}/${id}`;
  }
  if (kind.startsWith('KYC_')) return '/app/kyc';
  if (kind.startsWith('WITHDRAWAL_') || kind.startsWith('FUNDS_')) return '/app/wallet';
  return '/app/notifications';
}

/** The absolute item link of a notification (e-mail button, push `data.link`). */
export const itemUrl = (env: Pick<Env, 'PUBLIC_BASE_URL'>, kind: string, payload: Record<string, unknown>): string => rootUrl(env, itemPath(kind, payload));
