// Sign-in (the one console page without an operator): the e-mail and password of an operator
// account, with the API's rate limit and lockout, then, for an operator with an authenticator,
// its code (or a recovery code) on a second form; and sign-out.
import { Hono } from 'hono';
import { z } from 'zod';
import type { UserRow } from '../../../db/schema';
import { AppError } from '../../../errors';
import { render } from '../../../messages';
import { audit, clientIp } from '../../audit/audit';
import { checkCredentials } from '../../auth/auth.service';
import { spendSecondFactor, twoFactorStatus } from '../../auth/two-factor';
import { loadUser } from '../../users/user-rows';
import { enforceAuthRateLimit } from '../../auth/rate-limit';
import { normalizeEmail } from '../../users/profile-fields';
import {
  checkFormToken,
  closeConsoleSession,
  forgetOldFormTokens,
  isOperator,
  loginToken,
  loginTokenMatches,
  openConsoleSession,
  secondStepToken,
  secondStepUser,
} from '../console-sessions';
import { csrfRefusal, formOf, page, refusalState, view, type ConsoleContext, type ConsoleEnv } from '../console.http';
import { localeOf, translator } from '../console.i18n';
import { Field, type FormState } from '../console.layout';

export const signInRoutes = new Hono<ConsoleEnv>();

const LoginSchema = z.object({ email: z.string().trim().min(1).email(), password: z.string().min(1).max(128) });

async function loginPage(c: ConsoleContext, state?: FormState, status: 200 | 400 | 401 | 403 | 429 = 200) {
  const v = await view(c);
  const token = await loginToken(c);
  return page(
    c,
    v,
    v.t('signInTitle'),
    '',
    <form method="post" action="/console/login" class="card login" novalidate>
      <p class="muted">{v.t('signInHelp')}</p>
      {state?.message && (
        <div class="flash error" role="alert">
          {state.message}
        </div>
      )}
      <input type="hidden" name="csrf" value={token} />
      <Field name="email" type="email" label={v.t('email')} state={state} required attrs={{ autocomplete: 'username' }} />
      <Field name="password" type="password" label={v.t('password')} state={state && { ...state, values: {} }} required attrs={{ autocomplete: 'current-password' }} />
      <button type="submit" class="primary">
        {v.t('signIn')}
      </button>
    </form>,
    status as 200,
  );
}

/** The second step: the authenticator's code, for the operator named by the (signed, 5-minute) challenge. */
async function codePage(c: ConsoleContext, challenge: string, message?: string, status: 200 | 401 | 429 = 200) {
  const v = await view(c);
  const token = await loginToken(c);
  return page(
    c,
    v,
    v.t('signInTitle'),
    '',
    <form method="post" action="/console/login/code" class="card login" novalidate>
      <p class="muted">{v.t('totpSignInHelp')}</p>
      {message && (
        <div class="flash error" role="alert">
          {message}
        </div>
      )}
      <input type="hidden" name="csrf" value={token} />
      <input type="hidden" name="challenge" value={challenge} />
      <Field name="code" label={v.t('totpCode')} required attrs={{ autocomplete: 'one-time-code', inputmode: 'numeric', autofocus: true }} />
      <button type="submit" class="primary">
        {v.t('signIn')}
      </button>
    </form>,
    status as 200,
  );
}

signInRoutes.get('/login', async (c) => loginPage(c));

signInRoutes.post('/login/code', async (c) => {
  const form = await formOf(c);
  if (!(await loginTokenMatches(c, form.csrf))) return csrfRefusal(c);
  const t = translator(localeOf(c));
  const userId = await secondStepUser(c.env, form.challenge);
  // An expired or forged challenge starts again from the password.
  if (userId === null) return loginPage(c, { values: {}, errors: {}, message: t('totpChallengeExpired') }, 401);
  const deps = c.get('deps');
  const ip = clientIp(c);
  const user = await loadUser(deps, userId);
  if (!user) return loginPage(c, { values: {}, errors: {}, message: t('totpChallengeExpired') }, 401);
  try {
    await enforceAuthRateLimit(deps, 'login', ip, user.email);
  } catch (err) {
    if (err instanceof AppError && err.status === 429) {
      for (const [name, value] of Object.entries(err.headers ?? {})) c.header(name, value);
      return codePage(c, form.challenge!, render(err.text, localeOf(c)), 429);
    }
    throw err;
  }
  if (!user.enabled || !isOperator(user.roles) || !(await spendSecondFactor(deps, user.id, form.code ?? '', ip))) {
    await audit(deps, { actorId: user.id, action: 'LOGIN_FAILURE', targetType: 'USER', targetId: user.id, ip, details: { reason: 'wrong second factor', console: true } });
    return codePage(c, form.challenge!, t('totpWrong'), 401);
  }
  return signedIn(c, user);
});

signInRoutes.post('/login', async (c) => {
  const form = await formOf(c);
  if (!(await loginTokenMatches(c, form.csrf))) return csrfRefusal(c);
  const t = translator(localeOf(c));
  const values = { email: form.email ?? '' };
  const parsed = LoginSchema.safeParse(form);
  if (!parsed.success) {
    const errors: Record<string, string> = {};
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0]);
      errors[field] ??= field === 'email' && form.email ? t('invalidEmail') : t('required');
    }
    return loginPage(c, { values, errors }, 400);
  }
  const deps = c.get('deps');
  const ip = clientIp(c);
  try {
    await enforceAuthRateLimit(deps, 'login', ip, normalizeEmail(parsed.data.email));
    const { user } = await checkCredentials(deps, parsed.data, ip);
    if (!isOperator(user.roles)) {
      await audit(deps, { actorId: user.id, action: 'CONSOLE_LOGIN_REFUSED', targetType: 'USER', targetId: user.id, ip, details: { reason: 'not an operator' } });
      return loginPage(c, { values, errors: {}, message: t('notOperator') }, 403);
    }
    if ((await twoFactorStatus(deps, user.id)).enrolled) return codePage(c, await secondStepToken(c.env, user.id));
    return await signedIn(c, user);
  } catch (err) {
    if (err instanceof AppError && err.status < 500) {
      // The lockout's 429 says when to come back, as the API's does.
      for (const [name, value] of Object.entries(err.headers ?? {})) c.header(name, value);
      return loginPage(c, refusalState(err, values, localeOf(c)), err.status as 401);
    }
    throw err;
  }
});

async function signedIn(c: ConsoleContext, user: UserRow) {
  const deps = c.get('deps');
  await forgetOldFormTokens(deps);
  await openConsoleSession(c, user);
  await audit(deps, { actorId: user.id, action: 'CONSOLE_LOGIN', targetType: 'USER', targetId: user.id, ip: clientIp(c) });
  return c.redirect('/console', 303);
}

/** Sign-out: mounted behind the operator check, as every page but sign-in. */
export const signOutRoutes = new Hono<ConsoleEnv>();

signOutRoutes.post('/logout', async (c) => {
  const op = c.get('operator');
  const form = await formOf(c);
  if (!(await checkFormToken(op.session, form.csrf, c.req.path))) return csrfRefusal(c);
  await closeConsoleSession(c, op);
  await audit(c.get('deps'), { actorId: op.user.id, action: 'CONSOLE_LOGOUT', targetType: 'USER', targetId: op.user.id, ip: clientIp(c) });
  return c.redirect('/console/login', 303);
});
