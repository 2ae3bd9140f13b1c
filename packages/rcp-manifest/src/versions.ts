/**
 * Every RCP protocol version this package understands, oldest first. A manifest whose
 * `rcpVersion` is not in this list is refused (`RCP_UNSUPPORTED_VERSION`), never guessed at.
 *
 * @example
 * ```ts
 * import { RCP_VERSIONS } from 'rcp-manifest';
 * console.log(`supports RCP ${RCP_VERSIONS.join(', ')}`); // "supports RCP 0.1, 0.2, 0.3, 0.4"
 * ```
 */
export const RCP_VERSIONS = Object.freeze(['0.1', '0.2', '0.3', '0.4'] as const);

/**
 * A supported RCP protocol version string.
 *
 * @example
 * ```ts
 * import type { RcpVersion } from 'rcp-manifest';
 * const version: RcpVersion = '0.1';
 * ```
 */
export type RcpVersion = (typeof RCP_VERSIONS)[number];

/**
 * True when `value` is exactly one of {@link RCP_VERSIONS} (a string compared verbatim:
 * `"0.1.0"`, `" 0.1"` and the number `0.1` are not supported versions).
 *
 * @example
 * ```ts
 * import { isSupportedVersion } from 'rcp-manifest';
 * isSupportedVersion('0.1'); // true
 * isSupportedVersion('0.3'); // true
 * isSupportedVersion('0.4'); // true
 * isSupportedVersion('0.5'); // false
 * isSupportedVersion(0.1);   // false
 * ```
 */
export function isSupportedVersion(value: unknown): value is RcpVersion {
  return typeof value === 'string' && (RCP_VERSIONS as readonly string[]).includes(value);
}
