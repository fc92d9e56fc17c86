// Pure parts of the admin analytics: the period of a query (dates to an ISO half-open range), its
// bounds per interval, and the buckets of a time series (so empty buckets show as zero).
export const INTERVALS = ['day', 'week', 'month'] as const;
export type Interval = (typeof INTERVALS)[number];

export const METRICS = ['users', 'announcements', 'reservations', 'grossVolume', 'platformRevenue', 'refunds'] as const;
export type Metric = (typeof METRICS)[number];

/** Longest range (days, both ends included) per interval: a series never exceeds a few hundred points. */
export const MAX_RANGE_DAYS: Record<Interval, number> = { day: 366, week: 366 * 3, month: 366 * 10 };
/** The overview's longest range. */
export const MAX_OVERVIEW_DAYS = 366 * 10;
export const DEFAULT_RANGE_DAYS = 30;

const DAY_MS = 86_400_000;
const parse = (date: string) => Date.parse(`${date}T00:00:00.000Z`);
export const addDays = (date: string, days: number) => new Date(parse(date) + days * DAY_MS).toISOString().slice(0, 10);
export const today = () => new Date().toISOString().slice(0, 10);

/** Days covered by [from, to], both included. */
export const rangeDays = (from: string, to: string) => Math.round((parse(to) - parse(from)) / DAY_MS) + 1;

export interface Period {
  from: string;
  to: string;
  /** created_at >= fromIso AND created_at < toIso (ISO text compares in time order). */
  fromIso: string;
  toIso: string;
}

export function period(from: string | undefined, to: string | undefined): Period {
  const end = to ?? (from ? addDays(from, DEFAULT_RANGE_DAYS - 1) : today());
  const start = from ?? addDays(end, -(DEFAULT_RANGE_DAYS - 1));
  return { from: start, to: end, fromIso: `${start}T00:00:00.000Z`, toIso: `${addDays(end, 1)}T00:00:00.000Z` };
}

/** The bucket a date falls in: the day itself, the Monday of its week, the first of its month. */
export function bucketOf(date: string, interval: Interval): string {
  if (interval === 'day') return date;
  if (interval === 'month') return `${date.slice(0, 7)}-01`;
  const weekday = (new Date(parse(date)).getUTCDay() + 6) % 7; // Monday = 0
  return addDays(date, -weekday);
}

/** Every bucket start of [from, to], in order. */
export function buckets(from: string, to: string, interval: Interval): string[] {
  const out: string[] = [];
  let b = bucketOf(from, interval);
  while (b <= to) {
    out.push(b);
    b = interval === 'day' ? addDays(b, 1) : interval === 'week' ? addDays(b, 7) : nextMonth(b);
  }
  return out;
}

function nextMonth(first: string): string {
  const d = new Date(parse(first));
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)).toISOString().slice(0, 10);
}
