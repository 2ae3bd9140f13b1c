import type { RcpManifest } from './manifest-schema';
import { parseManifest } from './parse-manifest';

/**
 * For server authors: declares a manifest in TypeScript. Typed at compile time (the literal
 * types are kept, so `manifest.tools[0].name` is `'search_courses'`, not `string`) and
 * validated at run time with every rule of {@link parseManifest}, which it throws on.
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
export function defineManifest<const M extends RcpManifest>(manifest: M): M {
  return parseManifest(manifest) as M;
}
