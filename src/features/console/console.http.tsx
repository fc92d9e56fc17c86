// The console's request plumbing: the signed-in operator on every page (303 to the sign-in page
// without one), the page view (words, nonce, CSRF token, flash), the action pipeline (CSRF check,
// one-time form token, the service call, flash and redirect, or the form shown again with its
// errors next to the fields), and the HTML error pages.
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import type { Child } from 'hono/jsx';
import type { z } from 'zod';
import { isProduction } from '../../config';
import type { AppEnv } from '../../env';
import { AppError, accessDenied, msg, type Text } from '../../errors';
import { render } from '../../messages';
import { issueText } from '../../validation';
import { cspNonce } from '../../middleware/content-security-policy';
import { checkFormToken, currentOperator, formToken, isSameOriginPost, spendFormToken, type Operator } from './console-sessions';
import { localeOf, translator, type Locale, type Translate, type WordKey } from './console.i18n';
import { Layout, type Flash, type FormState, type View } from './console.layout';

export type ConsoleEnv = { Bindings: AppEnv['Bindings']; Variables: AppEnv['Variables'] & { operator: Operator } };
export type ConsoleContext = Context<ConsoleEnv>;

const FLASH_COOKIE = 'console_flash';

/** Every console POST, sign-in included: from the console's own origin (else the 403 page). */
export const sameOriginPosts = createMiddleware<ConsoleEnv>(async (c, next) => {
  if (c.req.method === 'POST' && !isSameOriginPost(c)) return csrfRefusal(c);
  await next();
});

/** Every console page but sign-in: the operator of the session, else 303 to /console/login. */
export const requireOperator = createMiddleware<ConsoleEnv>(async (c, next) => {
  const operator = await currentOperator(c);
  if (!operator) return c.redirect('/console/login', 303);
  c.set('operator', operator);
  await next();
});

/** Pages an operator without an authenticator may open in production: enrolment and sign-out. */
const BEFORE_TWO_FACTOR = new Set(['/console/two-factor', '/console/logout']);

/** In production, staff without a TOTP authenticator are sent to enrol before anything else (CONTRACT 27). */
export const requireTwoFactor = createMiddleware<ConsoleEnv>(async (c, next) => {
  if (!c.get('operator').twoFactor && isProduction(c.env) && !BEFORE_TWO_FACTOR.has(c.req.path)) return c.redirect('/console/two-factor', 303);
  await next();
});

export const isSuperAdmin = (op: Operator) => op.user.roles.includes('ROLE_SUPERADMIN');

/** The API gives these pages to super-admins only; the console keeps the same rule. */
export function assertSuperAdmin(op: Operator) {
  if (!isSuperAdmin(op)) throw accessDenied('console.requiresRoleSuperadmin');
}

/** The view of a page: the operator, a fresh CSRF token, and the flash left by the last action. */
export async function view(c: ConsoleContext, flash?: Flash | null): Promise<View> {
  const locale = localeOf(c);
  const op = c.get('operator') as Operator | undefined;
  let carried: Flash | null = null;
  const raw = getCookie(c, FLASH_COOKIE);
  if (raw) {
    deleteCookie(c, FLASH_COOKIE, { path: '/console' });
    try {
      const parsed = JSON.parse(decodeURIComponent(raw)) as Flash;
      if ((parsed.kind === 'ok' || parsed.kind === 'error') && typeof parsed.text === 'string') carried = parsed;
    } catch {
      // a flash that is not ours is ignored
    }
  }
  return {
    t: translator(locale),
    locale,
    nonce: cspNonce(c as unknown as Context<AppEnv>),
    operator: op && { email: op.user.email, name: `${op.user.firstName} ${op.user.lastName}`, superAdmin: isSuperAdmin(op) },
    csrf: op ? (action: string) => formToken(op.session, action) : undefined,
    flash: flash ?? carried,
  };
}

export const page = (c: ConsoleContext, v: View, title: string, active: string, body: Child, status: 200 | 400 | 401 | 403 | 404 | 409 | 422 | 429 | 500 = 200) =>
  c.html(
    <Layout v={v} title={title} active={active}>
      {body}
    </Layout>,
    status,
  );

/** 303 back to a page with a message for it. */
export function redirectWith(c: ConsoleContext, to: string, flash: Flash) {
  setCookie(c, FLASH_COOKIE, encodeURIComponent(JSON.stringify(flash)), {
    path: '/console',
    httpOnly: true,
    sameSite: 'Strict',
    secure: c.env.ENVIRONMENT !== 'development',
    maxAge: 60,
  });
  return c.redirect(to, 303);
}

export async function csrfRefusal(c: ConsoleContext) {
  const v = await view(c);
  return page(
    c,
    v,
    v.t('csrfTitle'),
    '',
    <div class="card">
      <p>{v.t('csrfMessage')}</p>
      <p>
        <a href="/console">{v.t('backToConsole')}</a>
      </p>
    </div>,
    403,
  );
}

