// Types of d1-dump-order.mjs for the test suite.
export function importOrder(statements: string[]): string[];
