// The pages the e-mail links open (root paths, in the reader's language): /verify-email confirms
// the address and says so; /reset-password shows a form with the password rules and posts back
// here, with the error next to its field. On a phone with the app installed the same links open
// the app instead (app-links.routes.ts).
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { html } from 'hono/html';
import type { Locale } from '../../db/schema';
import { createRouter, type AppEnv } from '../../env';
import { AppError, invalidArgument } from '../../errors';
import { htmlPage, htmlResponse } from '../../lib/html-page';
import { localeFromAcceptLanguage } from '../../lib/locale';
import { clientIp } from '../audit/audit';
import { PASSWORD_MIN_LENGTH, PasswordField } from '../users/profile-fields';
import { resetPassword, verifyEmail } from './auth.service';

const TAGS = ['Account pages'];

const TEXT = {
  fr: {
    verified: 'Adresse e-mail confirmée',
    verifiedBody: 'Merci : votre adresse e-mail est confirmée. Vous pouvez revenir à l’application.',
    badLink: 'Lien invalide ou expiré',
    badVerify: 'Ce lien de confirmation est invalide, expiré ou déjà utilisé. Demandez un nouvel e-mail de confirmation depuis l’application.',
    badReset: 'Ce lien de réinitialisation est invalide, expiré ou déjà utilisé. Demandez-en un nouveau depuis l’application.',
    resetTitle: 'Choisir un nouveau mot de passe',
    passwordLabel: 'Nouveau mot de passe',
    rules: 'Entre 10 et 128 caractères, pas un des mots de passe les plus courants.',
    submit: 'Enregistrer le mot de passe',
    tooShort: 'Le mot de passe doit contenir au moins 10 caractères.',
    tooLong: 'Le mot de passe doit contenir au plus 128 caractères.',
    tooCommon: 'Ce mot de passe fait partie des plus courants : choisissez-en un autre.',
    resetDone: 'Mot de passe modifié',
    resetDoneBody: 'Votre nouveau mot de passe est enregistré et vos anciennes sessions sont fermées. Connectez-vous avec lui dans l’application.',
  },
  en: {
    verified: 'Email address confirmed',
    verifiedBody: 'Thank you: your email address is confirmed. You can go back to the app.',
    badLink: 'Invalid or expired link',
    badVerify: 'This confirmation link is invalid, expired or already used. Ask for a new confirmation email from the app.',
    badReset: 'This reset link is invalid, expired or already used. Ask for a new one from the app.',
    resetTitle: 'Choose a new password',
    passwordLabel: 'New password',
    rules: 'Between 10 and 128 characters, not one of the most common passwords.',
    submit: 'Save the password',
    tooShort: 'The password must have at least 10 characters.',
    tooLong: 'The password must have at most 128 characters.',
    tooCommon: 'This password is among the most common passwords: choose another.',
    resetDone: 'Password changed',
    resetDoneBody: 'Your new password is saved and your previous sessions are closed. Log in with it in the app.',
  },
} satisfies Record<Locale, Record<string, string>>;

const localeOf = (c: Context<AppEnv>) => localeFromAcceptLanguage(c.req.header('Accept-Language'));

const STYLE = 'label { display: block; margin-top: 1rem; font-weight: 600; } input { font-size: 1rem; padding: .5rem; width: 100%; box-sizing: border-box; } ' +
  '.rules { color: #555; font-size: .9rem; } .error { color: #b00020; font-size: .9rem; } button { margin-top: 1rem; }';

/** A page in the reader's language. */
const page = (c: Context<AppEnv>, title: string, body: unknown, status: 200 | 400) => {
  c.header('Cache-Control', 'no-store');
  c.header('Referrer-Policy', 'no-referrer'); // the token in the URL never leaves in a Referer
  return c.html(htmlPage(title, body, STYLE, localeOf(c)), status);
};

/** A token that cannot be one (absent, too long) is refused like a spent one, without a lookup. */
const TokenQuery = z.object({ token: z.string().optional().openapi({ param: { name: 'token', in: 'query' }, description: 'The token from the e-mail' }) });
const plausible = (token: string | undefined): token is string => !!token && token.length <= 200;

/** What consumeOneTimeToken throws for an unknown, spent or expired token. */
const isTokenRefusal = (err: unknown) => err instanceof AppError && err.errorCode === 'INVALID_ARGUMENT';

const ResetForm = z.object({
  token: z.string().max(200).openapi({ description: 'The token from the e-mail' }),
  password: z.string().max(1000).openapi({ description: 'The new password: 10 to 128 characters, not one of the most common passwords' }),
});

