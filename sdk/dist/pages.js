import { unwrap } from './errors.js';
/** The pages of `path` from `init`'s page (0 by default) to the last; each call throws ApiError like unwrap. */
export async function* pager(api, path, init) {
    const base = (init ?? {});
    let number = Number(base.params?.query?.page ?? 0);
    for (;;) {
        const query = { ...base.params?.query, page: number };
        const get = api.GET;
        const page = await unwrap(get(path, { ...base, params: { ...base.params, query } }));
        yield page;
        // The last page, or an empty one (the list shrank while it was read).
        if (page.content.length === 0 || page.page.number + 1 >= page.page.totalPages)
            return;
        number = page.page.number + 1;
    }
}
