import { RcpError, isRcpError } from 'rcp-errors';
import { isRecord } from 'rcp-internal';
import { copyManifest } from './internal/copy-manifest';
import { isFilterEngine, type RcpFilterEngine } from './internal/filter-engine';
import { readManifestInput, type ManifestLimits } from './internal/read-input';
import { own, validateManifest } from './internal/validate-manifest';
import { RcpManifestError, RcpManifestLimitError, RcpVersionError, type ManifestIssue } from './manifest-errors';
import type { RcpManifest } from './manifest-schema';
import { RCP_VERSIONS, isSupportedVersion } from './versions';

/**
 * Limits applied to a manifest (each a positive safe integer), and the JSONPath filter engine
 * where the runtime cannot load it synchronously.
 *
 * @example
 * ```ts
 * parseManifest(text, { maxBytes: 1024 * 1024, maxTools: 200, maxDepth: 32 });
 * parseManifest(text, await prepareManifest(text)); // in a browser or an edge runtime
 * ```
 */
export interface ParseManifestOptions {
  /**
   * Largest manifest text accepted, in UTF-8 bytes. Applies when the input is a string or a
   * `Uint8Array` (an already-parsed value has no byte size).
   * @default 5242880 (5 MiB)
   */
  maxBytes?: number;
  /**
   * Largest number of tools accepted.
   * @default 5000
   */
  maxTools?: number;
  /**
   * Deepest JSON nesting accepted (the manifest object itself is level 1; a tool is level 3).
   * @default 64
   */
  maxDepth?: number;
  /**
   * The JSONPath filter engine, for a response path with a filter selector (`[?…]`) in a runtime
   * without a synchronous `require` (browsers, edge runtimes, bundles): what
   * {@link prepareManifest} returns, or `await loadFilterEngine()`. Whether a manifest parses
   * depends on this option and the runtime only, never on an earlier call.
   * @default on Node, the engine loaded synchronously on first need; elsewhere none (a filter is refused, naming this option)
   */
  filterEngine?: RcpFilterEngine;
}

/**
 * The default limits of {@link ParseManifestOptions}.
 *
 * @example
 * ```ts
 * import { DEFAULT_MANIFEST_LIMITS } from 'rcp-manifest';
 * DEFAULT_MANIFEST_LIMITS.maxBytes; // 5242880
 * ```
 */
export const DEFAULT_MANIFEST_LIMITS: Readonly<Required<Omit<ParseManifestOptions, 'filterEngine'>>> = Object.freeze({
  maxBytes: 5 * 1024 * 1024,
  maxTools: 5000,
  maxDepth: 64,
});

/**
 * Result of {@link safeParseManifest}.
 *
 * @example
 * ```ts
 * const result: SafeParseManifestResult = safeParseManifest(json);
 * if (result.ok) console.log(result.manifest.tools.length, result.warnings);
 * else console.error(result.error.code);
 * ```
 */
export type SafeParseManifestResult =
  | {
      readonly ok: true;
      /** The validated, deep-frozen manifest. */
      readonly manifest: RcpManifest;
      /** Unknown fields and unused params: accepted, but probably mistakes. */
      readonly warnings: readonly ManifestIssue[];
    }
  | {
      readonly ok: false;
      /**
       * The warnings found before the manifest was refused (a misspelled field next to the
       * error it caused); empty when it was refused before its fields were read (version,
       * limits, not JSON).
       */
      readonly warnings: readonly ManifestIssue[];
      /**
       * `RcpVersionError` (RCP_UNSUPPORTED_VERSION), `RcpManifestError` (RCP_INVALID_MANIFEST),
       * `RcpManifestLimitError` (RCP_MANIFEST_LIMIT), or an `RcpError` RCP_INVALID_OPTIONS.
       */
      readonly error: RcpError;
    };

function resolveLimits(options: ParseManifestOptions | undefined): ManifestLimits {
  if (options !== undefined && (typeof options !== 'object' || options === null)) {
    throw new RcpError('RCP_INVALID_OPTIONS', 'parseManifest options must be an object');
  }
  const limits = { ...DEFAULT_MANIFEST_LIMITS };
  for (const key of ['maxBytes', 'maxTools', 'maxDepth'] as const) {
    const value = options?.[key];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
      throw new RcpError('RCP_INVALID_OPTIONS', `parseManifest option ${key} must be a positive integer`);
    }
    limits[key] = value;
  }
  const filterEngine = options?.filterEngine;
  if (filterEngine !== undefined && !isFilterEngine(filterEngine)) {
    throw new RcpError('RCP_INVALID_OPTIONS', 'parseManifest option filterEngine must be what loadFilterEngine() returns');
  }
  return limits;
}

