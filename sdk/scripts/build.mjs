// The build: openapi-fetch (the one runtime library) vendored into src/vendor/, src/ compiled into
// `outDir` (dist/ by default), the vendored files copied beside. The package then has no runtime
// dependency: `npm install <folder>` links a folder without installing its dependencies (npm's rule
// for folders outside the project), so a dependency would be missing from a clone.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SDK = fileURLToPath(new URL('..', import.meta.url));
const VENDOR = path.join(SDK, 'src/vendor');

/** Copies openapi-fetch's ES module and types (and the helper types they import) into src/vendor/. */
export function vendor() {
  const from = (pkg, file) => readFileSync(path.join(SDK, 'node_modules', pkg, file), 'utf8');
  const version = JSON.parse(from('openapi-fetch', 'package.json')).version;
  const banner = `// openapi-fetch ${version} (MIT, LICENSE-openapi-fetch), vendored by scripts/build.mjs: do not edit.\n`;
  mkdirSync(VENDOR, { recursive: true });
  writeFileSync(path.join(VENDOR, 'openapi-fetch.js'), banner + from('openapi-fetch', 'dist/index.mjs').replace(/\n\/\/# sourceMappingURL=.*\n?$/, '\n'));
  writeFileSync(
    path.join(VENDOR, 'openapi-fetch.d.ts'),
    banner + from('openapi-fetch', 'dist/index.d.ts').replace("from 'openapi-typescript-helpers'", "from './openapi-typescript-helpers.js'"),
  );
  writeFileSync(path.join(VENDOR, 'openapi-typescript-helpers.d.ts'), banner + from('openapi-typescript-helpers', 'dist/index.d.ts'));
  writeFileSync(path.join(VENDOR, 'LICENSE-openapi-fetch'), from('openapi-fetch', 'LICENSE'));
}

/** tsc into `outDir`, then the vendored files (tsc emits nothing for .js and .d.ts sources). */
export function compile(outDir) {
  const tsc = spawnSync(path.join(SDK, 'node_modules/.bin/tsc'), ['-p', path.join(SDK, 'tsconfig.json'), '--outDir', outDir], { stdio: 'inherit' });
  if (tsc.status !== 0) process.exit(1);
  cpSync(VENDOR, path.join(outDir, 'vendor'), { recursive: true });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  vendor();
  compile(path.join(SDK, 'dist'));
  console.log('Built dist/.');
}
