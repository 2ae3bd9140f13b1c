import { REDACTED } from 'rcp-errors';
import { percentEncode } from 'rcp-template';

/**
 * The one redaction routine: everything the client builds from server-controlled text (status
 * text, content type, redirect targets, parse errors, body excerpts, an observed response) goes
 * through it before it leaves the client, and so does the data of a 2xx answer that echoes the
 * credential. A server that reflects a secret gets `[redacted]` back, in every form an encoder
 * writes it: as written; JSON-escaped by any encoder (`\/` as PHP writes it, `\u00eb` as
 * Python's `json.dumps` does, in either case of hex, astral characters as surrogate pairs) and
 * escaped again, up to four levels deep (a JSON string inside a JSON string …); percent-encoded
 * (a URL path or query); lower-cased (as a URL parser writes a host name); and, in parsed data, a
 * number whose text is a secret.
 */

/** What every redacted secret becomes — in errors, `prepare()`'s output and observed responses (rcp-errors' marker). */
export { REDACTED };
/** Causes kept at the most: deeper ones are dropped. */
const MAX_CAUSE_DEPTH = 4;
/**
 * Levels of JSON string escaping a secret is found under: a JSON string inside a JSON string
 * inside … four deep (servers that log a request's JSON into their own JSON error, and so on).
 * At level n a `/` or `"` is behind up to 2^n − 1 backslashes, a `\` is 2^n of them, and a
 * `\uXXXX` or `\n` escape has up to 2^(n−1).
 */
const ESCAPE_LEVELS = 4;
/** Backslashes before an escaped `/` or `"` at the deepest level. */
const MAX_QUOTING_BACKSLASHES = 2 ** ESCAPE_LEVELS - 1;
/** Backslashes one `\` of a secret becomes at the deepest level. */
const MAX_BACKSLASH_COPIES = 2 ** ESCAPE_LEVELS;
/** Backslashes before a `uXXXX` or short escape at the deepest level. */
const MAX_ESCAPE_BACKSLASHES = 2 ** (ESCAPE_LEVELS - 1);
/**
 * The longest form the matcher knows one UTF-16 code unit of a secret in: a `\` or an escaped
 * `/` at the deepest level (16 characters), longer than a `\uXXXX` escape there (13) or a
 * percent-encoded character (9).
 */
const LONGEST_UNIT_FORM = Math.max(MAX_BACKSLASH_COPIES, MAX_QUOTING_BACKSLASHES + 1, MAX_ESCAPE_BACKSLASHES + 5, 9);
/** One backslash, as a regular-expression source. */
const BACKSLASH = '\\\\';
/** The JSON short escapes of control characters (`\n` …), by code unit. */
const SHORT_ESCAPES: Readonly<Record<number, string>> = { 8: 'b', 9: 't', 10: 'n', 12: 'f', 13: 'r' };

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}

/** `[aA]`-style classes for each hex digit, so `\u00EB` and `\u00eb` both match. */
function hexPattern(code: number): string {
  return [...code.toString(16).padStart(4, '0')].map((digit) => (/[a-f]/.test(digit) ? `[${digit}${digit.toUpperCase()}]` : digit)).join('');
}

/**
 * A run of `min` to `max` backslashes. At the start of a secret's pattern it is instead a whole
 * run, from its first backslash (`(?<!\\)`), of at least `min`: the search then scans a run once
 * where it starts, not again from each backslash in it — against a body of backslashes a bounded
 * run tried at every position costs its bound per character. (More backslashes there only
 * widen what is redacted.)
 */
function backslashes(min: number, max: number, first: boolean): string {
  return first ? `(?<!${BACKSLASH})(?:${BACKSLASH}){${min},}` : `(?:${BACKSLASH}){${min},${max}}`;
}

/**
 * One UTF-16 code unit of a secret, in every form a JSON encoder writes it at up to
 * {@link ESCAPE_LEVELS} levels of string escaping: the character itself (a `/` or `"` possibly
 * behind backslashes), `\uXXXX` behind backslashes, or its short escape. `first`: the secret's
 * first unit (see {@link backslashes}).
 */
