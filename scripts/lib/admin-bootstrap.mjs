// The first super-admin (CONTRACT section 27), for `npm run admin:bootstrap`: the arguments, the
// SQL that reads the account and the super-admins there are, the decision, and the SQL that
// promotes it with its audit entry. Pure (no Node APIs), so the test suite runs this very SQL on
// a real D1 in workerd (test/ops-scripts.bootstrap.test.ts); scripts/admin-bootstrap.mjs runs it
// with `wrangler d1 execute`, which takes no bound parameters: the one value from outside, the
// e-mail address, is checked for shape and written as an SQL string literal (quotes doubled).

/** The order src/middleware/auth.ts ROLES keeps roles in (the test checks they agree). */
export const ROLE_ORDER = ['ROLE_CLIENT', 'ROLE_VERIFIED_USER', 'ROLE_AGENCY_OWNER', 'ROLE_AGENCY_EMPLOYEE', 'ROLE_ADMIN', 'ROLE_SUPERADMIN'];

export const USAGE = 'npm run admin:bootstrap -- --email <address> [--local | --remote] [--env <name>] [--persist-to <dir>] [--force]';

/** An SQL string literal. */
const literal = (text) => `'${String(text).replace(/'/g, "''")}'`;

/** The options, or `{ error }` naming what is wrong. Default target: --local (never production by accident). */
export function parseBootstrapArgs(argv) {
  const out = { email: null, target: 'local', env: null, persistTo: null, force: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined || v.startsWith('--')) throw new Error(`${arg} needs a value`);
      return v;
    };
    try {
      if (arg === '--email') out.email = value().trim().toLowerCase();
      else if (arg.startsWith('--email=')) out.email = arg.slice(8).trim().toLowerCase();
      else if (arg === '--local' || arg === '--remote') out.target = arg.slice(2);
      else if (arg === '--env') out.env = value();
      else if (arg === '--persist-to') out.persistTo = value();
      else if (arg === '--force') out.force = true;
      else return { error: `unknown argument ${arg}` };
    } catch (err) {
      return { error: err.message };
    }
  }
  if (!out.email) return { error: '--email is required' };
  // The shape the API accepts (src/features/users/profile-fields.ts), and nothing an SQL literal could misread.
  if (out.email.length > 254 || !/^[^\s@;\\]+@[^\s@;\\]+\.[^\s@;\\]+$/.test(out.email)) return { error: `--email "${out.email}" is not an e-mail address` };
  if (out.persistTo && out.target !== 'local') return { error: '--persist-to is for --local only' };
  return out;
}

const SUPERADMIN = `EXISTS (SELECT 1 FROM json_each(u.roles) WHERE value = 'ROLE_SUPERADMIN')`;

/** One row: the account (null columns when there is none) and the live super-admins' e-mails. */
export function lookupSql(email) {
  return (
    `SELECT (SELECT json_group_array(u.email) FROM users u WHERE u.deleted_at IS NULL AND ${SUPERADMIN}) AS superadmins, ` +
    `a.id, a.email, a.email_verified, a.enabled, a.deleted_at, a.roles ` +
    `FROM (SELECT 1) LEFT JOIN users a ON a.email = ${literal(email)}`
  );
}

/**
 * What to do with the lookup's row: `{ refuse }` (a sentence), `{ done }` (already a super-admin,
 * nothing to write) or `{ promote: { id, before, after } }`.
 */
export function decide(row, { email, force }) {
  const superadmins = JSON.parse(row?.superadmins ?? '[]');
  if (!row || row.id === null || row.id === undefined) return { refuse: `no account with the e-mail ${email}: register it first (the app, or POST /v1/api/auth/register), verify its address, then run this again` };
  if (row.deleted_at) return { refuse: `the account ${email} was deleted` };
  if (!row.email_verified) return { refuse: `the account ${email} has not verified its e-mail address: open the verification link it was sent, then run this again` };
  if (!row.enabled) return { refuse: `the account ${email} is suspended` };
  const before = JSON.parse(row.roles);
  if (before.includes('ROLE_SUPERADMIN')) return { done: `${email} is already a super-admin: nothing changed` };
  if (superadmins.length > 0 && !force) {
    return { refuse: `a super-admin already exists (${superadmins.join(', ')}): they grant roles from the console or PUT /v1/api/superadmin/users/{id}/roles; --force adds one anyway` };
  }
  const after = ROLE_ORDER.filter((r) => r === 'ROLE_SUPERADMIN' || before.includes(r)).concat(before.filter((r) => !ROLE_ORDER.includes(r)));
  return { promote: { id: row.id, before, after } };
}

/**
 * The promotion and its audit entry, in one request: the update is a compare-and-set on the roles
 * read (and, without --force, on there being still no super-admin), and the audit entry is written
 * only if the update changed the row (`changes() = 1`).
 */
export function promoteSql({ id, before, after }, { force, at = new Date().toISOString() }) {
  const noneYet = force ? '' : ` AND NOT EXISTS (SELECT 1 FROM users u WHERE u.deleted_at IS NULL AND ${SUPERADMIN})`;
  const details = JSON.stringify({ before, after, added: ['ROLE_SUPERADMIN'], removed: [], via: 'admin:bootstrap', force });
  return [
    `UPDATE users SET roles = json(${literal(JSON.stringify(after))}), updated_at = ${literal(at)} WHERE id = ${Number(id)} AND json(roles) = json(${literal(JSON.stringify(before))})${noneYet}`,
    `INSERT INTO audit_logs (actor_id, action, target_type, target_id, ip, details, created_at) SELECT NULL, 'ROLES_CHANGED', 'USER', ${literal(String(id))}, NULL, ${literal(details)}, ${literal(at)} WHERE changes() = 1`,
  ];
}
