// The one pagination helper: query schema (page, size, sort against a whitelist) and the two
// page shapes of the specification (generic page, carrier Reservation page). Every list answers
// the generic page; only the carrier listing has its own shape, as the specification says.
import { z } from '@hono/zod-openapi';
import { asc, desc, type AnyColumn, type SQL } from 'drizzle-orm';
import { msg } from '../errors';
import { decimalInt, issueCode, issueOf } from '../validation';

export const MAX_PAGE_SIZE = 100;

export interface SortSpec<F extends string = string> {
  field: F;
  direction: 'asc' | 'desc';
}

export interface PageParams<F extends string = string> {
  page: number;
  size: number;
  sort: SortSpec<F>;
}

interface PageQueryOptions<F extends string> {
  sortable: readonly F[];
  defaultSort: `${F},${'asc' | 'desc'}`;
  defaultSize?: number;
}

/**
 * Query schema for `page`, `size`, `sort`. Sizes above 100 are capped, not refused; negative or
 * zero values are VALIDATION_ERROR, anything but decimal digits (`abc`, `0x10`, `1.5`, empty) TYPE_MISMATCH,
 * an unknown sort field INVALID_ARGUMENT.
 */
export function pageQuery<F extends string>({ sortable, defaultSort, defaultSize = 20 }: PageQueryOptions<F>) {
  return z.object({
    page: decimalInt(z.number().int().min(0).max(2_147_483_647))
      .default(0)
      .openapi({ param: { name: 'page', in: 'query' }, type: 'integer', format: 'int32', minimum: 0, default: 0, description: 'Zero-based page index' }),
    size: decimalInt(z.number().int().min(1).max(2_147_483_647))
      .default(defaultSize)
      .transform((n) => Math.min(n, MAX_PAGE_SIZE))
      .openapi({
        param: { name: 'size', in: 'query' },
        type: 'integer',
        format: 'int32',
        minimum: 1,
        default: defaultSize,
        // Larger values are accepted and capped (the specification), so the cap is no `maximum`.
        description: `Items per page; values above ${MAX_PAGE_SIZE} are accepted and capped to ${MAX_PAGE_SIZE}`,
      }),
    sort: z
      .string()
      .default(defaultSort)
      .transform((value, ctx): SortSpec<F> => {
        const parsed = parseSort(value, sortable);
        if (!parsed) {
          ctx.addIssue({
            code: 'custom',
            ...issueOf(msg('request.sortFormat', { sortable: sortable.join(', ') }), issueCode('INVALID_ARGUMENT')),
          });
          return z.NEVER;
        }
        return parsed;
      })
      .openapi({
        param: { name: 'sort', in: 'query' },
        type: 'string',
        description: `<field>,<asc|desc>; fields: ${sortable.join(', ')}`,
        default: defaultSort,
        example: defaultSort,
      }),
  });
}

function parseSort<F extends string>(value: string, sortable: readonly F[]): SortSpec<F> | null {
  const [field, direction = 'asc', ...rest] = value.split(',').map((s) => s.trim());
  if (rest.length > 0 || !sortable.includes(field as F)) return null;
  const dir = direction.toLowerCase();
  if (dir !== 'asc' && dir !== 'desc') return null;
  return { field: field as F, direction: dir };
}

/** ORDER BY for a whitelisted sort, with `id` as a tie-breaker so pages never overlap. */
export function orderBy<F extends string>(sort: SortSpec<F>, columns: Record<F, AnyColumn | SQL>, id: AnyColumn): SQL[] {
  const dir = sort.direction === 'asc' ? asc : desc;
  return [dir(columns[sort.field]), dir(id)];
}

export const offsetOf = (p: { page: number; size: number }) => p.page * p.size;

const totalPages = (total: number, size: number) => (total === 0 ? 0 : Math.ceil(total / size));

/** The generic page of the specification. */
export function toPage<T>(content: T[], totalElements: number, p: { page: number; size: number }) {
  return {
    content,
    page: { number: p.page, size: p.size, totalElements, totalPages: totalPages(totalElements, p.size) },
  };
}

/**
 * The generic page of a listing whose total is counted up to a cap (the public search, CONTRACT
 * section 30: its cost stops growing there): past it, `totalCapped: true` says more matched.
 */
export function toCappedPage<T>(content: T[], totalElements: number, p: { page: number; size: number }, capped: boolean) {
  const page = toPage(content, totalElements, p);
  return capped ? { ...page, page: { ...page.page, totalCapped: true } } : page;
}

/**
 * The generic page of a list held in memory (static reference data): ordered by the whitelisted
 * sort's key, the list's own order breaking ties, then sliced.
 */
export function pageOfList<T, F extends string>(items: readonly T[], p: PageParams<F>, keys: Record<F, (item: T) => string | number>) {
  const key = keys[p.sort.field];
  const sign = p.sort.direction === 'asc' ? 1 : -1;
  const compare = (a: string | number, b: string | number) =>
    typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b));
  const sorted = items.map((item, i) => ({ item, i, k: key(item) })).sort((a, b) => sign * (compare(a.k, b.k) || a.i - b.i));
  const start = offsetOf(p);
  return toPage(sorted.slice(start, start + p.size).map((e) => e.item), items.length, p);
}

/** The carrier listing's Reservation page. */
export function toReservationPage<T>(data: T[], total: number, p: { page: number; size: number }) {
  return { data, page: p.page, limit: p.size, total, totalPages: totalPages(total, p.size) };
}

/** The generic page; `extra` adds fields to `page` (the search's totalCapped). */
export const PageSchema = <T extends z.ZodType>(item: T, name: string, extra: Record<string, z.ZodType> = {}) =>
  z
    .object({
      content: z.array(item),
      page: z.object({
        number: z.number().int(),
        size: z.number().int(),
        totalElements: z.number().int(),
        totalPages: z.number().int(),
        ...extra,
      }),
    })
    .openapi(name);

export const ReservationPageSchema = <T extends z.ZodType>(item: T) =>
  z
    .object({
      data: z.array(item),
      page: z.number().int(),
      limit: z.number().int(),
      total: z.number().int(),
      totalPages: z.number().int(),
    })
    .openapi('ReservationPage');
