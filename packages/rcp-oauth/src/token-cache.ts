/**
 * A token cache owned by one provider instance (never module state): access tokens by key,
 * renewed `refreshBefore` ms before they expire, and fetched once for any number of concurrent
 * callers — in this process (one fetch per key at a time) and across every instance sharing its
 * {@link RcpTokenStore} (the store's lock: one holder fetches, the others read what it stored).
 */
import { RcpError } from 'rcp-errors';
import { createMemoryTokenStore, type RcpStoredToken, type RcpTokenStore } from './token-store';

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
   * renewed already (calls refused together, here or on another instance): nothing is fetched.
   * Resolves to whether a token other than the refused one is there.
   */
  renew(key: string, fetch: TokenFetch, wasSent?: (token: string) => boolean): Promise<boolean>;
}

/** How the cache uses its store. */
export interface TokenCacheOptions {
  /** Ms before expiry at which a token is renewed (at most half its life). */
  readonly refreshBefore: number;
  /** Where tokens are kept and who fetches is agreed; default: an in-memory store of this cache. */
  readonly store?: RcpTokenStore | undefined;
  /** The lease of the store's lock: longer than one fetch can take (a token request's `timeout`). */
  readonly lockTtl: number;
}

/** Ms a token without `expires_in` is kept in the store (this instance keeps it until a tool refuses it). */
export const UNKNOWN_LIFETIME_TTL = 86_400_000;
/** Ms between two looks at the store while another holder fetches. */
const POLL_INTERVAL = 50;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function entryOf(stored: RcpStoredToken): Entry {
  return {
    accessToken: stored.accessToken,
    renewAt: stored.renewAt ?? Number.POSITIVE_INFINITY,
    expiresAt: stored.expiresAt ?? Number.POSITIVE_INFINITY,
  };
}

function storedOf(entry: Entry): RcpStoredToken {
  return {
    accessToken: entry.accessToken,
    ...(Number.isFinite(entry.renewAt) && { renewAt: entry.renewAt }),
    ...(Number.isFinite(entry.expiresAt) && { expiresAt: entry.expiresAt }),
  };
}

export function createTokenCache(options: TokenCacheOptions): TokenCache {
  const { refreshBefore, lockTtl } = options;
  const store = options.store ?? createMemoryTokenStore();
  /** This instance's copy of what it last read or stored: the synchronous hot path. */
  const entries = new Map<string, Entry>();
  const fetching = new Map<string, Promise<Entry | undefined>>();

  function fresh(token: FetchedToken): Entry {
    const now = Date.now();
    const lifetime = token.expiresIn === undefined ? Number.POSITIVE_INFINITY : token.expiresIn * 1000;
    // Renew `refreshBefore` early, but never in the first half of a short token's life.
    const margin = Math.min(refreshBefore, lifetime / 2);
    return { accessToken: token.accessToken, renewAt: now + lifetime - margin, expiresAt: now + lifetime };
  }

  /** Whether a stored token serves a fetch for `reason` (for `unauthorized`: it is not the refused one). */
  function serves(stored: RcpStoredToken | undefined, reason: FetchReason, refused: ((token: string) => boolean) | undefined): stored is RcpStoredToken {
    if (stored === undefined) return false;
    const entry = entryOf(stored);
    const now = Date.now();
    if (now >= entry.expiresAt) return false;
    return reason === 'unauthorized' ? refused !== undefined && !refused(entry.accessToken) : now < entry.renewAt;
  }

  function remember(key: string, entry: Entry): Entry {
    entries.set(key, entry);
    return entry;
  }

  /**
   * Read-through with the store's lock: a token the store holds for this reason is used; else the
   * lock's holder fetches and stores (only while its lease holds), and the others look again
   * every {@link POLL_INTERVAL} ms until it is there or the lock is free to take.
   */
  async function obtain(key: string, reason: FetchReason, fetch: TokenFetch, refused?: (token: string) => boolean): Promise<Entry | undefined> {
    const giveUpAt = Date.now() + 2 * lockTtl;
    for (;;) {
      const stored = await store.get(key);
      if (serves(stored, reason, refused)) return remember(key, entryOf(stored));
      const lease = await store.lock(key, lockTtl);
      if (lease !== undefined) {
        try {
          // Another holder may have stored a token between the look above and this lock.
          const again = await store.get(key);
          if (serves(again, reason, refused)) return remember(key, entryOf(again));
          const token = await fetch(reason);
          if (token === undefined) return undefined;
          const entry = fresh(token);
          const ttl = Number.isFinite(entry.expiresAt) ? Math.max(1, entry.expiresAt - Date.now()) : UNKNOWN_LIFETIME_TTL;
          // A lease that lapsed stores nothing (a later holder's token stays); this one is still valid here.
          await store.set(key, storedOf(entry), ttl, lease);
          return remember(key, entry);
        } finally {
          // A lease that cannot be ended lapses by itself.
          await store.unlock(key, lease).catch(() => false);
        }
      }
      if (Date.now() >= giveUpAt) {
        throw new RcpError('RCP_MISSING_CREDENTIALS', 'rcp-oauth: another instance held the token lock of this key for longer than its lease');
      }
      await sleep(POLL_INTERVAL);
    }
  }

  function start(key: string, reason: FetchReason, fetch: TokenFetch, refused?: (token: string) => boolean): Promise<Entry | undefined> {
    let pending = fetching.get(key);
    if (pending !== undefined) return pending;
    pending = obtain(key, reason, fetch, refused).finally(() => fetching.delete(key));
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
        return (await (pending ?? start(key, 'unauthorized', fetch, wasSent))) !== undefined;
      } catch {
        return false;
      }
    },
  };
}
