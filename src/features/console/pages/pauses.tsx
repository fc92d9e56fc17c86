// Interrupteurs (/console/pauses, super-admins): pause or resume new checkouts and new payouts of
// each payment provider during its outage (money/pauses.ts, the same rule as PUT /superadmin/pauses).
import { Hono } from 'hono';
import { z } from 'zod';
import { PAUSE_OPERATIONS } from '../../../db/schema';
import { clientIp } from '../../audit/audit';
import { pauseStates, setPause } from '../../money';
import { act, assertSuperAdmin, page, parseForm, view, type ConsoleContext, type ConsoleEnv } from '../console.http';
import { Csrf, Field, shortDate, Table, type FormState } from '../console.layout';

export const pausesRoutes = new Hono<ConsoleEnv>();

const PATH = '/console/pauses';

async function pausesPage(c: ConsoleContext, state?: FormState) {
  assertSuperAdmin(c.get('operator'));
  const v = await view(c);
  const states = await pauseStates(c.get('deps'));
  return page(
    c,
    v,
    v.t('pauses'),
    PATH,
    <section class="card">
      <p class="help">{v.t('pausesHelp')}</p>
      {state?.message && (
        <div class="flash error" role="alert">
          {state.message}
        </div>
      )}
      <Table
        v={v}
        id="pauses"
        columns={[[v.t('provider')], [v.t('operation')], [v.t('status')], [v.t('reason')], [v.t('action')]]}
        rows={states.map((s) => {
          const action = `${PATH}/${s.provider}/${s.operation}`;
          return [
            s.provider,
            v.t(s.operation === 'CHECKOUT' ? 'pauseCheckout' : 'pausePayout'),
            s.paused ? <span class="badge err">{v.t('pausedSince', { date: shortDate(s.pausedAt) })}</span> : <span class="badge ok">{v.t('running')}</span>,
            s.reason ?? '—',
            <form method="post" action={action}>
              <Csrf v={v} action={action} />
              <input type="hidden" name="paused" value={s.paused ? 'false' : 'true'} />
              {!s.paused && <Field name="reason" label={v.t('reason')} idPrefix={`${s.provider}-${s.operation}`} attrs={{ maxlength: 300 }} />}
              <button type="submit" class={s.paused ? 'primary' : 'danger'} aria-label={`${v.t(s.paused ? 'resume' : 'pause')} ${s.provider} ${s.operation}`}>
                {v.t(s.paused ? 'resume' : 'pause')}
              </button>
            </form>,
          ];
        })}
      />
    </section>,
    (state?.status ?? 200) as 200,
  );
}

pausesRoutes.get('/pauses', (c) => pausesPage(c));

const ChangeForm = z.object({ paused: z.enum(['true', 'false']), reason: z.string().trim().max(300).optional() });
const OperationParam = z.enum(PAUSE_OPERATIONS);

pausesRoutes.post('/pauses/:provider/:operation', (c) =>
  act(c, {
    back: PATH,
    again: (state) => pausesPage(c, state),
    run: async (form, op, t) => {
      assertSuperAdmin(op);
      const change = parseForm(ChangeForm, form, t);
      const operation = parseForm(OperationParam, c.req.param('operation'), t);
      const provider = c.req.param('provider');
      const paused = change.paused === 'true';
      await setPause(c.get('deps'), op.user.id, { provider, operation, paused, reason: change.reason || null }, clientIp(c));
      return t(paused ? 'pausedDone' : 'resumedDone', { provider, operation });
    },
  }),
);
