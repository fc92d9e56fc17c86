// The mobile-money rails configured, behind the port (port.ts): which rail reaches an operator, and
// every operator with its limits. Features look operators up here and never name a rail.
import type { MobileMoneyRail, Operator } from './port';

export interface MobileMoneyRails {
  /** Every rail configured, in the order their methods are listed. */
  readonly all: readonly MobileMoneyRail[];
  /** The rail of that code (as stored on payment sessions and operations); null when not configured. */
  rail(code: string): MobileMoneyRail | null;
  /** Every operator of every rail. */
  operators(): Promise<Operator[]>;
  /** The operator `code` (in `country` when given), or null when no rail reaches it. */
  operator(code: string, country?: string | null): Promise<Operator | null>;
}

export function railsOf(all: readonly MobileMoneyRail[]): MobileMoneyRails {
  let operators: Promise<Operator[]> | undefined;
  const list = () =>
    (operators ??= Promise.all(all.map((r) => r.operators())).then((lists) => lists.flat())).catch((err) => {
      operators = undefined; // a rail's configuration unreachable now: asked again next time
      throw err;
    });
  return {
    all,
    rail: (code) => all.find((r) => r.code === code.toUpperCase()) ?? null,
    operators: list,
    async operator(code, country) {
      const found = (await list()).filter((o) => o.code === code && (!country || o.country === country));
      return found[0] ?? null;
    },
  };
}