function unitPattern(code: number, first: boolean): string {
  const char = String.fromCharCode(code);
  const alternatives: string[] = [];
  if (char === '/' || char === '"') alternatives.push(`${backslashes(0, MAX_QUOTING_BACKSLASHES, first)}${escapeRegExp(char)}`);
  else alternatives.push(code >= 0xd800 && code <= 0xdfff ? `\\u${code.toString(16)}` : escapeRegExp(char));
  alternatives.push(`${backslashes(1, MAX_ESCAPE_BACKSLASHES, first)}u${hexPattern(code)}`);
  const short = SHORT_ESCAPES[code];
  if (short !== undefined) alternatives.push(`${backslashes(1, MAX_ESCAPE_BACKSLASHES, first)}${short}`);
  return alternatives.length === 1 ? alternatives[0]! : `(?:${alternatives.join('|')})`;
}

/** A secret's pattern: each code unit in any of its JSON forms, or the whole percent-encoded or lower-cased. */
function secretPattern(secret: string): string {
  let units = '';
  for (let i = 0; i < secret.length; i++) {
    if (secret.charCodeAt(i) === 0x5c /* \\ */) {
      // A run of n backslashes is one quantifier (each written once to MAX_BACKSLASH_COPIES
      // times), never n of them in a row: those could split a server's run of backslashes in
      // exponentially many ways.
      let n = 1;
      while (secret.charCodeAt(i + n) === 0x5c) n++;
      units += backslashes(n, MAX_BACKSLASH_COPIES * n, i === 0);
      i += n - 1;
      continue;
    }
    units += unitPattern(secret.charCodeAt(i), i === 0);
  }
  const whole = new Set([percentEncode(secret), secret.toLowerCase(), percentEncode(secret).toLowerCase()]);
  whole.delete(secret);
  return [units, ...[...whole].map(escapeRegExp)].join('|');
}

/**
 * The secrets of one call, compiled once into a matcher for every form they can take. Cheap to
 * create: the pattern is built on the first text that could hold a secret.
 *
 * @example
 * ```ts
 * const secrets = createRedactor(['tok_live/1']);
 * secrets.redact('{"echo":"tok_live\\/1"}'); // '{"echo":"[redacted]"}'
 * ```
 */
export interface Redactor {
  /** Whether `text` holds a secret in any form. */
  test(text: string): boolean;
  /** `text` with every form of every secret replaced by `[redacted]`. */
  redact(text: string): string;
  /**
   * A copy of parsed JSON data with every string (keys too) redacted, and every number whose
   * text holds a secret (a numeric credential echoed as a JSON number) replaced by
   * `[redacted]`; `data` itself when nothing matched.
   */
  redactData(data: unknown): unknown;
}

/** A JSON number as written (RFC 8259 §6): a secret of this shape can be echoed as a number. */
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * Compiles the matcher for `secrets` (empty strings ignored). Longer secrets are matched first,
 * so a secret that contains another is redacted whole.
 */