/** What {@link parse} found: the manifest, or the error; the warnings either way. */
type Parsed = { ok: true; manifest: RcpManifest; warnings: ManifestIssue[] } | { ok: false; error: RcpError; warnings: ManifestIssue[] };

/** Parses and validates; never throws, except RCP_INVALID_OPTIONS for bad options. */
function parse(input: unknown, options: ParseManifestOptions | undefined): Parsed {
  const limits = resolveLimits(options);
  const filterEngine = options?.filterEngine;
  let warnings: ManifestIssue[] = [];
  try {
    const value = readManifestInput(input, limits);
    if (!isRecord(value)) {
      throw new RcpManifestError([{ path: '', message: 'the manifest must be a JSON object' }]);
    }
    const version = own(value, 'rcpVersion');
    if (!isSupportedVersion(version)) throw new RcpVersionError(version, RCP_VERSIONS);
    const tools = own(value, 'tools');
    if (Array.isArray(tools) && tools.length > limits.maxTools) {
      throw new RcpManifestLimitError('tools', limits.maxTools, tools.length);
    }
    const result = validateManifest(value, filterEngine);
    warnings = result.warnings;
    if (result.issues.length > 0) throw new RcpManifestError(result.issues);
    return { ok: true, manifest: copyManifest(value), warnings };
  } catch (cause) {
    // Only exotic non-JSON input (throwing getters, proxies) throws anything else: report, never crash.
    const error = isRcpError(cause) ? cause : new RcpManifestError([{ path: '', message: 'the manifest could not be read as JSON data' }], { cause });
    return { ok: false, error, warnings };
  }
}

/**
 * Validates an RCP manifest and returns a deep-frozen copy holding only the fields RCP 0.1
 * defines. `input` is the parsed JSON value, or its text as a string or UTF-8 bytes.
 *
 * Order: the byte and depth limits (they guard the parser), then the version gate (a missing or
 * unsupported `rcpVersion` throws {@link RcpVersionError} and nothing else is examined), the
 * tool-count limit, then every rule at once: all problems are collected and thrown together as
 * one {@link RcpManifestError} whose `issues` carry JSON Pointers.
 *
 * @param input - The manifest: a JSON value, a JSON string, or UTF-8 bytes.
 * @param options - Limits, see {@link ParseManifestOptions}.
 * @returns The validated manifest (deep-frozen; unknown fields dropped; nothing defaulted).
 * @throws {@link RcpVersionError} RCP_UNSUPPORTED_VERSION, {@link RcpManifestError} RCP_INVALID_MANIFEST,
 *   {@link RcpManifestLimitError} RCP_MANIFEST_LIMIT, or `RcpError` RCP_INVALID_OPTIONS for bad options.
 *
 * @example
 * ```ts
 * import { parseManifest, RcpManifestError } from 'rcp-manifest';
 *
 * const response = await fetch('https://api.example.com/rcp');
 * try {
 *   const manifest = parseManifest(await response.text());
 *   console.log(manifest.tools.map((tool) => tool.name));
 * } catch (error) {
 *   if (error instanceof RcpManifestError) console.error(error.issues); // [{ path: '/tools/0/url', message: '...' }]
 *   else throw error; // RCP_UNSUPPORTED_VERSION, RCP_MANIFEST_LIMIT, ...
 * }
 * ```
 */
export function parseManifest(input: unknown, options?: ParseManifestOptions): RcpManifest {
  const parsed = parse(input, options);
  if (!parsed.ok) throw parsed.error;
  return parsed.manifest;
}

/**
 * Like {@link parseManifest}, but never throws: returns `{ ok: true, manifest, warnings }` or
 * `{ ok: false, error, warnings }`. Warnings list unknown fields (ignored) and declared params
 * no template uses; they are kept when the manifest is refused too, so a misspelled field
 * (`requried`) is shown next to the error it caused.
 *
 * @param input - The manifest: a JSON value, a JSON string, or UTF-8 bytes.
 * @param options - Limits, see {@link ParseManifestOptions}.
 *
 * @example
 * ```ts
 * import { safeParseManifest } from 'rcp-manifest';
 *
 * const result = safeParseManifest(await response.text());
 * for (const warning of result.warnings) console.warn(warning.path, warning.message);
 * if (!result.ok) throw result.error;
 * ```
 */
export function safeParseManifest(input: unknown, options?: ParseManifestOptions): SafeParseManifestResult {
  let parsed: Parsed;
  try {
    parsed = parse(input, options);
  } catch (error) {
    parsed = { ok: false, error: error as RcpError, warnings: [] }; // RCP_INVALID_OPTIONS
  }
  const warnings = Object.freeze(parsed.warnings.map((warning) => Object.freeze(warning)));
  return parsed.ok
    ? Object.freeze({ ok: true as const, manifest: parsed.manifest, warnings })
    : Object.freeze({ ok: false as const, error: parsed.error, warnings });
}
