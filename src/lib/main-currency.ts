// The platform's main currency (PLATFORM_CURRENCY) as a code of the table: the currency a wallet
// shows by default and a withdrawal takes when none is named (CONTRACT section 20).
import { isCurrencyCode, type CurrencyCode } from './currency';
import { assertEnabled } from './amount';

/** PLATFORM_CURRENCY when it is an enabled code of the table, else EUR (always enabled). */
export function mainCurrency(config: { platform: { currency: string }; currencies: readonly CurrencyCode[] }): CurrencyCode {
  const c = config.platform.currency;
  return isCurrencyCode(c) && config.currencies.includes(c) ? c : 'EUR';
}

/** The currency a request names (enabled, else the 400 naming `field`), else the main one. */
export function currencyOrMain(config: { platform: { currency: string }; currencies: readonly CurrencyCode[] }, asked: string | undefined, field = 'currency'): CurrencyCode {
  return asked !== undefined ? assertEnabled(asked, config.currencies, field) : mainCurrency(config);
}
