/// <reference types="vite/client" />
// Who may act on what is decided in src/access/ (CONTRACT 25): no other file of src/ compares the
// caller (auth.id, a userId) with an owner column (senderId, carrierId, ownerId). The copies that
// compared the publisher's id with carrierId are how moved employees kept agency trips.
import { describe, expect, it } from 'vitest';

const SOURCES = import.meta.glob('../src/**/*.{ts,tsx}', { query: '?raw', import: 'default', eager: true }) as Record<string, string>;

const OWNER = String.raw`[\w?.]*\.(?:senderId|carrierId|ownerId)\b`;
const CALLER = String.raw`\b(?:auth\.id|userId|callerId|me|viewer|viewerId)\b`;
const COMPARISON = new RegExp(String.raw`(?:${CALLER}\s*[!=]==?\s*${OWNER}|${OWNER}\s*[!=]==?\s*${CALLER})`);

/** The lines (1-based) of `source` that compare the caller with an owner column. */
const ownerComparisons = (source: string): number[] =>
  source.split('\n').flatMap((line, i) => (COMPARISON.test(line) ? [i + 1] : []));

describe('ownership decisions', () => {
  it('are recognised either way round, and told apart from comparisons of other ids', () => {
    expect(ownerComparisons("const asSender = row.senderId === auth.id;")).toEqual([1]);
    expect(ownerComparisons('if (a.carrierId === auth.id) throw x;')).toEqual([1]);
    expect(ownerComparisons("x\nif (file?.ownerId === userId && ok) return;")).toEqual([2]);
    expect(ownerComparisons('auth.id !== r.senderId && y')).toEqual([1]);
    expect(ownerComparisons('if (r.senderId === r.carrierId) x;')).toEqual([]);
    expect(ownerComparisons('eq(reservations.senderId, auth.id)')).toEqual([]);
  });

  it('are made in src/access/ only', () => {
    const elsewhere = Object.entries(SOURCES)
      .filter(([file]) => !file.includes('/src/access/'))
      .flatMap(([file, source]) => ownerComparisons(source).map((line) => `${file.replace(/^.*\/src\//, 'src/')}:${line}`));
    expect(elsewhere).toEqual([]);
  });
});
