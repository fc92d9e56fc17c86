// Prohibited and restricted items per corridor (CONTRACT 21): the maintained list
// (prohibited-items.data.ts) with the admins' additions, served by GET
// /reference/prohibited-items and checked against every booking's items.
import { inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { categories, prohibitedItemRules, type Locale } from '../../db/schema';
import type { Deps } from '../../env';
import { alreadyExists, businessRule, msg } from '../../errors';
import { isUniqueViolation } from '../../db/errors';
import { auditInsert } from '../audit/audit';
import { appliesTo, PROHIBITED_ITEMS, type ProhibitedItemEntry } from './prohibited-items.data';

/** Every entry admins added (a short list): read in the batch of the request that needs it. */
export const addedItemRules = (db: Db) => db.select().from(prohibitedItemRules).orderBy(prohibitedItemRules.id);

type AddedRule = typeof prohibitedItemRules.$inferSelect;

/** The entries of the corridor from -> to: the file's, then the admins' (pure). */
export function corridorOf(added: readonly AddedRule[], from: string, to: string): ProhibitedItemEntry[] {
  return [
    ...PROHIBITED_ITEMS.filter((e) => appliesTo(e, from, to)),
    ...added
      .filter((r) => (r.fromCountry === null || r.fromCountry === from) && (r.toCountry === null || r.toCountry === to))
      .map(
        (r): ProhibitedItemEntry => ({
          code: r.code,
          level: r.level,
          ...(r.categoryCode ? { categoryCode: r.categoryCode } : {}),
          name: { en: r.nameEn, fr: r.nameFr },
          reason: { en: r.reasonEn, fr: r.reasonFr },
          source: 'ADMIN',
        }),
      ),
  ];
}

export const corridorEntries = async ({ db }: Deps, from: string, to: string) => corridorOf(await addedItemRules(db), from, to);

export interface ListedItem {
  categoryId?: number;
  code: string;
  name: string;
  reason: string;
}

/** GET /reference/prohibited-items: the corridor's entries in `locale`, each with its category's id when it has one. */
export async function listProhibitedItems(deps: Deps, from: string, to: string, locale: Locale) {
  const entries = await corridorEntries(deps, from, to);
  const codes = [...new Set(entries.flatMap((e) => (e.categoryCode ? [e.categoryCode] : [])))];
  const rows = codes.length ? await deps.db.select({ id: categories.id, code: categories.code }).from(categories).where(inArray(categories.code, codes)) : [];
  const idOf = new Map(rows.map((r) => [r.code, r.id]));
  const listed = (level: ProhibitedItemEntry['level']): ListedItem[] =>
    entries
      .filter((e) => e.level === level)
      .map((e) => {
        const categoryId = e.categoryCode ? idOf.get(e.categoryCode) : undefined;
        return { ...(categoryId !== undefined ? { categoryId } : {}), code: e.code, name: e.name[locale], reason: e.reason[locale] };
      });
  return { from, to, prohibited: listed('PROHIBITED'), restricted: listed('RESTRICTED') };
}

export interface CheckedItem {
  /** The item's category code. */
  code: string | null;
  name: string;
}

/**
 * The corridor's verdict on a booking's items (pure): the first item of a prohibited category, and
 * the restricted entries its items fall under that the sender did not acknowledge.
 */
export function corridorVerdict(entries: readonly ProhibitedItemEntry[], items: readonly CheckedItem[], acknowledged: readonly string[]) {
  const matches = (e: ProhibitedItemEntry, item: CheckedItem) => e.categoryCode === item.code || e.code === item.code;
  for (const item of items) {
    const entry = entries.find((e) => e.level === 'PROHIBITED' && matches(e, item));
    if (entry) return { prohibited: { item, entry } } as const;
  }
  const unacknowledged = entries.filter((e) => e.level === 'RESTRICTED' && !acknowledged.includes(e.code) && items.some((item) => matches(e, item)));
  return { unacknowledged } as const;
}

/** POST /bookings: refuses a prohibited item (422 naming it) and an unacknowledged restricted one. */
export function assertCorridorAllows(added: readonly AddedRule[], from: string, to: string, items: readonly CheckedItem[], acknowledged: readonly string[]) {
  const verdict = corridorVerdict(corridorOf(added, from, to), items, acknowledged);
  const see = msg('booking.seeProhibitedItems', { from, to });
  if ('prohibited' in verdict && verdict.prohibited) {
    const { item, entry } = verdict.prohibited;
    throw businessRule('booking.itemProhibitedOnCorridor', { item: item.name, code: entry.code, from, to }, { suggestions: [see] });
  }
  if ('unacknowledged' in verdict && verdict.unacknowledged.length > 0) {
    const codes = verdict.unacknowledged.map((e) => e.code).join(', ');
    throw businessRule('booking.restrictionsNotAcknowledged', { codes, from, to }, { suggestions: [see] });
  }
}

export interface NewProhibitedItem {
  code: string;
  level: ProhibitedItemEntry['level'];
  categoryCode?: string | null;
  from?: string | null;
  to?: string | null;
  name: Record<Locale, string>;
  reason: Record<Locale, string>;
}

/** POST /superadmin/prohibited-items: an entry added to the list, audited in the same batch; a code taken is 409. */
export async function addProhibitedItem(deps: Deps, actorId: number, ip: string | null, input: NewProhibitedItem) {
  const { db } = deps;
  if (PROHIBITED_ITEMS.some((e) => e.code === input.code)) throw alreadyExists('reference.prohibitedItemCodeTaken', { code: input.code });
  try {
    const [[row]] = await db.batch([
      db
        .insert(prohibitedItemRules)
        .values({
          code: input.code,
          level: input.level,
          categoryCode: input.categoryCode ?? null,
          fromCountry: input.from ?? null,
          toCountry: input.to ?? null,
          nameEn: input.name.en,
          nameFr: input.name.fr,
          reasonEn: input.reason.en,
          reasonFr: input.reason.fr,
          createdBy: actorId,
        })
        .returning(),
      auditInsert(db, { actorId, action: 'PROHIBITED_ITEM_ADDED', targetType: 'PROHIBITED_ITEM', targetId: input.code, ip, details: { level: input.level, from: input.from ?? null, to: input.to ?? null } }),
    ]);
    return row;
  } catch (err) {
    if (isUniqueViolation(err)) throw alreadyExists('reference.prohibitedItemCodeTaken', { code: input.code });
    throw err;
  }
}
