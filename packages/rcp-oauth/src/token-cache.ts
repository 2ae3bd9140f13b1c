/**
 * A token cache owned by one provider instance (never module state): access tokens by key,
 * renewed `refreshBefore` ms before they expire, and fetched once for any number of concurrent
 * callers (single-flight per key).
 */

/** What a fetch of a token gives the cache. */
export interface FetchedToken {
  readonly accessToken: string;
  /** Lifetime in seconds from now (`expires_in`); `undefined`: until the server refuses it. */
  readonly expiresIn?: number | undefined;
}

interface Entry {
  readonly accessToken: string;
  /** Epoch ms after which a new token is fetched first. */
  readonly renewAt: number;
  /** Epoch ms after which the token is not used at all. */
  readonly expiresAt: number;
}

/** Why a token is being fetched: none cached, the cached one is about to expire, or a tool refused it. */
export type FetchReason = 'initial' | 'expiring' | 'unauthorized';

/** Fetches a token; `undefined`: there is none to be had (nothing is cached). */
export type TokenFetch = (reason: FetchReason) => Promise<FetchedToken | undefined>;

export interface TokenCache {
  /** The cached token of `key` when it needs no renewal yet, synchronously (the hot path); else undefined. */
  peek(key: string): string | undefined;
  /** The cached token for `key`, or a fresh one from `fetch` (one fetch at a time per key). */
  get(key: string, fetch: TokenFetch): Promise<string | undefined>;
  /**
   * A tool refused the token of `key`: it is dropped and a new one fetched (joining a fetch
   * already under way). When `wasSent` says the cached token is not the refused one, it was
   * renewed already (calls refused together): nothing is fetched. Resolves to whether a token
   * other than the refused one is there.
   */
  renew(key: string, fetch: TokenFetch, wasSent?: (token: string) => boolean): Promise<boolean>;
}

export function createTokenCache(refreshBefore: number): TokenCache {
  const entries = new Map<string, Entry>();
  const fetching = new Map<string, Promise<Entry | undefined>>();

  function start(key: string, reason: FetchReason, fetch: TokenFetch): Promise<Entry | undefined> {
    let pending = fetching.get(key);
    if (pending !== undefined) return pending;
    pending = (async () => {
      try {
        const token = await fetch(reason);
        if (token === undefined) return undefined;
        const now = Date.now();
        const lifetime = token.expiresIn === undefined ? Number.POSITIVE_INFINITY : token.expiresIn * 1000;
        // Renew `refreshBefore` early, but never in the first half of a short token's life.
        const margin = Math.min(refreshBefore, lifetime / 2);
        const entry: Entry = { accessToken: token.accessToken, renewAt: now + lifetime - margin, expiresAt: now + lifetime };
        entries.set(key, entry);
        return entry;
      } finally {
        fetching.delete(key);
      }
    })();
    fetching.set(key, pending);
    return pending;
  }

  return {
    peek(key) {
      const entry = entries.get(key);
      return entry !== undefined && Date.now() < entry.renewAt ? entry.accessToken : undefined;
    },
    async get(key, fetch) {
      const entry = entries.get(key);
      const now = Date.now();
      if (entry !== undefined && now < entry.renewAt) return entry.accessToken;
      if (entry === undefined || now >= entry.expiresAt) {
        entries.delete(key);
        return (await start(key, 'initial', fetch))?.accessToken;
      }
      // About to expire: renew, and keep using the old token while it lasts if renewing fails.
      try {
        const renewed = await start(key, 'expiring', fetch);
        if (renewed !== undefined) return renewed.accessToken;
        entries.delete(key);
        return undefined;
      } catch (error) {
        const current = entries.get(key);
        if (current !== undefined && Date.now() < current.expiresAt) return current.accessToken;
        throw error;
      }
    },
    async renew(key, fetch, wasSent) {
      const pending = fetching.get(key);
      const entry = entries.get(key);
      if (pending === undefined && entry !== undefined && wasSent !== undefined && !wasSent(entry.accessToken) && Date.now() < entry.expiresAt) {
        return true;
      }
      if (pending === undefined) entries.delete(key);
      try {
        return (await (pending ?? start(key, 'unauthorized', fetch))) !== undefined;
      } catch {
        return false;
      }
    },
  };
}
