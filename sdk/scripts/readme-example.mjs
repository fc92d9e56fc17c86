// The README's example as an app team meets it (CONTRACT sections 23 and 28): the package is packed
// (`npm pack`) and the tarball installed into a blank project in a temporary folder; a copy of the
// SDK's committed files (a fresh clone, no node_modules, no build) is installed into a second blank
// project by the README's one command, `npm install <folder>`, which must write nothing into it but
// node_modules/. In each, the block between `<!-- example:start -->` and `<!-- example:end -->`
// is compiled by tsc against the installed package and run against `npm start` on a loopback port
// (started here and stopped by its process id), or against BASE_URL when given. Fails if the block
// grows past 30 lines.
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

class Failure extends Error {}

const SDK = fileURLToPath(new URL('..', import.meta.url));
const REPO = path.join(SDK, '..');
const PORT = process.env.PORT || '8828';
const MAX_LINES = 30;
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

const readme = readFileSync(path.join(SDK, 'README.md'), 'utf8');
const block = readme.match(/<!-- example:start -->\s*```ts\n([\s\S]*?)```\s*<!-- example:end -->/)?.[1];
if (!block) fail('README.md has no example block');
const lines = block.trimEnd().split('\n').filter((l) => l.trim() !== '').length;
if (lines > MAX_LINES) fail(`the README example has ${lines} lines of code (at most ${MAX_LINES})`);

const TMP = mkdtempSync(path.join(tmpdir(), 'sdk-example-'));
const npm = (cwd, ...args) => execFileSync(NPM, [...args, '--no-audit', '--no-fund', '--prefer-offline'], { cwd, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });

/** A blank project with the SDK installed from `spec` (a tarball or a folder) and the example compiled in it. */
function blankProject(name, spec) {
  const dir = path.join(TMP, name);
  mkdirSync(dir);
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, type: 'module', private: true }));
  npm(dir, 'install', spec);
  writeFileSync(path.join(dir, 'example.ts'), block);
  writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022', module: 'ES2022', moduleResolution: 'Bundler', lib: ['ES2022', 'DOM'], strict: true, outDir: 'out', skipLibCheck: true,
        // Node's types only (process.env), from the repository: the project itself installs nothing else.
        types: ['node'], typeRoots: [path.join(REPO, 'node_modules/@types')],
      },
      include: ['example.ts'],
    }),
  );
  const tsc = spawnSync(path.join(SDK, 'node_modules/.bin/tsc'), ['-p', path.join(dir, 'tsconfig.json')], { stdio: 'inherit' });
  if (tsc.status !== 0) fail(`the README example does not compile in ${name}`);
  return dir;
}

const files = (dir) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .filter((f) => !f.startsWith('node_modules'))
    .sort();

let server = null;
const projects = [];
let base = process.env.BASE_URL;
try {
  // 1. The tarball, as a registry would serve it.
  const tarball = path.join(TMP, npm(SDK, 'pack', '--pack-destination', TMP).trim().split('\n').pop());
  projects.push(blankProject('from-tarball', tarball));
  console.log(`✓ ${path.basename(tarball)} installs into a blank project and the README example compiles there (${lines} lines)`);

  // 2. The README's command against a fresh clone: the SDK's committed files only.
  const clone = path.join(TMP, 'clone/sdk');
  for (const f of execFileSync('git', ['ls-files', '.'], { cwd: SDK, encoding: 'utf8' }).split('\n').filter(Boolean)) {
    mkdirSync(path.dirname(path.join(clone, f)), { recursive: true });
    cpSync(path.join(SDK, f), path.join(clone, f));
  }
  const before = files(clone);
  projects.push(blankProject('from-clone', path.relative(path.join(TMP, 'from-clone'), clone) || clone));
  const written = files(clone).filter((f) => !before.includes(f));
  if (written.length) fail(`npm install <folder> wrote into the clone: ${written.slice(0, 5).join(', ')}`);
  console.log('✓ `npm install <clone>/sdk` installs without dev dependencies or a build, writes nothing into the clone, and the example compiles');

  if (!base) {
    base = `http://127.0.0.1:${PORT}`;
    server = spawn(process.execPath, ['scripts/start.mjs'], { cwd: REPO, env: { ...process.env, PORT }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    await ready(server);
  }
  for (const dir of projects) {
    const run = spawnSync(process.execPath, [path.join(dir, 'out/example.js')], { cwd: dir, env: { ...process.env, BASE_URL: base }, encoding: 'utf8', timeout: 60_000 });
    process.stdout.write(run.stdout ?? '');
    process.stderr.write(run.stderr ?? '');
    if (run.status !== 0) fail(`the README example exited with ${run.status ?? run.signal} in ${path.basename(dir)}`);
    if (!/: (PAID|CONFIRMED)/.test(run.stdout) || !run.stdout.includes('Bonjour, je dépose le colis demain.')) {
      fail(`the README example did not pay and chat in ${path.basename(dir)}`);
    }
    console.log(`✓ the README example books, pays with the card sandbox and chats (${path.basename(dir)})`);
  }
} catch (error) {
  // Reported after the server is stopped (process.exit here would leave it running).
  console.error(`✗ ${error instanceof Failure ? error.message : error.stack}`);
  process.exitCode = 1;
} finally {
  if (server) await stop(server);
  rmSync(TMP, { recursive: true, force: true });
}

/** Resolves once `npm start` (scripts/start.mjs, its own process group) has seeded the demo accounts. */
function ready(child) {
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start not ready within 300 s:\n${output.slice(-2000)}`)), 300_000);
    const seen = (chunk) => {
      output += chunk;
      if (output.includes('Demo accounts')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', seen);
    child.stderr.on('data', seen);
    child.on('exit', (code) => reject(new Error(`npm start exited (${code}):\n${output.slice(-2000)}`)));
  });
}

/** Stops the server's process group (wrangler and workerd with it) by the id of the process started above. */
async function stop(child) {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {}
  }, 10_000);
  await exited;
  clearTimeout(timer);
}

function fail(message) {
  throw new Failure(message);
}
