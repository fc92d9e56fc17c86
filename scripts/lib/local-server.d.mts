// Types of local-server.mjs for the test suite.
export const LOCAL_HOST: string;
export function localServer(port?: string): { base: string; devArgs: string[] };
