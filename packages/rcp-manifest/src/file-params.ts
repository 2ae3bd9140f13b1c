/**
 * RCP 0.4 file params (SPEC §20.7): the one rule of what a model may pass as a file reference,
 * shared by the client (before its resolver runs) and a server that checks what arrived.
 */

/** Longest reference accepted, in characters: an id or a URI, never a file's bytes. */
export const FILE_REFERENCE_MAX_LENGTH = 2048;

// C0 controls, DEL and C1 controls: never in an id or a URI a host issued.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** A URI scheme of two characters or more (`C:` is a drive, not a scheme). */
const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]+):/;

/**
 * Why a model's file reference is refused, or `undefined` when it may be passed to the client's
 * file resolver. A reference names an attachment the host issued (an opaque id such as
 * `file-abc123`) or a URI the host received (`https://…`, `mcp://…`); the model never passes bytes
 * or a path. Refused: the empty string; more than {@link FILE_REFERENCE_MAX_LENGTH} characters;
 * a control character; a `data:` or `file:` URI; a drive path (`C:\…`, `C:/…`); without a scheme,
 * any `/` or `\` (absolute, relative or UNC paths), a leading `~`, and `.` or `..`.
 * The message names the rule, never the reference.
 *
 * @example
 * ```ts
 * // internal to rcp-manifest: the argument check runs it on every file param's value
 * fileReferenceProblem('file-abc123'); // undefined
 * fileReferenceProblem('/etc/passwd'); // 'must be an attachment reference, not a path'
 * fileReferenceProblem('data:image/png;base64,iVBORw0KGgo='); // 'must be an attachment reference, not the file's bytes (a data: URI)'
 * ```
 */
export function fileReferenceProblem(reference: string): string | undefined {
  if (reference === '') return 'must be an attachment reference (it is empty)';
  if (reference.length > FILE_REFERENCE_MAX_LENGTH) {
    return `must be an attachment reference of at most ${FILE_REFERENCE_MAX_LENGTH} characters, never the file's bytes`;
  }
  if (CONTROL.test(reference)) return 'must be an attachment reference (it contains a control character)';
  const scheme = SCHEME.exec(reference)?.[1]?.toLowerCase();
  if (scheme === 'data') return "must be an attachment reference, not the file's bytes (a data: URI)";
  if (scheme === 'file') return 'must be an attachment reference, not a path (a file: URI)';
  if (scheme !== undefined) return undefined;
  if (
    /^[A-Za-z]:/.test(reference) ||
    reference.includes('/') ||
    reference.includes('\\') ||
    reference.startsWith('~') ||
    reference === '.' ||
    reference === '..'
  ) {
    return 'must be an attachment reference, not a path';
  }
  return undefined;
}
