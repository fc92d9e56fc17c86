// Copies the browser files the worker serves as static assets out of node_modules, so the pages
// need no CDN: the API reference's Scalar bundle (pinned in package.json). Runs on `npm install`.
import { copyFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
const scalarDir = path.dirname(require.resolve('@scalar/api-reference'));
const target = path.join(root, 'public', 'vendor');
mkdirSync(target, { recursive: true });
copyFileSync(path.join(scalarDir, 'browser', 'standalone.js'), path.join(target, 'scalar-api-reference.js'));
