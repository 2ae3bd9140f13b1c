import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTokenCache, type FetchReason } from './token-cache';

afterEach(() => void vi.useRealTimers());

function counter(tokens: { accessToken: string; expiresIn?: number }[] | (() => never)) {
  const reasons: FetchReason[] = [];
  const fetch = async (reason: FetchReason) => {
    reasons.push(reason);
    if (typeof tokens === 'function') return tokens();
    return tokens.shift();
  };
  return { reasons, fetch };
}

describe('the token cache (state in the instance)', () => {
  it('without expires_in a token is kept until a tool refuses it', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const cache = createTokenCache({ refreshBefore: 60_000, lockTtl: 15_000 });
    const { reasons, fetch } = counter([{ accessToken: 'a' }, { accessToken: 'b' }]);
    expect(await cache.get('k', fetch)).toBe('a');
    vi.setSystemTime(Date.now() + 365 * 24 * 3600_000);
    expect(await cache.get('k', fetch)).toBe('a');
    expect(await cache.renew('k', fetch, (token) => token === 'a')).toBe(true);
    expect(await cache.get('k', fetch)).toBe('b');
    expect(reasons).toEqual(['initial', 'unauthorized']);
  });

  it('a failed renewal keeps the old token while it is valid, then the error is the caller’s', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const cache = createTokenCache({ refreshBefore: 60_000, lockTtl: 15_000 });
    let fail = false;
    const fetch = async () => {
      if (fail) throw new Error('token endpoint down');
      return { accessToken: 'a', expiresIn: 300 };
    };
    await cache.get('k', fetch);
    fail = true;
    vi.setSystemTime(Date.now() + 250_000); // in the renewal window
    expect(await cache.get('k', fetch)).toBe('a');
    vi.setSystemTime(Date.now() + 60_000); // expired
    await expect(cache.get('k', fetch)).rejects.toThrow('token endpoint down');
  });

  it('a refusal of a token already replaced asks for nothing; nothing to be had is not cached', async () => {
    const cache = createTokenCache({ refreshBefore: 0, lockTtl: 15_000 });
    const { reasons, fetch } = counter([{ accessToken: 'a', expiresIn: 600 }]);
    await cache.get('k', fetch);
    expect(await cache.renew('k', fetch, (token) => token === 'old')).toBe(true);
    expect(reasons).toEqual(['initial']);
    const none = counter([]);
    expect(await cache.get('other', none.fetch)).toBeUndefined();
    expect(await cache.get('other', none.fetch)).toBeUndefined();
    expect(none.reasons).toEqual(['initial', 'initial']);
    expect(cache.peek('k')).toBe('a');
    expect(cache.peek('other')).toBeUndefined();
  });
});
