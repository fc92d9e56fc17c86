// The statements of a `wrangler d1 export` file in an order an empty database accepts. The export
// writes each table followed by its rows, in the order the tables were created; a table re-created
// by a later migration (SQLite's way of altering a column) comes after the tables that reference
// it, and their rows then fail with "no such table: main.<parent>" (cloudflare/workers-sdk#5683,
// #9349, open). Order: PRAGMAs, every CREATE TABLE, every row, then the rest as exported
// (sqlite_sequence, indexes, triggers, views). Foreign keys are checked at the end (the export
// starts with PRAGMA defer_foreign_keys). Pure (no Node APIs), so the test suite checks it in workerd.

/** The class of one statement: its place in the import. */
function rank(statement) {
  const s = statement.trimStart();
  if (/^PRAGMA\b/i.test(s)) return 0;
  if (/^CREATE\s+TABLE\b/i.test(s)) return 1;
  if (/^INSERT\s+INTO\s+["`]?sqlite_sequence\b/i.test(s)) return 3;
  if (/^INSERT\b/i.test(s)) return 2;
  return 3;
}

/** The statements reordered (stable within each class); empty ones dropped. */
export function importOrder(statements) {
  return statements
    .filter((s) => s.trim())
    .map((s, i) => ({ s: s.trim(), i, r: rank(s) }))
    .sort((a, b) => a.r - b.r || a.i - b.i)
    .map((x) => (x.s.endsWith(';') ? x.s : `${x.s};`));
}
