// `npm run admin:bootstrap -- --email <address> [--local | --remote] [--env <name>] [--force]`:
// the first super-admin (CONTRACT section 27, docs/DEPLOY.md), without hand-written SQL. Promotes
// an existing, verified, active account to ROLE_SUPERADMIN, audited (ROLES_CHANGED, via
// admin:bootstrap); refuses when a super-admin already exists unless --force. Runs on the local D1
// of this checkout (`npm start`'s, or --persist-to) or, with --remote, on the D1 of wrangler.toml
// (--env production / staging) through `wrangler d1 execute`. The rules and the SQL are in
// scripts/lib/admin-bootstrap.mjs (tested on a real D1).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { decide, lookupSql, parseBootstrapArgs, promoteSql, USAGE } from './lib/admin-bootstrap.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

const options = parseBootstrapArgs(process.argv.slice(2));
if (options.error) {
  console.error(`✗ ${options.error}\n  ${USAGE}`);
  process.exit(2);
}

/** Runs SQL with wrangler on the chosen database; the result sets of its statements. */
function d1(sql) {
  const args = ['d1', 'execute', 'DB', `--${options.target}`, '--json', '--command', sql];
  if (options.env) args.push('--env', options.env);
  if (options.persistTo) args.push('--persist-to', options.persistTo);
  if (options.target === 'remote') args.push('--yes');
  const run = spawnSync(`${ROOT}node_modules/.bin/wrangler`, args, { cwd: ROOT, encoding: 'utf8', env: { ...process.env, CI: 'true' } });
  if (run.status !== 0) {
    console.error(`✗ wrangler d1 execute failed (${run.status}): ${(run.stderr || run.stdout).trim().slice(-600)}`);
    process.exit(1);
  }
  const parsed = JSON.parse(run.stdout.slice(run.stdout.indexOf('[')));
  return parsed.map((r) => r.results ?? []);
}

const where = `${options.target} D1${options.env ? ` (env ${options.env})` : ''}`;
const [[row]] = d1(lookupSql(options.email));
const decision = decide(row, options);
if (decision.refuse) {
  console.error(`✗ ${decision.refuse} (${where})`);
  process.exit(1);
}
if (decision.done) {
  console.log(`✓ ${decision.done} (${where})`);
  process.exit(0);
}
d1(promoteSql(decision.promote, options).join(';\n'));
// Read back: the compare-and-set may have lost to a concurrent change (then nothing was written).
const [[after]] = d1(lookupSql(options.email));
if (!JSON.parse(after?.roles ?? '[]').includes('ROLE_SUPERADMIN')) {
  console.error(`✗ ${options.email} was not promoted: its roles or the super-admins changed meanwhile; run this again (${where})`);
  process.exit(1);
}
console.log(`✓ ${options.email} (user ${decision.promote.id}) is now a super-admin, audited as ROLES_CHANGED (${where}).`);
console.log('  Next: sign in to /console; in production enrol an authenticator first (docs/OPERATIONS.md, "Two factors for staff").');
