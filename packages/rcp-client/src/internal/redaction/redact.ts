import { REDACTED } from 'rcp-errors';
import { percentEncode } from 'rcp-template';

/**
 * The one redaction routine: everything the client builds from server-controlled text (status
 * text, content type, redirect targets, parse errors, body excerpts, an observed response) goes
 * through it before it leaves the client, and so does the data of a 2xx answer that echoes the
 * credential. A server that reflects a secret gets `[redacted]` back, in every form an encoder
 * writes it: as written; JSON-escaped by any encoder (`\/` as PHP writes it, `\u00eb` as
 * Python's `json.dumps` does, in either case of hex, astral characters as surrogate pairs) and
 * escaped once more (a JSON string inside a JSON string); percent-encoded (a URL path or
 * query); and lower-cased (as a URL parser writes a host name).
 */

/** What every redacted secret becomes — in errors, `prepare()`'s output and observed responses (rcp-errors' marker). */
export { REDACTED };
/** Causes kept at the most: deeper ones are dropped. */
const MAX_CAUSE_DEPTH = 4;
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
 * One UTF-16 code unit of a secret, in every form a JSON encoder writes it at one or two levels
 * of string escaping: the character itself (a `/` or `"` possibly behind backslashes, a `\`
 * doubled), `\uXXXX` behind one or two backslashes, or its short escape.
 */
function unitPattern(code: number): string {
  const char = String.fromCharCode(code);
  const alternatives: string[] = [];
  if (char === '/' || char === '"') alternatives.push(`(?:${BACKSLASH}){0,3}${escapeRegExp(char)}`);
  else if (char === '\\') alternatives.push(`(?:${BACKSLASH}){1,4}`);
  else alternatives.push(code >= 0xd800 && code <= 0xdfff ? `\\u${code.toString(16)}` : escapeRegExp(char));
  alternatives.push(`(?:${BACKSLASH}){1,2}u${hexPattern(code)}`);
  const short = SHORT_ESCAPES[code];
  if (short !== undefined) alternatives.push(`(?:${BACKSLASH}){1,2}${short}`);
  return alternatives.length === 1 ? alternatives[0]! : `(?:${alternatives.join('|')})`;
}

/** A secret's pattern: each code unit in any of its JSON forms, or the whole percent-encoded or lower-cased. */
function secretPattern(secret: string): string {
  let units = '';
  for (let i = 0; i < secret.length; i++) {
    if (secret.charCodeAt(i) === 0x5c /* \\ */) {
      // A run of n backslashes is one quantifier (each written once to four times), never n
      // of them in a row: those could split a server's run of backslashes in 4^n ways.
      let n = 1;
      while (secret.charCodeAt(i + n) === 0x5c) n++;
      units += `(?:${BACKSLASH}){${n},${4 * n}}`;
      i += n - 1;
      continue;
    }
    units += unitPattern(secret.charCodeAt(i));
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
  /** A copy of parsed JSON data with every string (keys too) redacted; `data` itself when nothing matched. */
  redactData(data: unknown): unknown;
}

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
  const redactData = (data: unknown): unknown => {
    if (typeof data === 'string') return redactText(data);
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
