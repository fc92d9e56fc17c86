/// <reference types="vite/client" />
// Every reservation status change goes through the lifecycle (src/features/reservations/lifecycle.ts,
// commitTransitions): its guard on the starting status, its notifications and money effects in the
// same batch. No other file of src/ writes reservations.status, in drizzle or in raw SQL.
import { describe, expect, it } from 'vitest';
import { reservationStatusWrites } from './helpers/status-write-scan';

const SOURCES = import.meta.glob('../src/**/*.{ts,tsx}', { query: '?raw', import: 'default', eager: true }) as Record<string, string>;

// The lifecycle itself, and the schema that declares the column.
const ALLOWED = [/\/src\/features\/reservations\/lifecycle\.ts$/, /\/src\/db\/schema\//];

describe('reservation status writes', () => {
  it('are recognised in drizzle and raw SQL, and told apart from reads of the status', () => {
    const drizzle = `db\n  .update(reservations)\n  .set({ status: TRANSITIONS.CANCEL.to, cancelledAt: now })\n  .where(eq(reservations.id, id))`;
    const nested = `db.update(reservations).set({ ...terms, status: sql\`'CANCELLED'\`, updatedAt: now })`;
    const raw = 'await env.DB.prepare(`UPDATE reservations SET updated_at = ?, status = ? WHERE id = ?`)';
    const quoted = `sql\`UPDATE "reservations" SET "status" = 'EXPIRED' WHERE id = \${id}\``;
    expect(reservationStatusWrites(drizzle)).toEqual([2]);
    expect(reservationStatusWrites(nested)).toEqual([1]);
    expect(reservationStatusWrites(raw)).toEqual([1]);
    expect(reservationStatusWrites(quoted)).toEqual([1]);
    // Reading the status (in the set's values or the guard) and writing other columns is not a change.
    const reads = `db.update(reservations)\n  .set({ tripChangedAt: sql\`CASE WHEN \${reservations.status} IN ('PAID') THEN 1 END\`, paymentStatus: 'EXPIRED' })\n  .where(eq(reservations.status, 'PENDING_PAYMENT'))`;
    expect(reservationStatusWrites(reads)).toEqual([]);
    expect(reservationStatusWrites('UPDATE reservations SET payment_status = ? WHERE status = ?')).toEqual([]);
  });

  it('happen in the lifecycle only', () => {
    const elsewhere = Object.entries(SOURCES)
      .filter(([file]) => !ALLOWED.some((allowed) => allowed.test(file)))
      .flatMap(([file, source]) => reservationStatusWrites(source).map((line) => `${file.replace('../', '')}:${line}`));
    expect(Object.keys(SOURCES).length).toBeGreaterThan(100);
    expect(elsewhere).toEqual([]);
  });
});