export function createRedactor(secrets: readonly string[] | undefined): Redactor | undefined {
  const list = [...new Set((secrets ?? []).filter((secret) => typeof secret === 'string' && secret !== ''))];
  if (list.length === 0) return undefined;
  list.sort((a, b) => b.length - a.length);
  // Every encoded form needs a backslash or a `%`; without one, only the plain forms can be there.
  const plain = [...new Set(list.flatMap((secret) => [secret, secret.toLowerCase()]))];
  let pattern: RegExp | undefined;
  const matcher = (): RegExp => (pattern ??= new RegExp(list.map(secretPattern).join('|'), 'g'));
  const mayHold = (text: string): boolean => text.includes('\\') || text.includes('%') || plain.some((form) => text.includes(form));
  const test = (text: string): boolean => {
    if (!mayHold(text)) return false;
    const regex = matcher();
    regex.lastIndex = 0;
    return regex.test(text);
  };
  const redactText = (text: string): string => (test(text) ? text.replace(matcher(), REDACTED) : text);
  // Numbers are compared as text: as JavaScript writes the parsed number, which for a numeric
  // secret past 2^53 is its rounded value (`12345678901234567890` parses to …7000).
  const numeric = new Set(list.filter((secret) => JSON_NUMBER.test(secret)).map((secret) => String(Number(secret))));
  const redactData = (data: unknown): unknown => {
    if (typeof data === 'string') return redactText(data);
    if (typeof data === 'number') {
      const text = String(data);
      return numeric.has(text) || test(text) ? REDACTED : data;
    }
    if (Array.isArray(data)) {
      let copy: unknown[] | undefined;
      data.forEach((item, index) => {
        const redacted = redactData(item);
        if (redacted !== item) (copy ??= [...data])[index] = redacted;
      });
      return copy ?? data;
    }
    if (typeof data !== 'object' || data === null) return data;
    let changed = false;
    const entries = Object.entries(data).map(([key, value]): [string, unknown] => {
      const entry: [string, unknown] = [redactText(key), redactData(value)];
      if (entry[0] !== key || entry[1] !== value) changed = true;
      return entry;
    });
    if (!changed) return data;
    const copy: Record<string, unknown> = Object.getPrototypeOf(data) === null ? Object.create(null) : {};
    for (const [key, value] of entries) Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
    return copy;
  };
  return { test, redact: redactText, redactData };
}

/**
 * A text that is only the start of what the server sent (a body cut at a cap, an error's first
 * bytes), without the end that a secret the cut went through could be in: a secret cut in two
 * is found in no form, so its first part would show. The last {@link LONGEST_UNIT_FORM} ×
 * (the longest secret's length) characters are dropped — more than any form of it the matcher
 * knows — before the text is redacted.
 *
 * @example
 * ```ts
 * withoutCutSecrets(prefixText, [credential]); // what may be redacted and shown of a cut body
 * ```
 */
export function withoutCutSecrets(text: string, secrets: readonly string[]): string {
  let longest = 0;
  for (const secret of secrets) if (secret.length > longest) longest = secret.length;
  return longest === 0 ? text : text.slice(0, Math.max(0, text.length - LONGEST_UNIT_FORM * longest));
}

/**
 * Replaces every occurrence of every non-empty secret, in every form a JSON encoder, a URL
 * encoder or a host-name parser writes it, with `[redacted]`.
 */
export function redact(text: string, secrets: readonly string[] | Redactor | undefined): string {
  const redactor = Array.isArray(secrets) || secrets === undefined ? createRedactor(secrets as readonly string[] | undefined) : (secrets as Redactor);
  return redactor === undefined ? text : redactor.redact(text);
}

/** A value-free copy of a cause: its name, `code` (when it is a plain code) and redacted message. */
function cleanCause(cause: unknown, redactor: Redactor, depth: number): Error {
  const source = cause instanceof Error ? cause : new Error(String(cause));
  const copy = new Error(redactor.redact(source.message));
  copy.name = source.name;
  const code = (source as { code?: unknown }).code;
  if (typeof code === 'string' && /^[A-Z0-9_]{1,60}$/.test(code)) Object.assign(copy, { code });
  copy.stack = `${copy.name}: ${copy.message}`;
  if (source.cause !== undefined && depth < MAX_CAUSE_DEPTH) copy.cause = cleanCause(source.cause, redactor, depth + 1);
  return copy;
}

/**
 * Redacts an error the client is about to throw, in place: its message and stack, and its cause
 * chain, replaced by value-free copies (a foreign error may carry the URL or the body it failed
 * on in fields of its own). Returns the error.
 */
export function redactError<E>(error: E, secrets: readonly string[] | undefined): E {
  const redactor = createRedactor(secrets);
  if (!(error instanceof Error) || redactor === undefined) return error;
  const message = redactor.redact(error.message);
  if (message !== error.message) {
    Object.defineProperty(error, 'message', { value: message, writable: true, configurable: true, enumerable: false });
  }
  if (typeof error.stack === 'string') error.stack = redactor.redact(error.stack);
  if (error.cause !== undefined) {
    Object.defineProperty(error, 'cause', {
      value: cleanCause(error.cause, redactor, 1),
      writable: true,
      configurable: true,
      enumerable: false,
    });
  }
  return error;
}
