// The providers of a deps (providers/chosen.ts): chosen from the configuration when first used
// and kept for the rest of the request, so a request that calls no provider builds none.
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { depsOf } from '../src/env';
import { providersFor } from '../src/providers/chosen';

describe('the providers of a deps', () => {
  it('read nothing of the configuration until one is used, then build it once', () => {
    const read: string[] = [];
    const watched = new Proxy(env, { get: (target, key) => (read.push(String(key)), Reflect.get(target, key)) });
    const providers = providersFor(watched);
    expect(read).toEqual([]);
    const payment = providers.payment;
    expect(read.length).toBeGreaterThan(0);
    const readOnce = read.length;
    expect(providers.payment).toBe(payment);
    expect(read).toHaveLength(readOnce);
    expect([providers.kyc, providers.email, providers.push, providers.sms, providers.socialLogin].every(Boolean)).toBe(true);
    expect(providers.email).toBe(providers.email);
  });

  it('are chosen per deps: two requests do not share an instance', () => {
    const [first, second] = [depsOf(env), depsOf(env)];
    expect(first.providers.payment).not.toBe(second.providers.payment);
    expect(first.providers.payment.name).toBe(second.providers.payment.name);
  });

  it('travel with the deps they were made for when it is spread (seed contexts)', () => {
    const deps = depsOf(env);
    expect({ ...deps, extra: 1 }.providers).toBe(deps.providers);
  });
});
