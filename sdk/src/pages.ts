// Page iteration: every list answers `{ content, page: { number, size, totalElements, totalPages } }`
// and takes `page` (zero-based) and `size`; `for await` walks the pages so an app never counts them.
import type { Client, MaybeOptionalInit } from './vendor/openapi-fetch.js';
import { unwrap } from './errors.js';
import type { paths } from './generated/api.js';

export interface PageMeta {
  number: number;
  size: number;
  totalElements: number;
  totalPages: number;
}

type JsonOf<Op> = Op extends { responses: { 200: { content: { 'application/json': infer Body } } } } ? Body : never;
type GetOf<P extends keyof paths> = paths[P] extends { get: infer Op } ? Op : never;

/** The paths whose GET answers a page. */
export type PagedPath = {
  [P in keyof paths]: JsonOf<GetOf<P>> extends { content: unknown[]; page: PageMeta } ? P : never;
}[keyof paths];
export type PageOf<P extends PagedPath> = JsonOf<GetOf<P>>;
export type ItemOf<P extends PagedPath> = PageOf<P> extends { content: Array<infer Item> } ? Item : never;
export type PageInit<P extends PagedPath> = MaybeOptionalInit<paths[P], 'get'>;

/** The pages of `path` from `init`'s page (0 by default) to the last; each call throws ApiError like unwrap. */
export async function* pager<P extends PagedPath>(api: Client<paths>, path: P, init: PageInit<P>): AsyncGenerator<PageOf<P>> {
  const base = (init ?? {}) as { params?: { query?: Record<string, unknown> } };
  let number = Number(base.params?.query?.page ?? 0);
  for (;;) {
    const query = { ...base.params?.query, page: number };
    const get = api.GET as unknown as (path: string, init: object) => Promise<{ data?: { content: unknown[]; page: PageMeta }; error?: unknown; response: Response }>;
    const page = await unwrap(get(path, { ...base, params: { ...base.params, query } }));
    yield page as PageOf<P>;
    // The last page, or an empty one (the list shrank while it was read).
    if (page.content.length === 0 || page.page.number + 1 >= page.page.totalPages) return;
    number = page.page.number + 1;
  }
}
