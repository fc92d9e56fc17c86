// One user (/console/users/:id): the account, suspend or activate it, and (super-admins) its roles.
import { Hono } from 'hono';
import { ROLES, type Role } from '../../../middleware/auth';
import { activateUser, changeRolesAsSuperAdmin, getUser, suspendUser } from '../../admin-users/admin-users.service';
import { SuspendSchema } from '../../admin-users/admin-users.schemas';
import { clientIp } from '../../audit/audit';
import { act, isSuperAdmin, page, parseForm, view, type ConsoleContext, type ConsoleEnv } from '../console.http';
import { accountState, Badge, Csrf, Field, shortDate, userName, type FormState } from '../console.layout';
import { pathId } from '../console.params';

export const userRoutes = new Hono<ConsoleEnv>();

async function userPage(c: ConsoleContext, state?: FormState) {
  const op = c.get('operator');
  const user = await getUser(c.var.deps, pathId(c));
  const v = await view(c, state?.message ? { kind: 'error', text: state.message } : undefined);
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
      </section>
    </div>,
    (state?.status ?? 200) as 200,
  );
}

userRoutes.get('/users/:id', (c) => userPage(c));

userRoutes.post('/users/:id/suspend', (c) =>
  act(c, {
    back: `/console/users/${pathId(c)}`,
    form: 'suspend',
    again: (state) => userPage(c, state),
    run: async (form, op, t) => {
      const { reason } = parseForm(SuspendSchema, { reason: form.reason?.trim() ? form.reason : undefined }, t);
      await suspendUser(c.var.deps, op.auth, pathId(c), reason ?? null, clientIp(c));
      return t('userSuspended', { id: pathId(c) });
    },
  }),
);

userRoutes.post('/users/:id/activate', (c) =>
  act(c, {
    back: `/console/users/${pathId(c)}`,
    again: (state) => userPage(c, state),
    run: async (_form, op, t) => {
      await activateUser(c.var.deps, op.auth, pathId(c), clientIp(c));
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
      await changeRolesAsSuperAdmin(c.var.deps, op.auth, pathId(c), roles, clientIp(c));
      return t('rolesSaved', { id: pathId(c) });
    },
  }),
);
