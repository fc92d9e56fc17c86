// The README's example, compiled and run against the API as CI does (CONTRACT section 23): the block
// between `<!-- example:start -->` and `<!-- example:end -->` becomes .example/example.ts, importing the
// built package by its name; tsc compiles it; it runs against `npm start` on a loopback port (started
// here and stopped by its process id), or against BASE_URL when given. Fails if the block grows past 30 lines.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const SDK = fileURLToPath(new URL('..', import.meta.url));
const REPO = path.join(SDK, '..');
const WORK = path.join(SDK, '.example');
const PORT = process.env.PORT || '8828';
const MAX_LINES = 30;

const readme = readFileSync(path.join(SDK, 'README.md'), 'utf8');
const block = readme.match(/<!-- example:start -->\s*```ts\n([\s\S]*?)```\s*<!-- example:end -->/)?.[1];
if (!block) fail('README.md has no example block');
const lines = block.trimEnd().split('\n').filter((l) => l.trim() !== '').length;
if (lines > MAX_LINES) fail(`the README example has ${lines} lines of code (at most ${MAX_LINES})`);
if (!existsSync(path.join(SDK, 'dist/index.js'))) fail('the SDK is not built: npm run build --prefix sdk');

rmSync(WORK, { recursive: true, force: true });
mkdirSync(path.join(WORK, 'node_modules/@parcel-marketplace'), { recursive: true });
symlinkSync(SDK, path.join(WORK, 'node_modules/@parcel-marketplace/sdk'), 'dir');
writeFileSync(path.join(WORK, 'package.json'), JSON.stringify({ type: 'module', private: true }));
writeFileSync(path.join(WORK, 'example.ts'), block);
writeFileSync(
  path.join(WORK, 'tsconfig.json'),
  JSON.stringify({
    compilerOptions: { target: 'ES2022', module: 'ES2022', moduleResolution: 'Bundler', lib: ['ES2022', 'DOM'], types: ['node'], strict: true, outDir: 'out', skipLibCheck: true },
    include: ['example.ts'],
  }),
);
const tsc = spawnSync(path.join(SDK, 'node_modules/.bin/tsc'), ['-p', path.join(WORK, 'tsconfig.json')], { stdio: 'inherit' });
if (tsc.status !== 0) fail('the README example does not compile');
console.log(`✓ the README example compiles (${lines} lines)`);

let server = null;
let base = process.env.BASE_URL;
try {
  if (!base) {
    base = `http://127.0.0.1:${PORT}`;
    server = spawn(process.execPath, ['scripts/start.mjs'], { cwd: REPO, env: { ...process.env, PORT }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    await ready(server);
  }
  const run = spawnSync(process.execPath, [path.join(WORK, 'out/example.js')], {
    env: { ...process.env, BASE_URL: base },
    encoding: 'utf8',
    timeout: 60_000,
  });
  process.stdout.write(run.stdout ?? '');
  process.stderr.write(run.stderr ?? '');
  if (run.status !== 0) fail(`the README example exited with ${run.status ?? run.signal}`);
  if (!/: (PAID|CONFIRMED)/.test(run.stdout) || !run.stdout.includes('Bonjour, je dépose le colis demain.')) {
    fail('the README example did not pay and chat');
  }
  console.log('✓ the README example books, pays with the card sandbox and chats');
} finally {
  if (server) await stop(server);
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
  console.error(`✗ ${message}`);
  process.exit(1);
}
