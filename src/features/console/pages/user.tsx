// One user (/console/users/:id): the account, suspend or activate it, and (super-admins) its roles
// and the erasure of its personal data (CONTRACT section 24), the export of it for a request by mail (27).
import { Hono } from 'hono';
import { render } from '../../../messages';
import { deletionBlocker, eraseAccountAsOperator } from '../../users/users.service';
import { ROLES, type Role } from '../../../middleware/auth';
import { activateUser, changeRolesAsSuperAdmin, getUser, suspendUser } from '../../admin-users/admin-users.service';
import { SuspendSchema } from '../../admin-users/admin-users.schemas';
import { clientIp } from '../../audit/audit';
import { act, assertSuperAdmin, FormInvalid, isSuperAdmin, page, parseForm, view, type ConsoleContext, type ConsoleEnv } from '../console.http';
import { exportsOf, requestExport } from '../../privacy/export.service';
import { ExportsCard } from './privacy';
import { accountState, Badge, Csrf, Field, shortDate, userName, type FormState, type View } from '../console.layout';
import type { UserRow } from '../../../db/schema';
import { msg } from '../../../errors';
import { pathId } from '../console.params';

export const userRoutes = new Hono<ConsoleEnv>();

async function userPage(c: ConsoleContext, state?: FormState) {
  const op = c.get('operator');
  const user = await getUser(c.get('deps'), pathId(c));
  const v = await view(c, state?.message ? { kind: 'error', text: state.message } : undefined);
  const blocker = isSuperAdmin(op) && !user.deletedAt ? await deletionBlocker(c.get('deps'), user.id) : null;
  const exports = isSuperAdmin(op) && !user.deletedAt ? await exportsOf(c.get('deps'), user.id) : null;
  return page(
    c,
    v,
    `${userName(user)} (#${user.id})`,
    '/console/users',
    <div class="two">
      <section class="card">
        <dl class="facts">
          <dt>{v.t('email')}</dt>
          <dd>{user.email}</dd>
          <dt>{v.t('status')}</dt>
          <dd id="user-status">
            <Badge v={v} kind="account" text={accountState(user)} />
            {user.suspensionReason && ` ${user.suspensionReason}`}
          </dd>
          <dt>{v.t('roles')}</dt>
          <dd>{user.roles.join(', ')}</dd>
          <dt>{v.t('kycStatus')}</dt>
          <dd>
            <Badge v={v} kind="kyc" text={user.kycStatus} />
          </dd>
          <dt>{v.t('created')}</dt>
          <dd>{shortDate(user.createdAt)}</dd>
          <dt>{v.t('lastLogin')}</dt>
          <dd>{shortDate(user.lastLoginAt)}</dd>
        </dl>
      </section>
      <section>
        <div class="card">
          {user.enabled ? (
            <form method="post" action={`/console/users/${user.id}/suspend`}>
              <Csrf v={v} action={`/console/users/${user.id}/suspend`} />
              <Field name="reason" label={v.t('reason')} state={state?.form === 'suspend' ? state : undefined} attrs={{ maxlength: 500 }} />
              <button type="submit" class="danger">
                {v.t('suspend')}
              </button>
            </form>
          ) : (
            <form method="post" action={`/console/users/${user.id}/activate`}>
              <Csrf v={v} action={`/console/users/${user.id}/activate`} />
              <button type="submit" class="primary">
                {v.t('activate')}
              </button>
            </form>
          )}
        </div>
        {isSuperAdmin(op) && (
          <form class="card" method="post" action={`/console/users/${user.id}/roles`}>
            <Csrf v={v} action={`/console/users/${user.id}/roles`} />
            <fieldset style="border:0;padding:0;margin:0 0 12px">
              <legend style="font-weight:600;font-size:13.5px;margin-bottom:6px">{v.t('roles')}</legend>
              {ROLES.map((r) => (
                <div>
                  <input type="checkbox" name="roles" id={`role-${r}`} value={r} checked={user.roles.includes(r)} disabled={r === 'ROLE_CLIENT'} />{' '}
                  <label for={`role-${r}`} style="font-weight:400">
                    {r}
                  </label>
                </div>
              ))}
            </fieldset>
            <button type="submit" class="secondary">
              {v.t('saveRoles')}
            </button>
          </form>
        )}
        {exports && <ExportsCard v={v} userId={user.id} exports={exports} />}
        {isSuperAdmin(op) && <EraseCard v={v} user={user} blocker={blocker && render(blocker, v.locale)} state={state?.form === 'erase' ? state : undefined} />}
      </section>
    </div>,
    (state?.status ?? 200) as 200,
  );
}

