import type { ManifestIssue } from './manifest-errors';
import type { RcpManifest } from './manifest-schema';
import { safeParseManifest } from './parse-manifest';

type KeysOf<T> = T extends unknown ? keyof T : never;
type ValueAt<T, K extends PropertyKey> = T extends unknown ? (K extends keyof T ? T[K] : never) : never;
/** The shape of a declared field: `unknown` (an open JSON value such as `body`) stays `unknown`. */
type FieldShape<S> = unknown extends S ? unknown : NonNullable<S>;

declare const notAManifestField: unique symbol;

/**
 * The type {@link defineManifest} gives a key the manifest format does not have, so the compiler's
 * error names it: `Type 'true' is not assignable to type 'UnknownManifestKey<"requried">'`.
 * No value has this type.
 *
 * @example
 * ```ts
 * type Typo = UnknownManifestKey<'requried'>; // what `requried: true` is checked against
 * ```
 */
export interface UnknownManifestKey<Key extends PropertyKey> {
  /** The key that is not a field of the RCP manifest format here. */
  readonly [notAManifestField]: Key;
}

/**
 * `T` with every key that `Shape` does not declare typed {@link UnknownManifestKey} (named in
 * the compiler's error), at every depth (arrays and unions of shapes included): what makes
 * {@link defineManifest} refuse `requried: true` or `responseMapping: {}` at compile time.
 * Values whose shape is open (`body`, `default`: any JSON value, objects and arrays included)
 * are left as they are.
 *
 * @example
 * ```ts
 * type Checked = NoUnknownKeys<{ name: 'a'; typo: 1 }, { name: string }>;
 * // { name: 'a'; typo: UnknownManifestKey<'typo'> }
 * ```
 */
export type NoUnknownKeys<T, Shape> = unknown extends Shape
  ? T
  : T extends readonly unknown[]
    ? Shape extends readonly (infer Item)[]
      ? { readonly [I in keyof T]: NoUnknownKeys<T[I], Item> }
      : T
    : T extends object
      ? Shape extends object
        ? {
            [K in keyof T]: K extends KeysOf<Shape> ? NoUnknownKeys<T[K], FieldShape<ValueAt<Shape, K>>> : UnknownManifestKey<K>;
          }
        : T
      : T;

/**
 * Options of {@link defineManifest}.
 *
 * @example
 * ```ts
 * defineManifest(manifest, { onWarning: (warning) => logger.warn(warning) });
 * ```
 */
export interface DefineManifestOptions {
  /**
   * Called with each warning (an unknown field, a param no template uses): accepted by every
   * client, but probably a mistake in your own manifest.
   * @default prints it with `console.warn`
   */
  onWarning?: (warning: ManifestIssue) => void;
}

const printWarning = (warning: ManifestIssue): void => {
  console.warn(`rcp-manifest: ${warning.path || '(root)'}: ${warning.message}`);
};

/**
 * For server authors: declares a manifest in TypeScript. Typed at compile time — the literal
 * types are kept (`manifest.tools[0].name` is `'search_courses'`, not `string`) and a key the
 * manifest format does not have (`requried`, `responseMapping`) is a type error — and
 * validated at run time with every rule of {@link parseManifest}, which it throws on.
 * Warnings (an unknown field in plain JavaScript, a param no template uses) go to
 * `options.onWarning`, by default `console.warn`.
 *
 * @param manifest - The manifest literal.
 * @returns The validated, deep-frozen manifest.
 * @throws {@link RcpManifestError} RCP_INVALID_MANIFEST (or another manifest error) when a rule is broken.
 *
 * @example
 * ```ts
 * import { defineManifest } from 'rcp-manifest';
 *
 * export const manifest = defineManifest({
 *   rcpVersion: '0.1',
 *   auth: { type: 'none' },
 *   tools: [
 *     {
 *       name: 'search_courses',
 *       description: 'Searches the course catalog by free-text query.',
 *       method: 'GET',
 *       url: '/courses/search',
 *       queryParams: { q: '{{query}}' },
 *       params: [{ name: 'query', type: 'string', required: true }],
 *     },
 *   ],
 * });
 * app.get('/rcp', (req, res) => res.json(manifest));
 * ```
 */
export function defineManifest<const M extends RcpManifest>(manifest: M & NoUnknownKeys<M, RcpManifest>, options: DefineManifestOptions = {}): M {
  const parsed = safeParseManifest(manifest);
  const onWarning = options.onWarning ?? printWarning;
  for (const warning of parsed.warnings) onWarning(warning);
  if (!parsed.ok) throw parsed.error;
  return parsed.manifest as M;
}
