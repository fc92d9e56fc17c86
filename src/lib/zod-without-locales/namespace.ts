// zod's namespace with the two members that carry its translations shadowed (a module's own export
// wins over `export *`): see index.ts for why. zod's English default messages stay (classic schemas
// import that one locale directly); nothing here reads `z.core` at run time, only its types.
export * from '../../../node_modules/zod/v4/classic/external.js';
export const locales = undefined;
export const core = undefined;