/** Erasing the account's personal data: the reason it cannot be yet, or the form confirmed by its e-mail address. */
function EraseCard({ v, user, blocker, state }: { v: View; user: UserRow; blocker: string | null; state?: FormState }) {
  const action = `/console/users/${user.id}/erase`;
  return (
    <section class="card" id="erase" aria-labelledby="erase-title">
      <h2 id="erase-title">{v.t('eraseTitle')}</h2>
      {user.deletedAt ? (
        <p>{v.t('erasedOn', { date: shortDate(user.deletedAt) })}</p>
      ) : (
        <form method="post" action={action}>
          <Csrf v={v} action={action} />
          <p class="help">{v.t('eraseHelp')}</p>
          {blocker && (
            <p class="error-text" id="erase-blocker">
              {v.t('eraseBlocked', { reason: blocker })}
            </p>
          )}
          <Field name="confirmEmail" type="email" label={v.t('eraseConfirm')} state={state} attrs={{ autocomplete: 'off' }} />
          <button type="submit" class="danger">
            {v.t('erase')}
          </button>
        </form>
      )}
    </section>
  );
}

userRoutes.get('/users/:id', (c) => userPage(c));

userRoutes.post('/users/:id/erase', (c) =>
  act(c, {
    back: `/console/users/${pathId(c)}`,
    form: 'erase',
    again: (state) => userPage(c, state),
    run: async (form, op, t) => {
      const user = await getUser(c.get('deps'), pathId(c));
      // A typed address, not a click: erasure cannot be undone.
      if ((form.confirmEmail ?? '').trim().toLowerCase() !== user.email.toLowerCase()) {
        throw new FormInvalid({ confirmEmail: msg('error.external', { text: t('eraseMismatch') }) });
      }
      await eraseAccountAsOperator(c.get('deps'), op.auth, user.id, clientIp(c));
      return t('userErased', { id: user.id });
    },
  }),
);

userRoutes.post('/users/:id/export', (c) =>
  act(c, {
    back: `/console/users/${pathId(c)}#exports`,
    again: (state) => userPage(c, state),
    run: async (_form, op, t) => {
      assertSuperAdmin(op);
      const user = await getUser(c.get('deps'), pathId(c));
      const row = await requestExport(c.get('deps'), user.id, clientIp(c), new Date(), op.user.id);
      return t('exportRequested', { id: row.id });
    },
  }),
);

userRoutes.post('/users/:id/suspend', (c) =>
  act(c, {
    back: `/console/users/${pathId(c)}`,
    form: 'suspend',
    again: (state) => userPage(c, state),
    run: async (form, op, t) => {
      const { reason } = parseForm(SuspendSchema, { reason: form.reason?.trim() ? form.reason : undefined }, t);
      await suspendUser(c.get('deps'), op.auth, pathId(c), reason ?? null, clientIp(c));
      return t('userSuspended', { id: pathId(c) });
    },
  }),
);

userRoutes.post('/users/:id/activate', (c) =>
  act(c, {
    back: `/console/users/${pathId(c)}`,
    again: (state) => userPage(c, state),
    run: async (_form, op, t) => {
      await activateUser(c.get('deps'), op.auth, pathId(c), clientIp(c));
      return t('userActivated', { id: pathId(c) });
    },
  }),
);

userRoutes.post('/users/:id/roles', (c) =>
  act(c, {
    back: `/console/users/${pathId(c)}`,
    again: (state) => userPage(c, state),
    run: async (form, op, t) => {
      const roles = (form.roles ?? '').split(',').filter((r): r is Role => (ROLES as readonly string[]).includes(r));
      await changeRolesAsSuperAdmin(c.get('deps'), op.auth, pathId(c), roles, clientIp(c));
      return t('rolesSaved', { id: pathId(c) });
    },
  }),
);
