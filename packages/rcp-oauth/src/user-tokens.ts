import { DEFAULT_OBTAIN_LOCK, DEFAULT_REFRESH_BEFORE, checkOrigins, checkStore, invalid, milliseconds } from './options';
import type { RcpAuthChallenge } from 'rcp-errors';
import type { RcpOAuthCallInfo, RcpOAuthProvider, RcpOAuthUnauthorizedInfo } from './provider-types';
import { isSendableToken } from './sendable-token';
import { createTokenCache, type FetchReason } from './token-cache';
import type { RcpTokenStore } from './token-store';

/**
 * What {@link userTokens}' `obtain` is asked: whose token, why, and for which call.
 *
 * @example
 * ```ts
 * const obtain = async ({ subject, reason }: RcpUserTokenRequest) => (reason === 'unauthorized' ? refreshFor(subject) : storedFor(subject));
 * ```
 */
export interface RcpUserTokenRequest<Context = any> {
  /** The cache key `subject(ctx)` gave. */
  readonly subject: string;
  /** The call's context. */
  readonly ctx: Context;
  /** `initial`: nothing cached; `expiring`: the cached token is about to expire; `unauthorized`: a tool refused it. */
  readonly reason: FetchReason;
  /** The call that needs the token. */
  readonly call: RcpOAuthCallInfo<Context>;
  /** With `unauthorized`: the tool's challenge (`error`, `scope`, `resourceMetadata`), when it sent one. */
  readonly challenge?: RcpAuthChallenge | undefined;
}

/**
 * An access token as `obtain` returns it: the token and, when known, its lifetime in seconds.
 *
 * @example
 * ```ts
 * const token: RcpUserToken = { accessToken: 'ya29...', expiresIn: 3600 };
 * ```
 */
export interface RcpUserToken {
  readonly accessToken: string;
  readonly expiresIn?: number | undefined;
}

/**
 * Options of {@link userTokens}.
 *
 * @example
 * ```ts
 * const options: RcpUserTokensOptions<{ userId: string }> = { subject: (ctx) => ctx.userId, obtain: async ({ subject }) => tokenStore.accessTokenOf(subject) };
 * ```
 */
export interface RcpUserTokensOptions<Context = any> {
  /** The user a call is for: the cache key. `undefined`: no user, no token (`RCP_MISSING_CREDENTIALS`, nothing sent). */
  subject: (ctx: Context) => string | undefined;
  /**
   * The application's own step: read the user's token from its storage, refresh it
   * ({@link refreshTokenGrant}), exchange it — and store what must be stored (a rotated refresh
   * token). Called once per subject at a time. `undefined`: the user has no token ("connect your account").
   */
  obtain: (request: RcpUserTokenRequest<Context>) => Promise<RcpUserToken | undefined> | RcpUserToken | undefined;
  /** @default undefined (every origin rcp-client would send a credential to) */
  origins?: readonly string[];
  /**
   * Milliseconds before `expiresIn` runs out at which `obtain` is asked again (at most half the token's life).
   * @default 60000
   */
  refreshBefore?: number;
  /**
   * Where the access tokens are kept, and how instances agree on whose `obtain` runs (docs/behaviour.md):
   * with one shared store (rcp-redis's `createRedisTokenStore`), `obtain` runs for a subject on one
   * instance at a time — so a rotating refresh token is spent once, whichever instance needs it.
   * @default an in-memory store of this provider
   */
  store?: RcpTokenStore;
  /**
   * Milliseconds the store's lock is held for one `obtain` at most: past it, another instance may
   * run `obtain` for the same subject. Keep it above your slowest `obtain`.
   * @default 30000
   */
  lockTimeout?: number;
}

/**
 * Per-user tokens with the storage left to the application: caches each user's access token in
 * its `store` (this instance's memory by default) by `subject(ctx)`, asks `obtain` once per user at a time
 * (across every instance sharing the store) (so a rotating refresh
 * token is used once), again shortly before `expiresIn` runs out, and again — with the tool's
 * challenge — when a tool answers 401, after which rcp-client retries the call once.
 *
 * @example
 * ```ts
 * import { createRcpClient } from 'rcp-client';
 * import { refreshTokenGrant, userTokens } from 'rcp-oauth';
 *
 * const refresh = refreshTokenGrant({ tokenEndpoint, clientId, clientSecret });
 * const client = createRcpClient({
 *   ...userTokens({
 *     subject: (ctx: { userId: string }) => ctx.userId,
 *     async obtain({ subject }) {
 *       const stored = await db.refreshTokenOf(subject);
 *       if (stored === undefined) return undefined; // "connect your account"
 *       const tokens = await refresh(stored);
 *       if (tokens.refreshToken !== undefined) await db.saveRefreshToken(subject, tokens.refreshToken);
 *       return tokens;
 *     },
 *   }),
 * });
 * ```
 */
export function userTokens<Context = any>(options: RcpUserTokensOptions<Context>): RcpOAuthProvider<Context> {
  if (typeof options !== 'object' || options === null) throw invalid('userTokens() needs an options object');
  const { subject, obtain } = options;
  if (typeof subject !== 'function') throw invalid('Option "subject" must be a function of the context');
  if (typeof obtain !== 'function') throw invalid('Option "obtain" must be a function');
  const origins = checkOrigins(options.origins);
  const cache = createTokenCache({
    refreshBefore: milliseconds('refreshBefore', options.refreshBefore, DEFAULT_REFRESH_BEFORE, true),
    store: checkStore(options.store),
    lockTtl: milliseconds('lockTimeout', options.lockTimeout, DEFAULT_OBTAIN_LOCK),
  });

  function subjectOf(info: RcpOAuthCallInfo<Context>): string | undefined {
    if (origins !== undefined && !origins.has(info.origin)) return undefined;
    const key = subject(info.ctx);
    if (key === undefined) return undefined;
    if (typeof key !== 'string' || key === '') throw invalid('Option "subject" must return a non-empty string or undefined');
    return key;
  }

  function fetcher(key: string, call: RcpOAuthCallInfo<Context>, challenge?: RcpAuthChallenge) {
    return async (reason: FetchReason) => {
      const request: RcpUserTokenRequest<Context> = {
        subject: key,
        ctx: call.ctx,
        reason,
        call,
        ...(challenge !== undefined && { challenge }),
      };
      const token = await obtain(request);
      if (token === undefined || token === null) return undefined;
      if (typeof token !== 'object' || typeof token.accessToken !== 'string' || token.accessToken === '') {
        throw invalid('userTokens: "obtain" must return { accessToken, expiresIn? } or undefined');
      }
      if (!isSendableToken(token.accessToken)) {
        throw invalid(
          'userTokens: "obtain" returned an access token that cannot be sent in a header (a control character, a character outside Latin-1, or only blanks)',
        );
      }
      const expiresIn = token.expiresIn;
      if (expiresIn !== undefined && (typeof expiresIn !== 'number' || !(expiresIn >= 0))) {
        throw invalid('userTokens: "expiresIn" must be a number of seconds');
      }
      return { accessToken: token.accessToken, expiresIn };
    };
  }

  return Object.freeze({
    credentials(info: RcpOAuthCallInfo<Context>): string | undefined | Promise<string | undefined> {
      const key = subjectOf(info);
      if (key === undefined) return undefined;
      return cache.peek(key) ?? cache.get(key, fetcher(key, info));
    },
    async onUnauthorized(info: RcpOAuthUnauthorizedInfo<Context>): Promise<boolean> {
      const key = subjectOf(info);
      if (key === undefined) return false;
      return cache.renew(key, fetcher(key, info, info.challenge), info.wasSent);
    },
  });
}
