// Error texts of declared contents and the customs declaration (CONTRACT 21). Each key's English
// and French; `{name}` is a value, kept as is.
import type { Entries } from './types';

export const CUSTOMS_MESSAGES = {
  'customs.negativeValue': {
    en: 'A declared value cannot be negative',
    fr: 'Une valeur déclarée ne peut pas être négative',
  },
} as const satisfies Entries;
