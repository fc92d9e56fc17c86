#!/usr/bin/env node
// Prints a JWT_KEYS value: a JSON array whose first key signs and every key verifies.
//
//   npm run jwt-keys                        a fresh one-key array, for a first deployment
//   npm run jwt-keys -- '<current JWT_KEYS>' a new key first, the current ones kept (rotation)
//
// Pipe it into `wrangler secret put JWT_KEYS --env production`. Drop an old key only once every
// refresh token it signed has expired (docs/DEPLOY.md, "Rotating JWT_KEYS").
import { randomBytes } from 'node:crypto';

const today = new Date().toISOString().slice(0, 10).replaceAll('-', '');
const fresh = { kid: `${today}-${randomBytes(4).toString('hex')}`, secret: randomBytes(48).toString('base64url') };

let current = [];
if (process.argv[2]) {
  try {
    current = JSON.parse(process.argv[2]);
    if (!Array.isArray(current) || !current.every((k) => typeof k?.kid === 'string' && typeof k?.secret === 'string')) throw new Error();
  } catch {
    console.error('The argument must be the current JWT_KEYS: a JSON array of {kid, secret}.');
    process.exit(1);
  }
}
process.stdout.write(`${JSON.stringify([fresh, ...current])}\n`);
