// Parcel categories: listing, admin create/update/delete. Delete is one conditional DELETE that
// refuses while a reservation item or an announcement's acceptedCategoryIds refers to the row.
import { and, asc, eq, inArray, notExists, sql } from 'drizzle-orm';
import { isUniqueViolation } from '../../db/errors';
import { announcements, categories, reservationItems, type CategoryRow, type Locale } from '../../db/schema';
import type { Localized } from '../../messages';
import type { Deps } from '../../env';
import { alreadyExists, invalidState, notFound } from '../../errors';
import { readPage } from '../../db/statements';
import { jsonArrayIncludes } from '../../lib/json-array';
import { orderBy, toPage, type PageParams } from '../../lib/pagination';
import { audit, auditInsertIfChanged } from '../audit/audit';

/** The admin acting and the client IP of the request, for the audit entry of each change. */
export interface Operator {
  id: number;
  ip: string | null;
}

export interface CategoryInput {
  code: string;
  name: string;
  description?: string | null;
  nameFr?: string | null;
  descriptionFr?: string | null;
  prohibited?: boolean;
}

/** A category's name in each language (the English where no French was written). */
export const categoryName = (row: Pick<CategoryRow, 'name' | 'nameFr'>): Localized => ({ en: row.name, fr: row.nameFr ?? row.name });

/** A category as GET /categories shows it, in the reader's language. */
export const toCategory = (row: CategoryRow, locale: Locale = 'en') => ({
  id: row.id,
  code: row.code,
  name: categoryName(row)[locale],
  description: locale === 'fr' ? (row.descriptionFr ?? row.description) : row.description,
  prohibited: row.prohibited,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

/** Allowed categories always come before prohibited ones; the sort orders each group. */
export async function listCategories(deps: Deps, q: PageParams<'name' | 'code' | 'createdAt'>, locale: Locale = 'en') {
  const { db } = deps;
  // By name as the reader reads it.
  const name = locale === 'fr' ? sql`coalesce(${categories.nameFr}, ${categories.name})` : categories.name;
  const order = [asc(categories.prohibited), ...orderBy(q.sort, { name, code: categories.code, createdAt: categories.createdAt }, categories.id)];
  const { rows, total } = await readPage(db, categories, undefined, order, q);
  return toPage(rows.map((row) => toCategory(row, locale)), total, q);
}

const codeTaken = (code: string) =>
  alreadyExists('category.codeExists', { code }, { suggestions: ['category.chooseAnotherCode'] });

export async function createCategory(deps: Deps, operator: Operator, input: CategoryInput) {
  const { db } = deps;
  const [row] = await db
    .insert(categories)
    .values({ ...input, prohibited: input.prohibited ?? false })
    .onConflictDoNothing({ target: categories.code })
    .returning();
  if (!row) throw codeTaken(input.code);
  // The new id is known only after the insert: the entry follows it.
  await audit(deps, { actorId: operator.id, action: 'CATEGORY_CREATED', targetType: 'CATEGORY', targetId: row.id, ip: operator.ip, details: { code: row.code } });
  return toCategory(row);
}

export async function updateCategory(deps: Deps, operator: Operator, id: number, input: Partial<CategoryInput>) {
  const { db } = deps;
  // The unique index decides a taken code: no read first, and no race between two renames. The
  // audit entry is in the same batch, written only when the update matched the row.
  const [[row]] = await db
    .batch([
      db
        .update(categories)
        .set({ ...input, updatedAt: new Date().toISOString() })
        .where(eq(categories.id, id))
        .returning(),
      auditInsertIfChanged(db, {
        actorId: operator.id,
        action: 'CATEGORY_UPDATED',
        targetType: 'CATEGORY',
        targetId: id,
        ip: operator.ip,
        details: { fields: Object.keys(input).sort() },
      }),
    ])
    .catch((err: unknown) => {
      if (input.code && isUniqueViolation(err)) throw codeTaken(input.code);
      throw err;
    });
  if (!row) throw notFound('Category', id);
  return toCategory(row);
}

export async function deleteCategory(deps: Deps, operator: Operator, id: number) {
  const { db } = deps;
  const [deleted] = await db.batch([
    db
      .delete(categories)
      .where(
        and(
          eq(categories.id, id),
          notExists(db.select({ one: sql`1` }).from(reservationItems).where(eq(reservationItems.categoryId, id))),
          // Announcements whose acceptedCategoryIds JSON array contains the category.
          notExists(db.select({ one: sql`1` }).from(announcements).where(jsonArrayIncludes(announcements.acceptedCategoryIds, id))),
        ),
      )
      .returning({ id: categories.id, code: categories.code }),
    // Written only when the DELETE removed the row.
    auditInsertIfChanged(db, { actorId: operator.id, action: 'CATEGORY_DELETED', targetType: 'CATEGORY', targetId: id, ip: operator.ip }),
  ]);
  if (deleted.length > 0) return;
  const [exists] = await db.select({ id: categories.id }).from(categories).where(eq(categories.id, id));
  if (!exists) throw notFound('Category', id);
  throw invalidState('category.inUse', { id });
}

/** The given ids that are unknown or prohibited, for announcement and alert validation. */
export async function unusableCategoryIds(deps: Deps, ids: readonly number[]): Promise<number[]> {
  const { db } = deps;
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: categories.id, prohibited: categories.prohibited })
    .from(categories)
    .where(inArray(categories.id, [...ids]));
  const allowed = new Set(rows.filter((r) => !r.prohibited).map((r) => r.id));
  return ids.filter((id) => !allowed.has(id));
}
