// A clock that moves one second at every read (Date.now() and new Date()): any two reads of one
// operation straddle a second, as they sometimes do on a loaded machine. Code that means one
// instant but reads the clock twice then shows it every time instead of once in a thousand runs.
import { vi } from 'vitest';

export function steppingClock(startMs = Date.UTC(2026, 11, 7, 3, 0, 0, 999), stepMs = 1000): () => void {
  const RealDate = Date;
  let t = startMs;
  const read = () => {
    const value = t;
    t += stepMs;
    return value;
  };
  class SteppingDate extends RealDate {
    constructor(...args: unknown[]) {
      if (args.length === 0) super(read());
      else super(...(args as [number]));
    }
    static override now() {
      return read();
    }
  }
  vi.stubGlobal('Date', SteppingDate);
  return () => vi.unstubAllGlobals();
}
