// TRANSITIONAL: moved to statements.ts; removed once every feature imports from there.
export { aliasedColumns, guardedInsert } from './statements';
