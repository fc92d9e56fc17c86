// Whether a password is among the most common ones (CONTRACT section 19: refused at registration,
// reset and change). Compared lower-cased: `Password1234` is as guessable as `password1234`.
import { COMMON_PASSWORDS_10_PLUS } from './common-passwords.data';

let common: Set<string> | undefined;

export function isCommonPassword(password: string): boolean {
  // Built on first use, once per isolate, not at start-up of every request path.
  common ??= new Set(COMMON_PASSWORDS_10_PLUS.split('\n'));
  return common.has(password.toLowerCase());
}
