import { describeIdempotencyStoreContract } from 'rcp-test-utils/stores';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryIdempotencyStore, isRcpError } from './index';

describe('createMemoryIdempotencyStore (a fake clock)', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  describeIdempotencyStoreContract('createMemoryIdempotencyStore', {
    create: () => createMemoryIdempotencyStore(),
    elapse: async (ms) => void (await vi.advanceTimersByTimeAsync(ms)),
    ttl: 60_000,
  });

  it('keeps at most maxEntries records, dropping the oldest', async () => {
    const store = createMemoryIdempotencyStore({ maxEntries: 2 });
    for (const key of ['a', 'b', 'c']) await store.begin(key, { fingerprint: key, lease: key }, 60_000);
    expect(await store.begin('a', { fingerprint: 'x', lease: 'x' }, 60_000)).toBeUndefined(); // dropped, so free
    expect(await store.begin('c', { fingerprint: 'x', lease: 'x' }, 60_000)).toMatchObject({ lease: 'c' });
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses maxEntries %s with RCP_INVALID_OPTIONS', (maxEntries) => {
    let error: unknown;
    try {
      createMemoryIdempotencyStore({ maxEntries });
    } catch (caught) {
      error = caught;
    }
    expect(isRcpError(error, 'RCP_INVALID_OPTIONS')).toBe(true);
  });
});
