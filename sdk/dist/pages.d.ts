import type { Client, MaybeOptionalInit } from './vendor/openapi-fetch.js';
import type { paths } from './generated/api.js';
export interface PageMeta {
    number: number;
    size: number;
    totalElements: number;
    totalPages: number;
}
type JsonOf<Op> = Op extends {
    responses: {
        200: {
            content: {
                'application/json': infer Body;
            };
        };
    };
} ? Body : never;
type GetOf<P extends keyof paths> = paths[P] extends {
    get: infer Op;
} ? Op : never;
/** The paths whose GET answers a page. */
export type PagedPath = {
    [P in keyof paths]: JsonOf<GetOf<P>> extends {
        content: unknown[];
        page: PageMeta;
    } ? P : never;
}[keyof paths];
export type PageOf<P extends PagedPath> = JsonOf<GetOf<P>>;
export type ItemOf<P extends PagedPath> = PageOf<P> extends {
    content: Array<infer Item>;
} ? Item : never;
export type PageInit<P extends PagedPath> = MaybeOptionalInit<paths[P], 'get'>;
/** The pages of `path` from `init`'s page (0 by default) to the last; each call throws ApiError like unwrap. */
export declare function pager<P extends PagedPath>(api: Client<paths>, path: P, init: PageInit<P>): AsyncGenerator<PageOf<P>>;
export {};