function resetForm(c: Context<AppEnv>, token: string, error?: string) {
  const t = TEXT[localeOf(c)];
  return html`<form method="post" action="/reset-password" novalidate>
    <input type="hidden" name="token" value="${token}" />
    <label for="password">${t.passwordLabel}</label>
    <input id="password" name="password" type="password" autocomplete="new-password" minlength="${PASSWORD_MIN_LENGTH}" maxlength="128" required
      aria-describedby="password-rules${error ? ' password-error' : ''}" ${error ? html`aria-invalid="true"` : ''} />
    <p id="password-rules" class="rules">${t.rules}</p>
    ${error ? html`<p id="password-error" class="error" role="alert">${error}</p>` : ''}
    <button type="submit">${t.submit}</button>
  </form>`;
}

export const accountPagesRouter = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'verifyEmailPage',
      path: '/verify-email',
      tags: TAGS,
      summary: 'The page of the verification link: confirms the e-mail address and says so (HTML, fr/en)',
      description: 'What the verification e-mail\'s link opens in a browser (a phone with the app opens the app instead): spends the token and marks the e-mail address verified, like POST /auth/verify-email, then says so in an HTML page in the Accept-Language\'s language (French or English). A missing, unknown, expired or used token answers 400 with a page asking for a new e-mail from the app. Not cached, and sends no Referer.',
      security: [],
      request: { query: TokenQuery },
      responses: { 200: htmlResponse('The address is confirmed'), 400: htmlResponse('Invalid, expired or used link') },
    }),
    async (c) => {
      const t = TEXT[localeOf(c)];
      const { token } = c.req.valid('query');
      try {
        if (!plausible(token)) throw invalidArgument('auth.tokenInvalidExpiredAlready');
        await verifyEmail(c.get('deps'), token, clientIp(c));
      } catch (err) {
        if (!isTokenRefusal(err)) throw err;
        return page(c, t.badLink, html`<p id="outcome">${t.badVerify}</p>`, 400);
      }
      return page(c, t.verified, html`<p id="outcome">${t.verifiedBody}</p>`, 200);
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'resetPasswordPage',
      path: '/reset-password',
      tags: TAGS,
      summary: 'The page of the password reset link: a form with the password rules (HTML, fr/en)',
      description: 'What the reset e-mail\'s link opens in a browser: an HTML form (French or English, by Accept-Language) for the new password, with its rules (10 to 128 characters, not a common password), posting to POST /reset-password. The token is only checked when the form is posted; a missing or implausible one answers 400 with a page asking for a new link. Not cached, and sends no Referer.',
      security: [],
      request: { query: TokenQuery },
      responses: { 200: htmlResponse('The form'), 400: htmlResponse('No usable token in the link') },
    }),
    (c) => {
      const t = TEXT[localeOf(c)];
      const { token } = c.req.valid('query');
      if (!plausible(token)) return page(c, t.badLink, html`<p id="outcome">${t.badReset}</p>`, 400);
      return page(c, t.resetTitle, resetForm(c, token), 200);
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      operationId: 'submitResetPasswordPage',
      path: '/reset-password',
      tags: TAGS,
      summary: 'The reset form posted: sets the new password, or shows the error next to its field (HTML, fr/en)',
      description: 'The form of GET /reset-password, posted as application/x-www-form-urlencoded: a password breaking the rules shows the form again with the error next to the field (400); otherwise it resets the password like POST /auth/password/reset (every session revoked, a PASSWORD_CHANGED e-mail queued) and answers a confirmation page. An unknown, expired or used token answers 400 with a page asking for a new link.',
      security: [],
      request: { body: { required: true, content: { 'application/x-www-form-urlencoded': { schema: ResetForm } } } },
      responses: { 200: htmlResponse('Password changed'), 400: htmlResponse('The form again with the error, or the link is no longer valid') },
    }),
    async (c) => {
      const t = TEXT[localeOf(c)];
      const { token, password } = c.req.valid('form');
      const rule = PasswordField.safeParse(password);
      if (!rule.success) return page(c, t.resetTitle, resetForm(c, token, password.length < PASSWORD_MIN_LENGTH ? t.tooShort : password.length > 128 ? t.tooLong : t.tooCommon), 400);
      try {
        if (!plausible(token)) throw invalidArgument('auth.tokenInvalidExpiredAlready');
        await resetPassword(c.get('deps'), token, password, clientIp(c));
      } catch (err) {
        if (!isTokenRefusal(err)) throw err;
        return page(c, t.badLink, html`<p id="outcome">${t.badReset}</p>`, 400);
      }
      return page(c, t.resetDone, html`<p id="outcome">${t.resetDoneBody}</p>`, 200);
    },
  );
