#!/usr/bin/env node
// `node scripts/d1-dump-order.mjs <export.sql> <import.sql>`: a `wrangler d1 export` file rewritten
// so that `wrangler d1 execute --file` can load it into an empty database (scripts/lib/d1-dump-order.mjs
// says why). docs/OPERATIONS.md uses it before every restore of an export.
import { readFileSync, writeFileSync } from 'node:fs';
import { unstable_splitSqlQuery } from 'wrangler';
import { importOrder } from './lib/d1-dump-order.mjs';

const [input, output] = process.argv.slice(2);
if (!input || !output) {
  console.error('usage: node scripts/d1-dump-order.mjs <export.sql> <import.sql>');
  process.exit(2);
}
const statements = importOrder(unstable_splitSqlQuery(readFileSync(input, 'utf8')));
writeFileSync(output, `${statements.join('\n')}\n`);
console.log(`${output}: ${statements.length} statements, tables first, rows next, indexes last`);