/** The form's fields as strings (a repeated field, like roles, as its values joined by commas). */
export async function formOf(c: ConsoleContext): Promise<Record<string, string>> {
  const body = await c.req.parseBody({ all: true });
  const out: Record<string, string> = {};
  for (const [k, value] of Object.entries(body)) {
    out[k] = Array.isArray(value) ? value.filter((x) => typeof x === 'string').join(',') : typeof value === 'string' ? value : '';
  }
  return out;
}

/** Field errors from a zod failure, in the console's words for the common cases. */
export function zodErrors(error: z.ZodError, t: (k: WordKey) => string): Record<string, Text> {
  const errors: Record<string, Text> = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? '_');
    if (errors[field]) continue;
    const tooShort = issue.code === 'too_small' && 'minimum' in issue && Number(issue.minimum) === 1 && issue.origin === 'string';
    errors[field] = tooShort || issue.code === 'invalid_type' ? msg('error.external', { text: t('required') }) : issueText(issue);
  }
  return errors;
}

/**
 * The refusal of a service as a form state: its field errors next to the fields, its message
 * above, in the page's language (the API's own French texts, errors.ts).
 */
export function refusalState(err: AppError, values: Record<string, string>, locale: Locale, form?: string): FormState {
  const errors: Record<string, string> = {};
  for (const f of err.fieldErrors ?? []) errors[f.field] = render(f.message, locale);
  return { values, errors, message: render(err.text, locale), form, status: err.status };
}

export interface Action {
  /** Where to go back to (and the page shown again on a refusal). */
  back: string;
  /** Checks the form and calls the service; returns the success message (`t`: the page's language). */
  run: (form: Record<string, string>, op: Operator, t: Translate) => Promise<string>;
  /** The page again, with the refused form's state. */
  again: (state: FormState) => Promise<Response>;
  /** Which form of the page this is (a page may hold several). */
  form?: string;
}

/**
 * One pipeline for every form post: CSRF (403 page), the form token spent once (a second submit
 * of the same form changes nothing and says so), the service call, then 303 with a flash; a
 * refusal (bad input, a rule, a state conflict) shows the page again with the status of the
 * API's error, the message next to its field and what was typed.
 */
export async function act(c: ConsoleContext, a: Action): Promise<Response> {
  const op = c.get('operator');
  const form = await formOf(c);
  const nonce = await checkFormToken(op.session, form.csrf, c.req.path);
  if (!nonce) return csrfRefusal(c);
  delete form.csrf;
  const locale = localeOf(c);
  const t = translator(locale);
  if (!(await spendFormToken(c.get('deps'), op.session.id, nonce))) return redirectWith(c, a.back, { kind: 'ok', text: t('alreadySubmitted') });
  try {
    const text = await a.run(form, op, t);
    return redirectWith(c, a.back, { kind: 'ok', text });
  } catch (err) {
    if (err instanceof AppError && err.status < 500) {
      return a.again(refusalState(err, form, locale, a.form));
    }
    throw err;
  }
}

/** A form that fails its schema: raised inside `run` so `act` shows it again. */
export class FormInvalid extends AppError {
  constructor(errors: Record<string, Text>) {
    super('VALIDATION_ERROR', 'console.formHasErrors', { fieldErrors: Object.entries(errors).map(([field, message]) => ({ field, message, rejectedValue: null })) });
  }
}

/** The schema's value, or FormInvalid with the console's messages. */
export function parseForm<T extends z.ZodType>(schema: T, input: unknown, t: (k: WordKey) => string): z.infer<T> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw new FormInvalid(zodErrors(parsed.error, t));
  return parsed.data;
}

/** The console's errors as pages: 404 and 403 say so, anything else is a 500 page (logged by onError's caller). */
export async function errorPage(err: unknown, c: ConsoleContext) {
  const v = await view(c).catch(() => null);
  if (!v) return c.text('Error', 500);
  const status = err instanceof AppError && [400, 403, 404, 409, 422].includes(err.status) ? (err.status as 400 | 403 | 404 | 409 | 422) : 500;
  if (status === 500) console.error(JSON.stringify({ level: 'error', requestId: c.get('requestId'), message: String(err instanceof Error ? err.stack : err) }));
  const title = status === 404 ? v.t('notFoundTitle') : v.t('errorTitle');
  return page(
    c,
    v,
    title,
    '',
    <div class="card">
      <p>{status === 500 ? v.t('errorReference', { id: c.get('requestId') ?? '' }) : render((err as AppError).text, v.locale)}</p>
      <p>
        <a href="/console">{v.t('backToConsole')}</a>
      </p>
    </div>,
    status,
  );
}
