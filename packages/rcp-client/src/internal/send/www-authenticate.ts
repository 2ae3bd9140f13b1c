import { isTokenChar } from 'rcp-internal';
import { blankUnsafeText, type RcpAuthChallenge } from 'rcp-errors';
import { redact } from '../redaction/redact';
import type { ResponseHeaders } from './transport-types';

/**
 * The `WWW-Authenticate` grammar (RFC 9110 §11.6.1): a list of challenges, each an auth-scheme
 * followed by a token68 or by comma-separated `name=value` auth-params (value a token or a
 * quoted-string). Read from a 401 or 403 so an application sees what the tool's server asks
 * for — RFC 6750's `error`, `error_description`, `scope`, and RFC 9728's `resource_metadata`
 * — as untrusted text: each value bounded, control characters blanked, and passed through the
 * call's redaction by the caller.
 */

/** Characters kept of each value. */
const MAX_VALUE = 512;
/** Header characters read at most. */
const MAX_HEADER = 8_192;
const TOKEN68_CHAR = /[A-Za-z0-9\-._~+/]/;
const FIELDS: Readonly<Record<string, keyof Omit<RcpAuthChallenge, 'scheme'>>> = {
  error: 'error',
  error_description: 'errorDescription',
  scope: 'scope',
  resource_metadata: 'resourceMetadata',
  realm: 'realm',
};

interface Parsed {
  scheme: string;
  params: Map<string, string>;
}

function clean(value: string, redact: (text: string) => string): string {
  const blanked = blankUnsafeText(redact(value));
  return blanked.length > MAX_VALUE ? blanked.slice(0, MAX_VALUE) : blanked;
}

/** Every challenge of a header value, in order (unparsable parts skipped). */
export function parseChallenges(header: string): { scheme: string; params: ReadonlyMap<string, string> }[] {
  const text = header.slice(0, MAX_HEADER);
  const n = text.length;
  let i = 0;
  const challenges: Parsed[] = [];
  let current: Parsed | undefined;
  /** A token was just read as a scheme: what follows may be a token68. */
  let afterScheme = false;
  const skipSpace = () => {
    while (i < n && (text[i] === ' ' || text[i] === '\t')) i++;
  };
  const readToken = (): string => {
    const start = i;
    while (i < n && isTokenChar(text.charCodeAt(i))) i++;
    return text.slice(start, i);
  };
  const readQuoted = (): string => {
    i++; // opening quote
    let out = '';
    while (i < n && text[i] !== '"') {
      if (text[i] === '\\' && i + 1 < n) i++;
      out += text[i];
      i++;
    }
    i++; // closing quote
    return out;
  };
  while (i < n) {
    skipSpace();
    if (i >= n) break;
    if (text[i] === ',') {
      i++;
      afterScheme = false;
      continue;
    }
    const start = i;
    const name = readToken();
    if (name === '') {
      // Not a token: a token68 after a scheme, or junk — skip to the next comma.
      while (i < n && text[i] !== ',') i++;
      afterScheme = false;
      continue;
    }
    skipSpace();
    if (current !== undefined && text[i] === '=' && text[i + 1] !== '=') {
      // name=value, unless it is a token68 ending in one '=' (then a comma or the end follows).
      let after = i + 1;
      while (after < n && (text[after] === ' ' || text[after] === '\t')) after++;
      if (after < n && text[after] !== ',') {
        i = after;
        const value = text[i] === '"' ? readQuoted() : readToken();
        const key = name.toLowerCase();
        if (!current.params.has(key)) current.params.set(key, value);
        afterScheme = false;
        continue;
      }
    }
    if (afterScheme && current !== undefined) {
      // A token68 (e.g. `Negotiate abc==`): skipped, it names nothing this client reads.
      i = start;
      while (i < n && TOKEN68_CHAR.test(text[i]!)) i++;
      while (i < n && text[i] === '=') i++;
      afterScheme = false;
      continue;
    }
    current = { scheme: name, params: new Map() };
    challenges.push(current);
    afterScheme = true;
  }
  return challenges;
}

/**
 * The challenge of a 401/403 `WWW-Authenticate` header (the Bearer one first), its values
 * passed through `redact` and bounded; `undefined` without a usable header.
 */
export function readChallenge(header: string | null | undefined, redact: (text: string) => string): RcpAuthChallenge | undefined {
  if (typeof header !== 'string' || header === '') return undefined;
  const challenges = parseChallenges(header);
  const chosen = challenges.find((challenge) => challenge.scheme.toLowerCase() === 'bearer') ?? challenges[0];
  if (chosen === undefined) return undefined;
  const challenge: Record<string, string> = { scheme: clean(chosen.scheme, redact) };
  for (const [name, field] of Object.entries(FIELDS)) {
    const value = chosen.params.get(name);
    if (value !== undefined) challenge[field as string] = clean(value, redact);
  }
  return Object.freeze(challenge) as unknown as RcpAuthChallenge;
}

/** The challenge of a final 401 or 403 response, redacted with the call's secrets (other statuses: none). */
export function challengeOf(status: number, headers: Pick<ResponseHeaders, 'get'>, secrets: Parameters<typeof redact>[1]): RcpAuthChallenge | undefined {
  if (status !== 401 && status !== 403) return undefined;
  return readChallenge(headers.get('www-authenticate'), (text) => redact(text, secrets));
}
