// Finds the places in a source text that write a reservation's status: drizzle's
// `.update(reservations).set({ status: ... })` and raw `UPDATE reservations SET ... status = ...`.
// Only the lifecycle (src/features/reservations/lifecycle.ts) may (test/lifecycle-only.test.ts).

/** The text of the balanced parenthesised group that opens at `open` (the index of its `(`). */
function group(source: string, open: number): string {
  let depth = 0;
  for (let i = open; i < source.length; i++) {
    if (source[i] === '(') depth++;
    else if (source[i] === ')' && --depth === 0) return source.slice(open + 1, i);
  }
  return source.slice(open + 1);
}

/** The object's own keys only: nested objects and template expressions (`${reservations.status}`) are skipped. */
function topLevelKeys(objectText: string): string[] {
  const keys: string[] = [];
  let depth = 0;
  let start = true;
  for (let i = 0; i < objectText.length; i++) {
    const ch = objectText[i];
    if ('{[('.includes(ch)) {
      depth++;
      start = depth === 1 && ch === '{';
    } else if ('}])'.includes(ch)) depth--;
    else if (ch === '`') i = objectText.indexOf('`', i + 1) === -1 ? objectText.length : objectText.indexOf('`', i + 1);
    else if (depth === 1 && ch === ',') start = true;
    else if (depth === 1 && start && /\S/.test(ch)) {
      const key = /^["']?([A-Za-z_$][\w$]*)["']?\s*:/.exec(objectText.slice(i));
      if (key) keys.push(key[1]);
      start = false;
    }
  }
  return keys;
}

/** Each status write found in `source`, as its line number. */
export function reservationStatusWrites(source: string): number[] {
  const lines: number[] = [];
  const lineOf = (index: number) => source.slice(0, index).split('\n').length;
  for (const m of source.matchAll(/\.update\(\s*reservations\s*\)\s*\.set\(/g)) {
    const args = group(source, m.index + m[0].length - 1);
    if (topLevelKeys(args).includes('status')) lines.push(lineOf(m.index));
  }
  for (const m of source.matchAll(/\bUPDATE\s+["`]?reservations["`]?\s+SET\b([\s\S]*?)(\bWHERE\b|;|`|$)/gi)) {
    if (/(^|[^\w.])["`]?status["`]?\s*=/i.test(m[1])) lines.push(lineOf(m.index));
  }
  return lines;
}
