// dist/ is committed (the package installs from a clone or a tarball without building, so without
// its dev dependencies): this builds src/ (vendored files included) into a temporary folder and fails
// when dist/ differs.
import { mkdtempSync, readFileSync, readdirSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compile } from './build.mjs';

const SDK = fileURLToPath(new URL('..', import.meta.url));
const out = mkdtempSync(path.join(tmpdir(), 'sdk-dist-'));
try {
  compile(out);
  const files = (dir) => readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name))).sort();
  const built = files(out);
  const committed = existsSync(path.join(SDK, 'dist')) ? files(path.join(SDK, 'dist')) : [];
  const stale = [...new Set([...built, ...committed])].filter(
    (f) => !built.includes(f) || !committed.includes(f) || readFileSync(path.join(out, f), 'utf8') !== readFileSync(path.join(SDK, 'dist', f), 'utf8'),
  );
  if (stale.length) {
    console.error(`dist/ is stale (${stale.slice(0, 5).join(', ')}${stale.length > 5 ? ', ...' : ''}): run \`npm run build --prefix sdk\` and commit dist/.`);
    process.exit(1);
  }
  console.log(`dist/ is current (${built.length} files).`);
} finally {
  rmSync(out, { recursive: true, force: true });
}
