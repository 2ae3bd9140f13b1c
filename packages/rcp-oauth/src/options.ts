import { RcpError } from 'rcp-errors';
import type { RcpOAuthCallInfo } from './provider-types';
import type { RcpTokenStore } from './token-store';

/** Defaults of the numeric options (documented with `@default`). */
export const DEFAULT_REFRESH_BEFORE = 60_000;
export const DEFAULT_TOKEN_TIMEOUT = 10_000;
/** Ms a token lock's lease outlives the longest fetch it guards (a token request's `timeout`). */
export const LOCK_MARGIN = 5_000;
/** The lease of `userTokens`' lock, which guards the application's `obtain` (no timeout of ours). */
export const DEFAULT_OBTAIN_LOCK = 30_000;

export function invalid(message: string): RcpError<'RCP_INVALID_OPTIONS'> {
  return new RcpError('RCP_INVALID_OPTIONS', message);
}

/**
 * How a setting is named in an error: `Option "scope"` in code; the environment variable
 * (`RCP_OAUTH_SCOPE`) when it came from there. An error names the setting, never its value
 * (docs/behaviour.md: a value in the wrong variable may be a secret).
 */
export function optionNamed(name: string): string {
  return `Option "${name}"`;
}

export function milliseconds(name: string, value: unknown, fallback: number, allowZero = false): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0 || (!allowZero && value === 0)) {
    throw invalid(`Option "${name}" must be a ${allowZero ? 'non-negative' : 'positive'} integer (milliseconds)`);
  }
  return value;
}

/** The `store` option: an {@link RcpTokenStore} (its four methods), or undefined for the in-memory default. */
export function checkStore(value: unknown): RcpTokenStore | undefined {
  if (value === undefined) return undefined;
  const store = value as Partial<Record<keyof RcpTokenStore, unknown>> | null;
  if (typeof store !== 'object' || store === null || !(['get', 'set', 'lock', 'unlock'] as const).every((name) => typeof store[name] === 'function')) {
    throw invalid('Option "store" must be a token store (get, set, lock and unlock), e.g. createMemoryTokenStore()');
  }
  return value as RcpTokenStore;
}

export function optionalFunction<F>(name: string, value: unknown): F | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'function') throw invalid(`Option "${name}" must be a function`);
  return value as F;
}

/** A scope or resource option: fixed values, or a function of the call. */
export type PerCall<Context> = string | readonly string[] | ((info: RcpOAuthCallInfo<Context>) => string | readonly string[] | undefined);

/** How the values of one option are checked: {@link checkValues}, or {@link checkScopes} for `scope`. */
export type ValuesCheck = (subject: string, value: unknown) => readonly string[];

/** The values of a per-call option for one call, checked (`RCP_INVALID_OPTIONS` when the function returns something else). */
export function valuesOf<Context>(
  name: string,
  option: PerCall<Context> | undefined,
  info: RcpOAuthCallInfo<Context>,
  check: ValuesCheck = checkValues,
): readonly string[] {
  return check(optionNamed(name), typeof option === 'function' ? option(info) : option);
}

/** A string or a list of strings (or nothing) as a checked list: `RCP_INVALID_OPTIONS` otherwise. */
export function checkValues(subject: string, value: unknown): readonly string[] {
  if (value === undefined) return [];
  const list: readonly unknown[] = typeof value === 'string' ? [value] : Array.isArray(value) ? value : [value];
  for (const item of list) {
    if (typeof item !== 'string' || item === '' || /[\s\u0000-\u001f"\\]/.test(item)) {
      throw invalid(`${subject} must give non-empty strings without spaces, quotes or control characters`);
    }
  }
  return list as readonly string[];
}

/**
 * Scope values as a checked list of scope tokens. Each string, alone or in a list, is the OAuth
 * form (RFC 6749 §3.3): tokens separated by spaces — `'a b'`, `['a b']` and `['a', 'b']` ask for
 * the same scope, in an option, in a function's answer and in `PREFIX_SCOPE` alike.
 * `RCP_INVALID_OPTIONS` for a value with no token, or a token with a quote, a backslash or a control character.
 */
export function checkScopes(subject: string, value: unknown): readonly string[] {
  if (value === undefined) return [];
  const list: readonly unknown[] = typeof value === 'string' ? [value] : Array.isArray(value) ? value : [value];
  const tokens = list.flatMap((item) => {
    if (typeof item !== 'string') return [item];
    const parts = item.split(/\s+/).filter((part) => part !== '');
    if (parts.length === 0) throw invalid(`${subject} must give at least one scope token (space-separated)`);
    return parts;
  });
  return checkValues(subject, tokens);
}

/** A fixed per-call option, checked once and frozen; a function is checked on each call by {@link valuesOf}. */
export function checkPerCall<Context>(name: string, value: unknown, check: ValuesCheck = checkValues): PerCall<Context> | undefined {
  if (value === undefined || typeof value === 'function') return value as PerCall<Context> | undefined;
  return Object.freeze([...check(optionNamed(name), value)]);
}

/** The `resource` values (RFC 8707): absolute URIs without fragment. */
export function checkResources(values: readonly string[], subject = optionNamed('resource')): readonly string[] {
  for (const value of values) {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw invalid(`${subject} must give absolute URIs (RFC 8707)`);
    }
    if (url.hash !== '') throw invalid(`${subject} must not have a fragment (RFC 8707)`);
  }
  return values;
}

/** `origins`: the tool origins this provider gives its token to. */
export function checkOrigins(value: unknown): ReadonlySet<string> | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) throw invalid('Option "origins" must be a list of origins ("https://api.example.com")');
  const origins = new Set<string>();
  for (const item of value) {
    let url: URL | undefined;
    try {
      url = typeof item === 'string' ? new URL(item) : undefined;
    } catch {
      url = undefined;
    }
    if (url === undefined || url.origin === 'null' || url.origin !== item.replace(/\/$/, '')) {
      throw invalid(`Option "origins": ${JSON.stringify(String(item)).slice(0, 80)} is not an origin ("https://api.example.com")`);
    }
    origins.add(url.origin);
  }
  return origins;
}
