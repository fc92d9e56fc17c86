// The cron triggers of wrangler.toml, run locally by `npm start` the way production runs them:
// wrangler dev never fires them on its own, so unpaid bookings would never expire and automatic
// payouts never happen. Pure functions (no Node APIs), so the test suite checks them in workerd.

/** The crons of wrangler.toml's top-level [triggers] (`crons = ["..."]`). */
export function cronTriggers(wranglerToml) {
  const section = wranglerToml.match(/^\[triggers\]\s*$([\s\S]*?)(?=^\[|(?![\s\S]))/m);
  const list = section?.[1].match(/^\s*crons\s*=\s*\[([^\]]*)\]/m);
  return list ? [...list[1].matchAll(/"([^"]+)"/g)].map((m) => m[1]) : [];
}

/**
 * How often a cron fires, for the schedules this service uses: every N minutes (`*\/N * * * *`),
 * every minute (`* * * * *`) or at fixed minutes of every hour (`0,30 * * * *`: its shortest gap).
 * Anything else is null: `npm start` then says it cannot run it.
 */
export function cronPeriodMs(cron) {
  const [minute, ...rest] = cron.trim().split(/\s+/);
  if (rest.length !== 4 || rest.some((f) => f !== '*')) return null;
  if (minute === '*') return 60_000;
  const every = minute.match(/^\*\/(\d+)$/);
  if (every && Number(every[1]) > 0) return Number(every[1]) * 60_000;
  if (/^\d+(,\d+)*$/.test(minute)) {
    const minutes = minute.split(',').map(Number).sort((a, b) => a - b);
    if (minutes.some((m) => m > 59)) return null;
    const gaps = minutes.map((m, i) => (i === 0 ? m + 60 - minutes[minutes.length - 1] : m - minutes[i - 1]));
    return Math.min(...gaps.map((g) => (g === 0 ? 60 : g))) * 60_000;
  }
  return null;
}

/** The local URL that fires one cron under wrangler dev (its test-scheduled endpoint). */
export const scheduledUrl = (base, cron) => `${base}/cdn-cgi/local/scheduled?cron=${encodeURIComponent(cron)}`;
