import { RcpError } from 'rcp-errors';

/**
 * One problem (or warning) found in a manifest. `path` is an RFC 6901 JSON Pointer into the
 * manifest (`""` is the whole document, `/tools/1/params/0/name` a param name; `~` and `/` in
 * keys are escaped as `~0` and `~1`).
 *
 * @example
 * ```ts
 * const issue: ManifestIssue = { path: '/tools/2/name', message: 'duplicate tool name "search"' };
 * ```
 */
export interface ManifestIssue {
  /** JSON Pointer (RFC 6901) to the offending value. */
  readonly path: string;
  /** What is wrong, in plain English. Never contains a credential. */
  readonly message: string;
}

/**
 * Which limit a manifest exceeded: its text size in bytes, its tool count, or its JSON nesting depth.
 *
 * @example
 * ```ts
 * if (error instanceof RcpManifestLimitError) {
 *   const which: ManifestLimit = error.limit; // 'bytes' | 'tools' | 'depth'
 * }
 * ```
 */
export type ManifestLimit = 'bytes' | 'tools' | 'depth';

const MAX_ISSUES_IN_MESSAGE = 5;

function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'string') {
    const shown = value.length > 32 ? `${value.slice(0, 32)}…` : value;
    return JSON.stringify(shown);
  }
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

/**
 * Thrown when a manifest's `rcpVersion` is missing, not a string, or not one of
 * `RCP_VERSIONS`. The version gate runs before any other rule, so nothing else in the
 * manifest was examined: a client must refuse the server's tools rather than guess.
 *
 * @example
 * ```ts
 * import { parseManifest, RcpVersionError } from 'rcp-manifest';
 * try { parseManifest({ rcpVersion: '0.2', tools: [] }); }
 * catch (error) {
 *   if (error instanceof RcpVersionError) console.log(error.received, error.supported); // '0.2' ['0.1']
 * }
 * ```
 */
export class RcpVersionError extends RcpError<'RCP_UNSUPPORTED_VERSION'> {
  /** The `rcpVersion` value found (`undefined` when absent). */
  readonly received: unknown;
  /** The versions this SDK supports. */
  readonly supported: readonly string[];

  constructor(received: unknown, supported: readonly string[]) {
    const list = supported.map((v) => `"${v}"`).join(', ');
    const what =
      received === undefined
        ? 'The manifest has no rcpVersion'
        : typeof received === 'string'
          ? `Unsupported rcpVersion ${describeValue(received)}`
          : `rcpVersion must be a string, got ${describeValue(received)}`;
    super('RCP_UNSUPPORTED_VERSION', `${what}; supported: ${list}. The server's tools were not loaded.`);
    this.received = received;
    this.supported = supported;
  }
}

/**
 * Thrown when a manifest breaks one or more rules. Every problem is collected first, so
 * `issues` lists all of them (each with a JSON Pointer); the message names the first few.
 *
 * @example
 * ```ts
 * import { parseManifest, RcpManifestError } from 'rcp-manifest';
 * try { parseManifest(json); }
 * catch (error) {
 *   if (error instanceof RcpManifestError) for (const issue of error.issues) console.log(issue.path, issue.message);
 * }
 * ```
 */
export class RcpManifestError extends RcpError<'RCP_INVALID_MANIFEST'> {
  /** Every problem found, in document order. Never empty. */
  readonly issues: readonly ManifestIssue[];

  constructor(issues: readonly ManifestIssue[], options: { cause?: unknown } = {}) {
    const shown = issues
      .slice(0, MAX_ISSUES_IN_MESSAGE)
      .map((issue) => `${issue.path === '' ? '(root)' : issue.path}: ${issue.message}`)
      .join('; ');
    const more = issues.length > MAX_ISSUES_IN_MESSAGE ? ` (and ${issues.length - MAX_ISSUES_IN_MESSAGE} more)` : '';
    const count = issues.length === 1 ? '1 problem' : `${issues.length} problems`;
    super('RCP_INVALID_MANIFEST', `Invalid RCP manifest, ${count}: ${shown}${more}`, options);
    this.issues = Object.freeze(issues.map((issue) => Object.freeze({ path: issue.path, message: issue.message })));
  }
}

/**
 * Thrown when a manifest exceeds a size limit (text bytes, tool count or JSON nesting depth).
 * The limits protect the client from hostile or broken servers; raise them through the
 * parse options if you trust the source.
 *
 * @example
 * ```ts
 * import { parseManifest, RcpManifestLimitError } from 'rcp-manifest';
 * try { parseManifest(hugeText); }
 * catch (error) {
 *   if (error instanceof RcpManifestLimitError) console.log(error.limit, error.max, error.actual); // 'bytes' 5242880 9000000
 * }
 * ```
 */
export class RcpManifestLimitError extends RcpError<'RCP_MANIFEST_LIMIT'> {
  /** Which limit was exceeded. */
  readonly limit: ManifestLimit;
  /** The limit in force. */
  readonly max: number;
  /** The measured size, when it was measured (`depth` stops counting at the first level over `max`). */
  declare readonly actual?: number;

  constructor(limit: ManifestLimit, max: number, actual?: number) {
    const unit = limit === 'bytes' ? 'bytes' : limit === 'tools' ? 'tools' : 'levels of nesting';
    const got = actual === undefined ? 'more' : String(actual);
    super('RCP_MANIFEST_LIMIT', `The manifest exceeds the ${limit} limit: ${got} ${unit}, at most ${max} allowed.`);
    this.limit = limit;
    this.max = max;
    if (actual !== undefined) this.actual = actual;
  }
}
