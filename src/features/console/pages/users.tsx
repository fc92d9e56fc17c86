// The users (/console/users): search by name or e-mail (an id opens the user), filter by state and role.
import { Hono } from 'hono';
import { ROLES } from '../../../middleware/auth';
import { listUsers, USER_SEARCH_MAX_LENGTH, USER_SORT_FIELDS } from '../../admin-users/admin-users.service';
import { page, view, type ConsoleEnv } from '../console.http';
import { accountState, Badge, Field, ListCard, pageInfo, Select, shortDate, userName } from '../console.layout';
import { listPage, oneOf } from '../console.params';

export const usersRoutes = new Hono<ConsoleEnv>();

const usersPaging = listPage(USER_SORT_FIELDS, 'createdAt,desc');

usersRoutes.get('/users', async (c) => {
  const v = await view(c);
  // The field stops at the search's limit; a longer query string (typed by hand) is cut there, never a 500.
  const q = (c.req.query('q') ?? '').trim().slice(0, USER_SEARCH_MAX_LENGTH);
  if (/^\d{1,9}$/.test(q)) return c.redirect(`/console/users/${q}`, 303);
  const state = c.req.query('state');
  const role = oneOf(ROLES, c.req.query('role'));
  const p = usersPaging(c);
  const filters = { q: q || undefined, role, enabled: state === 'active' ? true : state === 'suspended' ? false : undefined };
  const { rows, total } = await listUsers(c.get('deps'), filters, p);
  return page(
    c,
    v,
    v.t('users'),
    '/console/users',
    <ListCard
      v={v}
      path="/console/users"
      search
      filters={
        <>
          <Field name="q" type="search" label={v.t('search')} value={q} idPrefix="q" attrs={{ placeholder: v.t('searchUsers') }} />
          <Select name="state" label={v.t('status')} value={state ?? ''} options={[['', v.t('all')], ['active', v.t('enabled')], ['suspended', v.t('suspended')]]} />
          <Select name="role" label={v.t('roles')} value={role ?? ''} options={[['', v.t('all')], ...ROLES.map((r): [string, string] => [r, r])]} />
        </>
      }
      query={{ q, state, role }}
      page={pageInfo(p, total)}
      columns={[[v.t('id')], [v.t('name')], [v.t('status')], [v.t('roles'), 'wide'], [v.t('kycStatus'), 'wide'], [v.t('lastLogin'), 'wide']]}
      rows={rows.map((u) => [
        u.id,
        <>
          <a href={`/console/users/${u.id}`}>{userName(u)}</a>
          <br />
          <span class="muted">{u.email}</span>
        </>,
        <Badge v={v} kind="account" text={accountState(u)} />,
        u.roles.filter((r) => r !== 'ROLE_CLIENT').join(', ') || 'ROLE_CLIENT',
        <Badge v={v} kind="kyc" text={u.kycStatus} />,
        shortDate(u.lastLoginAt),
      ])}
    />,
  );
});
