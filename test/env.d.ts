declare namespace Cloudflare {
  interface Env {
    TEST_MIGRATIONS: import('cloudflare:test').D1Migration[];
    FUZZ_RUNS: string;
    FUZZ_MS_PER_OPERATION: string;
    FUZZ_TOTAL_MS: string;
  }
}
