// Rate limits on login, register, forgot-password and verification e-mails, per client IP and per
// e-mail address (the policies and headers are the service's one table, middleware/rate-limit.ts).
// Over the limit: 429 BUSINESS_RULE_VIOLATION with Retry-After.
import type { Deps } from '../../env';
import { consumeRateLimit, POLICIES } from '../../middleware/rate-limit';

export type LimitedAction = 'login' | 'register' | 'forgot-password' | 'verify-email';

/**
 * Counts one attempt against the IP and the email buckets of the action. Requests that did not
 * come through Cloudflare's edge carry no client IP; only the email bucket applies to them.
 */
export async function enforceAuthRateLimit(deps: Deps, action: LimitedAction, ip: string | null, email: string): Promise<void> {
  if (ip) await consumeRateLimit(deps.env, POLICIES.authIp, `${action}:ip:${ip}`, 'request.tooManyAttempts');
  await consumeRateLimit(deps.env, POLICIES.authEmail, `${action}:email:${email}`, 'request.tooManyAttempts');
}
