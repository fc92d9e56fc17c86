/** The daily slot of a cron that fires every 5 minutes: the run scheduled within 03:00-03:04 UTC (retention, reconciliation). */
export const isDailySlot = (at: Date) => at.getUTCHours() === 3 && at.getUTCMinutes() < 5;
