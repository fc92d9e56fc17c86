// Rate limits on login, register and forgot-password, per client IP and per email, with the
// Workers rate-limiting bindings (fixed windows of 60 s). Over the limit: 429
// BUSINESS_RULE_VIOLATION with Retry-After.
import type { Deps } from '../../env';
import { tooManyRequests } from '../../errors';

export type LimitedAction = 'login' | 'register' | 'forgot-password' | 'verify-email';

/** The bindings' window (wrangler.toml `simple.period`); a client waits at most this long. */
export const RATE_LIMIT_PERIOD_SECONDS = 60;

const tooMany = () =>
  tooManyRequests('Too many attempts; retry later', RATE_LIMIT_PERIOD_SECONDS, {
    suggestions: [`Wait ${RATE_LIMIT_PERIOD_SECONDS} seconds before retrying`],
  });

/**
 * Counts one attempt against the IP and the email buckets of the action. Requests that did not
 * come through Cloudflare's edge carry no client IP; only the email bucket applies to them.
 */
export async function enforceAuthRateLimit(deps: Deps, action: LimitedAction, ip: string | null, email: string): Promise<void> {
  const { env } = deps;
  if (ip) {
    const { success } = await env.AUTH_IP_RATE_LIMITER.limit({ key: `${action}:ip:${ip}` });
    if (!success) throw tooMany();
  }
  const { success } = await env.AUTH_EMAIL_RATE_LIMITER.limit({ key: `${action}:email:${email}` });
  if (!success) throw tooMany();
}
