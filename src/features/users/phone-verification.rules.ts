// Phone verification by SMS code (CONTRACT 21), the rules on their own: 6 digits, valid 10
// minutes, 5 attempts, at most 3 codes an hour per user. Numbers are read by lib/phone.ts.
export const PHONE_CODE_TTL_MS = 10 * 60 * 1000;
export const PHONE_CODE_MAX_ATTEMPTS = 5;
export const PHONE_CODES_PER_HOUR = 3;
export const HOUR_MS = 60 * 60 * 1000;

/** A uniformly drawn 6-digit code (rejection sampling: no bias towards low codes). */
export function newPhoneCode(random: () => number = () => crypto.getRandomValues(new Uint32Array(1))[0]): string {
  const limit = 4_294_000_000; // the largest multiple of 10^6 below 2^32
  for (;;) {
    const n = random();
    if (n < limit) return String(n % 1_000_000).padStart(6, '0');
  }
}

/**
 * Seconds until another code may be sent, given when the codes of the last hour were sent
 * (ISO date-times); 0 when one may be sent now.
 */
export function codeRetryAfterSeconds(sentAt: readonly string[], now: number): number {
  const recent = sentAt.map((t) => Date.parse(t)).filter((t) => now - t < HOUR_MS).sort((a, b) => a - b);
  if (recent.length < PHONE_CODES_PER_HOUR) return 0;
  // The oldest of the last `limit` codes leaves the window first.
  const oldest = recent[recent.length - PHONE_CODES_PER_HOUR];
  return Math.max(1, Math.ceil((oldest + HOUR_MS - now) / 1000));
}

export type CodeCheck = 'OK' | 'EXPIRED' | 'EXHAUSTED' | 'WRONG';

/** What a submitted code is worth against the pending one (its hash compared by the caller). */
export function checkPhoneCode(pending: { expiresAt: string; attempts: number }, matches: boolean, now: number): CodeCheck {
  if (pending.attempts >= PHONE_CODE_MAX_ATTEMPTS) return 'EXHAUSTED';
  if (Date.parse(pending.expiresAt) <= now) return 'EXPIRED';
  return matches ? 'OK' : 'WRONG';
}

/** Two spellings of one number are the same number (the profile accepts spaces, dashes, brackets). */
export const samePhone = (a: string | null | undefined, b: string | null | undefined) =>
  (a ?? '').replace(/[\s().-]/g, '') === (b ?? '').replace(/[\s().-]/g, '');
