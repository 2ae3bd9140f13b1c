import type { JsonValue } from 'jsonpath-rfc9535';
import type { JsonPathQuery } from 'jsonpath-rfc9535/parser';

/*
 * The JSONPath library (`jsonpath-rfc9535`, ~40 module files) parses and evaluates filter
 * selectors (`[?…]`) only. It is not imported by rcp-manifest's entry (issue 26: cold start);
 * it is loaded when a manifest has a filter:
 * - `loadFilterEngine()` imports it (`import()`, so a bundle carries it as a lazy chunk);
 *   `prepareManifest` awaits it for a manifest that needs it and returns it in the options that
 *   `parseManifest` / `compileResponseMappings` take (`filterEngine`);
 * - `filterEngine(given)`, on the synchronous path, is the engine given in those options, else on
 *   Node the library required synchronously (`process.getBuiltinModule`, Node ≥ 20.16); elsewhere
 *   it is undefined and the path is refused with a message naming `prepareManifest`.
 *
 * No module state: whether a filter compiles depends on the call's options and the runtime only,
 * never on what an unrelated call loaded before (issue 40). The module registry caches the
 * library's code itself, so loading again is cheap.
 */

/**
 * The JSONPath filter engine: the two functions of `jsonpath-rfc9535` that filter selectors
 * (`[?…]`) need. Get one from {@link loadFilterEngine} (or `prepareManifest`); pass it as the
 * `filterEngine` option where a runtime has no synchronous `require`.
 *
 * @example
 * ```ts
 * const filterEngine: RcpFilterEngine = await loadFilterEngine();
 * parseManifest(text, { filterEngine });
 * ```
 */
export interface RcpFilterEngine {
  /** The library's parser (peggy; no code generated or evaluated). */
  parse(text: string): JsonPathQuery;
  /** The library's evaluator (re-parses `text`). */
  query(data: unknown, text: string): unknown[];
}

interface LibraryModules {
  readonly library: { query(data: JsonValue, text: string): unknown[] };
  readonly parser: { default: (text: string) => JsonPathQuery };
}

function engineOf({ library, parser }: LibraryModules): RcpFilterEngine {
  return Object.freeze({ parse: (text: string) => parser.default(text), query: (data: unknown, text: string) => library.query(data as JsonValue, text) });
}

/**
 * Loads the JSONPath filter engine with `import()` (a bundle carries it as a lazy chunk). Keep the
 * engine where you keep the manifest's options: in an edge runtime or a browser, a manifest or an
 * `rcp-server` whose response paths have a filter selector needs it given.
 *
 * @example
 * ```ts
 * import { loadFilterEngine, parseManifest } from 'rcp-manifest';
 *
 * const filterEngine = await loadFilterEngine();
 * filterEngine.query([{ a: 1 }, { a: 2 }], '$[?@.a > 1]'); // [{ a: 2 }]
 * const manifest = parseManifest(text, { filterEngine });
 * ```
 */
export async function loadFilterEngine(): Promise<RcpFilterEngine> {
  const [library, parser] = await Promise.all([import('jsonpath-rfc9535'), import('jsonpath-rfc9535/parser')]);
  return engineOf({ library, parser });
}

type GetBuiltinModule = (id: 'module') => { createRequire(from: string): (id: string) => unknown };

/** Node's synchronous load of the library's CommonJS build; undefined where there is none. */
function requireFilterEngine(): RcpFilterEngine | undefined {
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
 * The engine a call was given, else one loaded synchronously here (Node), else undefined.
 *
 * @example
 * ```ts
 * const engine = filterEngine(options.filterEngine);
 * if (engine === undefined) return refusal;
 * ```
 */
export function filterEngine(given: RcpFilterEngine | undefined): RcpFilterEngine | undefined {
  return given ?? requireFilterEngine();
}

/** True when `value` has the shape of an {@link RcpFilterEngine} (the option check). */
export function isFilterEngine(value: unknown): value is RcpFilterEngine {
  if (typeof value !== 'object' || value === null) return false;
  const { parse, query } = value as Record<string, unknown>;
  return typeof parse === 'function' && typeof query === 'function';
}
