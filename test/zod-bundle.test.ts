// The zod the worker is built with (wrangler.toml [alias], vitest.config.ts): zod's namespace
// without its translations. What the API relies on must still be there.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import zodDefault from 'zod';

describe('zod as bundled', () => {
  it('carries no translations: the locales and core namespaces are shadowed', () => {
    expect(z.locales).toBeUndefined();
    expect((z as unknown as { core: unknown }).core).toBeUndefined();
    expect(zodDefault).toBe(z);
  });

  it('still validates, with zod English defaults and the OpenAPI extension', () => {
    const schema = z.object({ weight: z.number().positive(), email: z.email() });
    expect(schema.safeParse({ weight: 2, email: 'a@b.fr' }).success).toBe(true);
    const failed = schema.safeParse({ weight: -1, email: 'nope' });
    expect(failed.success).toBe(false);
    expect(failed.error?.issues.map((i) => [i.path.join('.'), i.code])).toEqual([
      ['weight', 'too_small'],
      ['email', 'invalid_format'],
    ]);
    expect(failed.error?.issues[0].message).toBe('Too small: expected number to be >0');
    expect(typeof (z.string() as unknown as { openapi?: unknown }).openapi).toBe('function');
  });
});
