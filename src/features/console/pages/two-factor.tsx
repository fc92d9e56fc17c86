// Double authentification (/console/two-factor, every operator): enrol a TOTP authenticator (the
// QR of its otpauth:// URI and the key as text, confirmed by a first code), then the ten recovery
// codes, shown once. In production an operator without one is sent here before any other page
// (requireTwoFactor, console.http.tsx). The rules are auth/two-factor.ts, shared with the API's login.
import { Hono } from 'hono';
import { renderSVG } from 'uqr';
import { AppError } from '../../../errors';
import { render } from '../../../messages';
import { clientIp } from '../../audit/audit';
import { beginEnrolment, confirmEnrolment, twoFactorStatus } from '../../auth/two-factor';
import { checkFormToken, spendFormToken } from '../console-sessions';
import { csrfRefusal, formOf, page, redirectWith, view, type ConsoleContext, type ConsoleEnv } from '../console.http';
import { localeOf, translator } from '../console.i18n';
import { Csrf, Field, shortDate, type FormState, type View } from '../console.layout';

export const twoFactorRoutes = new Hono<ConsoleEnv>();

const PATH = '/console/two-factor';

async function enrolPage(c: ConsoleContext, v: View, state?: FormState, status: 200 | 400 | 401 | 409 = 200) {
  const op = c.get('operator');
  const status2 = await twoFactorStatus(c.get('deps'), op.user.id);
  if (status2.enrolled) {
    return page(
      c,
      v,
      v.t('totpTitle'),
      PATH,
      <section class="card" id="totp-status">
        <p>{v.t('totpEnrolled', { date: shortDate(status2.confirmedAt), n: status2.recoveryCodesLeft })}</p>
      </section>,
    );
  }
  const { secret, uri } = await beginEnrolment(c.get('deps'), op.user);
  return page(
    c,
    v,
    v.t('totpTitle'),
    PATH,
    <section class="card" id="totp-enrol">
      {!op.twoFactor && <p class="help">{v.t('totpRequiredHere')}</p>}
      <p>{v.t('totpScan')}</p>
      <div id="totp-qr" style="max-width:220px" dangerouslySetInnerHTML={{ __html: renderSVG(uri, { border: 2 }) }} />
      <p>
        {v.t('totpKey')}: <code class="addr" id="totp-key">{secret.match(/.{1,4}/g)!.join(' ')}</code>
      </p>
      {state?.message && (
        <div class="flash error" role="alert">
          {state.message}
        </div>
      )}
      <form method="post" action={PATH} novalidate>
        <Csrf v={v} action={PATH} />
        <Field name="code" label={v.t('totpCode')} state={state} required attrs={{ autocomplete: 'one-time-code', inputmode: 'numeric', maxlength: 6 }} />
        <button type="submit" class="primary">
          {v.t('totpConfirm')}
        </button>
      </form>
    </section>,
    status as 200,
  );
}

twoFactorRoutes.get('/two-factor', async (c) => enrolPage(c, await view(c)));

twoFactorRoutes.post('/two-factor', async (c) => {
  const op = c.get('operator');
  const form = await formOf(c);
  const nonce = await checkFormToken(op.session, form.csrf, c.req.path);
  if (!nonce) return csrfRefusal(c);
  const deps = c.get('deps');
  const t = translator(localeOf(c));
  if (!(await spendFormToken(deps, op.session.id, nonce))) return redirectWith(c, PATH, { kind: 'ok', text: t('alreadySubmitted') });
  let codes: string[];
  try {
    codes = await confirmEnrolment(deps, op.user.id, form.code ?? '', clientIp(c));
  } catch (err) {
    if (err instanceof AppError && err.status < 500) {
      const message = render(err.text, localeOf(c));
      return enrolPage(c, await view(c), { values: {}, errors: { code: message } }, err.status as 401);
    }
    throw err;
  }
  // The codes are shown on this answer only: no redirect, nothing stored but their hashes.
  const v = await view(c, { kind: 'ok', text: t('totpDone') });
  return page(
    c,
    v,
    v.t('totpTitle'),
    PATH,
    <section class="card" id="totp-recovery">
      <h2>{v.t('totpRecoveryTitle')}</h2>
      <p class="help">{v.t('totpRecoveryHelp')}</p>
      <ul class="addr">
        {codes.map((code) => (
          <li>{code}</li>
        ))}
      </ul>
      <p>
        <a href="/console">{v.t('backToConsole')}</a>
      </p>
    </section>,
  );
});
