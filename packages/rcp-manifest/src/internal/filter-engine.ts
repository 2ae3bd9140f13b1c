import type { JsonValue } from 'jsonpath-rfc9535';
import type { JsonPathQuery } from 'jsonpath-rfc9535/parser';

/*
 * The JSONPath library (`jsonpath-rfc9535`, ~40 module files) parses and evaluates filter
 * selectors (`[?…]`) only. It is not imported by rcp-manifest's entry (issue 26: cold start);
 * it is loaded when a manifest has a filter:
 * - `loadFilterEngine()` imports it (`import()`, so a bundle carries it as a lazy chunk);
 *   `prepareManifest` awaits it for a manifest that needs it;
 * - `filterEngine()`, on the synchronous path (`parseManifest`), returns it if loaded, else on
 *   Node requires it synchronously (`process.getBuiltinModule`, Node ≥ 20.16); elsewhere it is
 *   undefined and the path is refused with a message naming `prepareManifest`.
 *
 * The one module-level binding below holds loaded code, as the module registry does — never data
 * of a manifest or a client.
 */

/** The two functions of the library that filter queries need. */
export interface FilterEngine {
  /** The library's parser (peggy; no code generated or evaluated). */
  parse(text: string): JsonPathQuery;
  /** The library's evaluator (re-parses `text`). */
  query(data: unknown, text: string): unknown[];
}

let loaded: FilterEngine | undefined;

interface LibraryModules {
  readonly library: { query(data: JsonValue, text: string): unknown[] };
  readonly parser: { default: (text: string) => JsonPathQuery };
}

function engineOf({ library, parser }: LibraryModules): FilterEngine {
  return Object.freeze({ parse: (text: string) => parser.default(text), query: (data: unknown, text: string) => library.query(data as JsonValue, text) });
}

/**
 * Loads the filter engine (once per runtime; later calls return the same engine).
 *
 * @example
 * ```ts
 * const engine = await loadFilterEngine();
 * engine.query([{ a: 1 }, { a: 2 }], '$[?@.a > 1]'); // [{ a: 2 }]
 * ```
 */
export async function loadFilterEngine(): Promise<FilterEngine> {
  if (loaded === undefined) {
    const [library, parser] = await Promise.all([import('jsonpath-rfc9535'), import('jsonpath-rfc9535/parser')]);
    loaded ??= engineOf({ library, parser });
  }
  return loaded;
}

type GetBuiltinModule = (id: 'module') => { createRequire(from: string): (id: string) => unknown };

/** Node's synchronous load of the library's CommonJS build; undefined where there is none. */
function requireFilterEngine(): FilterEngine | undefined {
  const getBuiltinModule = (globalThis as { process?: { getBuiltinModule?: GetBuiltinModule } }).process?.getBuiltinModule;
  if (typeof getBuiltinModule !== 'function') return undefined;
  try {
    const require = getBuiltinModule('module').createRequire(import.meta.url);
    return engineOf({
      library: require('jsonpath-rfc9535') as LibraryModules['library'],
      parser: require('jsonpath-rfc9535/parser') as LibraryModules['parser'],
    });
  } catch {
    return undefined; // e.g. a bundle without node_modules: prepareManifest loads the bundled copy
  }
}

/**
 * The filter engine if it is loaded or can be loaded synchronously here (Node), else undefined.
 *
 * @example
 * ```ts
 * const engine = filterEngine();
 * if (engine === undefined) await loadFilterEngine();
 * ```
 */
export function filterEngine(): FilterEngine | undefined {
  loaded ??= requireFilterEngine();
  return loaded;
}
