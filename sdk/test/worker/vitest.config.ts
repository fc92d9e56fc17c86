// The SDK against the worker, inside the same workerd as the API's tests: the root configuration
// (bindings, migrations, setup) with only the SDK's worker tests. Run from the repository root:
// `npm run test:worker --prefix sdk`.
import path from 'node:path';
import { defineConfig, type UserConfig } from 'vitest/config';
import root from '../../../vitest.config.ts';

export default defineConfig(async (env) => {
  const base = (await (root as unknown as (e: typeof env) => Promise<UserConfig>)(env)) as UserConfig;
  return {
    ...base,
    root: path.join(import.meta.dirname, '../../..'),
    test: { ...base.test, include: ['sdk/test/worker/**/*.test.ts'] },
  };
});
