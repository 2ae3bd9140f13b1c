import { percentEncode } from 'rcp-template';

/**
 * The one redaction routine: everything the client builds from server-controlled text (status
 * text, content type, redirect targets, parse errors, body excerpts) goes through it before an
 * error leaves the client, so a server that reflects the credential or a resolver value gets
 * `[redacted]` back, in the message and all along the cause chain.
 */

const REDACTED = '[redacted]';
/** Causes kept at the most: deeper ones are dropped. */
const MAX_CAUSE_DEPTH = 4;


/**
 * A secret as written, JSON-escaped, percent-encoded (as in a URL path or query), and lower-cased
 * (as a URL parser writes it into a host name).
 */
function secretForms(secret: string): string[] {
  return [secret, JSON.stringify(secret).slice(1, -1), percentEncode(secret), secret.toLowerCase()];
}

/**
 * Replaces every occurrence of every non-empty secret with `[redacted]`: as written,
 * JSON-escaped and percent-encoded, longest first.
 */
export function redact(text: string, secrets: readonly string[] | undefined): string {
  if (secrets === undefined || secrets.length === 0) return text;
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (typeof secret === 'string' && secret !== '') for (const form of secretForms(secret)) forms.add(form);
  }
  const sorted = [...forms].sort((a, b) => b.length - a.length);
  for (const form of sorted) text = text.split(form).join(REDACTED);
  return text;
}

/** A value-free copy of a cause: its name, `code` (when it is a plain code) and redacted message. */
function cleanCause(cause: unknown, secrets: readonly string[], depth: number): Error {
  const source = cause instanceof Error ? cause : new Error(String(cause));
  const copy = new Error(redact(source.message, secrets));
  copy.name = source.name;
  const code = (source as { code?: unknown }).code;
  if (typeof code === 'string' && /^[A-Z0-9_]{1,60}$/.test(code)) Object.assign(copy, { code });
  copy.stack = `${copy.name}: ${copy.message}`;
  if (source.cause !== undefined && depth < MAX_CAUSE_DEPTH) copy.cause = cleanCause(source.cause, secrets, depth + 1);
  return copy;
}

/**
 * Redacts an error the client is about to throw, in place: its message and stack, and its cause
 * chain, replaced by value-free copies (a foreign error may carry the URL or the body it failed
 * on in fields of its own). Returns the error.
 */
export function redactError<E>(error: E, secrets: readonly string[] | undefined): E {
  if (!(error instanceof Error) || secrets === undefined || secrets.length === 0) return error;
  const message = redact(error.message, secrets);
  if (message !== error.message) {
    Object.defineProperty(error, 'message', { value: message, writable: true, configurable: true, enumerable: false });
  }
  if (typeof error.stack === 'string') error.stack = redact(error.stack, secrets);
  if (error.cause !== undefined) {
    Object.defineProperty(error, 'cause', {
      value: cleanCause(error.cause, secrets, 1),
      writable: true,
      configurable: true,
      enumerable: false,
    });
  }
  return error;
}
