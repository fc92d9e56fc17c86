// Applies the same SQL migrations wrangler applies, inside the test runtime, before each file.
import { applyD1Migrations, env } from 'cloudflare:test';

await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
