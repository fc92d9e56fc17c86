// Types of local-cron.mjs for the test suite.
export function cronTriggers(wranglerToml: string): string[];
export function cronPeriodMs(cron: string): number | null;
export function scheduledUrl(base: string, cron: string): string;
