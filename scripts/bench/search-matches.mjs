#!/usr/bin/env node
// `node scripts/bench/search-matches.mjs [scale]` (Node 22: node:sqlite): how many trips the search
// targets' captured requests match and return, computed offline from the benchmark's own data set
// (lib/seed.mjs is deterministic) in an in-memory SQLite with the migrations applied. The counted
// batches replay the captured requests, generator indices 900000-900009 (lib/callgrind.mjs), so
// this is the answer size behind the rows read the report shows (docs/BENCHMARKS.md, issue 47).
// Run it the same UTC day as the benchmark: trips and asked dates are days from today.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { seed } from './lib/seed.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CAPTURE_START = 900_000;
const scale = Number(process.argv[2] ?? 1);
const db = new DatabaseSync(':memory:');
for (const f of readdirSync(path.join(ROOT, 'migrations')).filter((f) => f.endsWith('.sql')).sort()) db.exec(readFileSync(path.join(ROOT, 'migrations', f), 'utf8'));
const exec = async (statements) => statements.map(({ sql, params }) => db.prepare(sql).run(...params));
const { routes } = await seed(exec, { scale, passwordHash: 'unused', log: () => {} });

const day = (offset) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
// The search's rule (ACTIVE, publisher not suspended, departing today or later) on the route; a
// radius of 150 km takes in no other seeded city, so the nearby matches are the route's too.
const listed = `status = 'ACTIVE' AND publisher_suspended = 0 AND departure_city_key = ? AND arrival_city_key = ? AND departure_date >= ?`;
const rows = [];
for (let k = 0; k < 10; k++) {
  const i = CAPTURE_START + k;
  const [from, to] = routes[i % routes.length]; // endpoints.mjs: pickOf(ctx.routes, i)
  const keys = [from.toLowerCase(), to.toLowerCase(), day(0)];
  const plain = db.prepare(`SELECT count(*) AS n FROM announcements WHERE ${listed}`).get(...keys).n;
  const asked = 2 + ((i * 7) % 89); // endpoints.mjs: the nearby target's date
  const nearby = db.prepare(`SELECT count(*) AS n FROM announcements WHERE ${listed} AND departure_date BETWEEN ? AND ?`).get(...keys, day(asked - 3), day(asked + 3)).n;
  rows.push({ route: `${from} - ${to}`, plainMatches: plain, plainReturned: Math.min(20, plain), nearbyMatches: nearby, nearbyReturned: Math.min(20, nearby) });
}
const mean = (field) => rows.reduce((sum, r) => sum + r[field], 0) / rows.length;
console.table(rows);
console.log(`x${scale} means: plain ${mean('plainMatches')} matches, ${mean('plainReturned')} returned; nearby ${mean('nearbyMatches')} matches, ${mean('nearbyReturned')} returned`);
