import { loadFilterEngine } from './internal/filter-engine';
import type { ParseManifestOptions } from './parse-manifest';
import { needsFilterEngine } from './internal/json-path';

/** `[?` or `, ?` (blanks allowed): where a filter selector can start in a manifest's text. */
const FILTER_IN_TEXT = /[[,][ \t\n\r]*\?/;

function pathsOf(tool: unknown): string[] {
  if (typeof tool !== 'object' || tool === null) return [];
  const { responseMappings, pagination } = tool as { responseMappings?: unknown; pagination?: unknown };
  const paths: unknown[] = [];
  if (typeof responseMappings === 'object' && responseMappings !== null) paths.push(...Object.values(responseMappings));
  if (typeof pagination === 'object' && pagination !== null) {
    const { nextCursor, hasMore } = pagination as { nextCursor?: unknown; hasMore?: unknown };
    paths.push(nextCursor, hasMore);
  }
  return paths.filter((path): path is string => typeof path === 'string');
}

/** True when the manifest (a JSON value, or its text) may have a response path with a filter selector. */
function mayNeedFilterEngine(input: unknown): boolean {
  if (typeof input === 'string') return FILTER_IN_TEXT.test(input);
  if (input instanceof Uint8Array) return FILTER_IN_TEXT.test(new TextDecoder().decode(input));
  if (typeof input !== 'object' || input === null) return false;
  const { tools } = input as { tools?: unknown };
  return Array.isArray(tools) && tools.some((tool) => pathsOf(tool).some(needsFilterEngine));
}

/**
 * Loads what validating this manifest needs beyond rcp-manifest itself — the JSONPath filter
 * engine (`jsonpath-rfc9535`) when a response path has a filter selector (`[?…]`) — and returns
 * it as the options to pass to {@link parseManifest} / {@link safeParseManifest} (and
 * `compileResponseMappings`): `{ filterEngine }`, or `{}` when the manifest needs nothing.
 * Needed in runtimes without a synchronous `require` (browsers, edge runtimes, a bundle); on
 * Node the engine is loaded on first need without it. Nothing is kept between calls. It never
 * validates: a manifest it cannot read is left to `parseManifest` to report.
 *
 * @param input - The manifest, as `parseManifest` takes it: a JSON value, a JSON string, or UTF-8 bytes.
 *
 * @example
 * ```ts
 * import { parseManifest, prepareManifest } from 'rcp-manifest';
 *
 * const text = await (await fetch('https://api.example.com/rcp')).text();
 * const manifest = parseManifest(text, await prepareManifest(text));
 * ```
 */
export async function prepareManifest(input: unknown): Promise<Pick<ParseManifestOptions, 'filterEngine'>> {
  let needed: boolean;
  try {
    needed = mayNeedFilterEngine(input);
  } catch {
    needed = false; // exotic input (throwing getters, proxies): parseManifest reports it
  }
  return needed ? { filterEngine: await loadFilterEngine() } : {};
}
