// Prohibited and restricted items per corridor (CONTRACT 21): the maintained list
// (prohibited-items.data.ts) with the admins' additions, served by GET
// /reference/prohibited-items and checked against every booking's items.
import { inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { categories, prohibitedItemRules, type Locale } from '../../db/schema';
import type { Deps } from '../../env';
import { alreadyExists, businessRule, msg } from '../../errors';
import { countryName } from '../../lib/locale';
import { inEachLanguage, type Localized } from '../../messages';
import { fieldPath } from '../../validation';
import { corridorVerdict, type CheckedItem, type ItemMatch } from './prohibited-items.rules';
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
          ...(r.categoryCode ? { categoryCodes: [r.categoryCode] } : {}),
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
  categoryIds: number[];
  code: string;
  name: string;
  reason: string;
  keywords: string[];
}

/** The categories an entry covers: its own, or (an admin's entry without one) the category whose code is its own. */
const coveredCodes = (e: ProhibitedItemEntry) => e.categoryCodes ?? [e.code];

/**
 * GET /reference/prohibited-items: the corridor's entries in `locale`, each with the ids of the
 * categories it covers (`categoryId`: the first, for older clients) and the words it is matched by.
 */
export async function listProhibitedItems(deps: Deps, from: string, to: string, locale: Locale) {
  const entries = await corridorEntries(deps, from, to);
  const codes = [...new Set(entries.flatMap(coveredCodes))];
  const rows = codes.length ? await deps.db.select({ id: categories.id, code: categories.code }).from(categories).where(inArray(categories.code, codes)) : [];
  const idOf = new Map(rows.map((r) => [r.code, r.id]));
  const listed = (level: ProhibitedItemEntry['level']): ListedItem[] =>
    entries
      .filter((e) => e.level === level)
      .map((e) => {
        const categoryIds = coveredCodes(e).flatMap((code) => (idOf.has(code) ? [idOf.get(code)!] : []));
        return {
          ...(categoryIds.length > 0 ? { categoryId: categoryIds[0] } : {}),
          categoryIds,
          code: e.code,
          name: e.name[locale],
          reason: e.reason[locale],
          keywords: [...(e.keywords ?? [])],
        };
      });
  return { from, to, prohibited: listed('PROHIBITED'), restricted: listed('RESTRICTED') };
}

/** The words of an entry in each language: its name, and its name with why (a field error's message). */
const entryName = (e: ProhibitedItemEntry): Localized => e.name;
const corridorWords = (from: string, to: string) => ({ from: inEachLanguage((l) => countryName(from, l)), to: inEachLanguage((l) => countryName(to, l)) });
/** The input that brought an item under an entry, as fieldErrors name it (`items[1].name`), and its value. */
const itemField = (m: ItemMatch, items: readonly BookedItemWords[]) => ({
  field: fieldPath(['items', m.index, m.field]),
  rejectedValue: m.field === 'categoryId' ? items[m.index].categoryId : m.field === 'name' ? items[m.index].name : items[m.index].description,
});

export interface BookedItemWords extends CheckedItem {
  categoryId: number | null;
}

/**
 * At booking and at offer: an item prohibited on the corridor is 422 ITEM_PROHIBITED naming each
 * such item and its entry in fieldErrors; restricted items the sender did not acknowledge are 422
 * RESTRICTION_NOT_ACKNOWLEDGED, each item and entry named the same way.
 */
export function assertCorridorAllows(added: readonly AddedRule[], from: string, to: string, items: readonly BookedItemWords[], acknowledged: readonly string[]) {
  const verdict = corridorVerdict(corridorOf(added, from, to), items, acknowledged);
  const route = corridorWords(from, to);
  const suggestions = [msg('booking.seeProhibitedItems', route)];
  if (verdict.prohibited.length > 0) {
    const [first] = verdict.prohibited;
    throw businessRule('booking.itemProhibited', { item: first.item.name, entry: entryName(first.entry), ...route }, {
      suggestions,
      fieldErrors: verdict.prohibited.map((m) => ({ ...itemField(m, items), message: msg('booking.itemProhibitedField', { entry: m.entry.name, why: m.entry.reason }) })),
    });
  }
  if (verdict.unacknowledged.length > 0) {
    const entries = [...new Set(verdict.unacknowledged.map((m) => m.entry))];
    const names = inEachLanguage((l) => entries.map((e) => e.name[l]).join(', '));
    throw businessRule('booking.restrictionsToConfirm', { entries: names, ...route }, {
      suggestions,
      fieldErrors: verdict.unacknowledged.map((m) => ({ ...itemField(m, items), message: msg('booking.restrictedItemField', { entry: m.entry.name, why: m.entry.reason }) })),
    });
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
