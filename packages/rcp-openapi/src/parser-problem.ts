/**
 * What the OpenAPI validator and dereferencer (`@readme/openapi-parser`) said, told in our own
 * words. They name a document given as an object by the process's working directory
 * (`Maximum dereference depth (500) exceeded at /home/me/app/#/components/schemas/S500`) and
 * their errors carry that directory and their stack in own fields (`source`, a `toJSON` with the
 * stack), so their errors are never shown or chained as a cause: an import error holds no path
 * of the machine that ran it (issue 38).
 */

const MAX_SHOWN = 120;

/** Document text (a `$ref`, a pointer) as an error shows it: bounded, quoted, controls escaped. */
function quoted(text: string): string {
  return JSON.stringify(text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}…` : text);
}

/** The JSON pointer of a library message's location, without the base the library put before it. */
function fragmentOf(message: string): string | undefined {
  return /(#\/?[^\s]*?)\.?(?:\s|$)/.exec(message)?.[1];
}

/**
 * Why the dereferencer (or the validator, which dereferences first) failed, from the error's
 * kind and its document pointers, never its message.
 *
 * @example
 * ```ts
 * parserProblem(new RangeError('Maximum dereference depth (500) exceeded at /home/me/#/components/schemas/S500. …'));
 * // 'a chain of $refs deeper than 500 levels, at "#/components/schemas/S500"'
 * ```
 */
export function parserProblem(error: unknown): string {
  if (error instanceof RangeError) {
    const depth = /^Maximum dereference depth \((\d+)\)/.exec(error.message)?.[1];
    if (depth === undefined) return 'it is too deeply nested to resolve';
    const at = fragmentOf(error.message);
    return `a chain of $refs deeper than ${depth} levels${at === undefined ? '' : `, at ${quoted(at)}`}`;
  }
  const details = typeof error === 'object' && error !== null ? (error as Record<string, unknown>) : {};
  const { code, targetRef, parentPath } = details;
  if (code === 'EMISSINGPOINTER' && typeof targetRef === 'string') {
    const at = typeof parentPath === 'string' ? `, at ${quoted(parentPath)}` : '';
    return `the $ref ${quoted(targetRef)} points to nothing in the document${at}`;
  }
  if (code === 'EINVALIDPOINTER') return 'a $ref is not a JSON pointer into the document ("#/…")';
  if (code === 'ETIMEOUT') return 'resolving its $refs took too long';
  return typeof code === 'string' && /^E[A-Z]{2,30}$/.test(code) ? `the parser failed (${code})` : 'the parser failed';
}

/**
 * A validator's complaint as a document warning: its first line, bounded, with any base the
 * library wrote before a document pointer (`/home/me/app/#/paths/…`, `file:///…#/…`) taken out.
 *
 * @example
 * ```ts
 * validatorWarning('Token "x" does not exist at /srv/app/#/paths/~1a'); // 'Token "x" does not exist at #/paths/~1a'
 * ```
 */
export function validatorWarning(message: string): string {
  return message
    .split('\n')[0]!
    .replace(/[^\s"'`()<>]+(?=#\/)/g, '')
    .slice(0, 300);
}
