declare namespace Cloudflare {
  interface Env {
    TEST_MIGRATIONS: import('cloudflare:test').D1Migration[];
    FUZZ_RUNS: string;
    FUZZ_MS_PER_OPERATION: string;
    FUZZ_TOTAL_MS: string;
  }
}

/** Vite's `?raw` imports (a file's text), e.g. wrangler.toml in the local-run test. */
declare module '*?raw' {
  const text: string;
  export default text;
}
