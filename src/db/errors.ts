// Recognising database constraint failures through drizzle's error wrapping.

/** True when the error (or any cause in its chain) is a UNIQUE constraint failure. */
export function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) {
    if (e instanceof Error && /UNIQUE constraint failed/i.test(e.message)) return true;
  }
  return false;
}

/** True when the error (or any cause in its chain) is a CHECK constraint failure (a wallet driven below zero). */
export function isCheckViolation(err: unknown): boolean {
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) {
    if (e instanceof Error && /CHECK constraint failed/i.test(e.message)) return true;
  }
  return false;
}
