// How an operator sees a delivery's address (CONTRACT section 16): enough to recognise it on the
// phone with the person, never the whole of it. Pure, table-tested.
import type { DeliveryChannel } from '../../db/schema';

const STARS = '******';

/**
 * `jeanne@example.com` → `j***@example.com`; `+33612345678` → `+33******78`; a device token →
 * its first and last four characters. The number of stars is fixed, so the length stays hidden too.
 */
export function maskAddress(channel: DeliveryChannel, to: string): string {
  const value = to.trim();
  if (channel === 'EMAIL') {
    const at = value.lastIndexOf('@');
    if (at <= 0) return value ? `${value[0]}***` : '***';
    return `${value[0]}***${value.slice(at)}`;
  }
  if (channel === 'SMS') {
    // The country code (or the national prefix) and the last two digits; `00` is the `+` written out.
    const digits = value.replace(/\D/g, '').replace(/^00/, '');
    if (digits.length < 7) return STARS;
    const international = value.startsWith('+') || value.startsWith('00');
    return `${international ? '+' : ''}${digits.slice(0, 2)}${STARS}${digits.slice(-2)}`;
  }
  return value.length < 12 ? STARS : `${value.slice(0, 4)}${STARS}${value.slice(-4)}`;
}
