import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** Each subpath, the package it re-exports, and both modules loaded from their built dist. */
const SUBPATHS = {
  manifest: { pkg: 'rcp-manifest', load: () => Promise.all([import('rcp-sdk/manifest'), import('rcp-manifest')]) },
  template: { pkg: 'rcp-template', load: () => Promise.all([import('rcp-sdk/template'), import('rcp-template')]) },
  client: { pkg: 'rcp-client', load: () => Promise.all([import('rcp-sdk/client'), import('rcp-client')]) },
  'agent-core': {
    pkg: 'rcp-agent-core-bridge',
    load: () => Promise.all([import('rcp-sdk/agent-core'), import('rcp-agent-core-bridge')]),
  },
} as const;

const read = (relative: string): string => readFileSync(fileURLToPath(new URL(relative, import.meta.url)), 'utf8');

/** The value and type names a module's source exports with `export { ... } from` / `export type { ... } from`. */
function exportedNames(source: string): { values: string[]; types: string[] } {
  const values: string[] = [];
  const types: string[] = [];
  for (const match of source.matchAll(/export\s+(type\s+)?\{([^}]*)\}\s*from\s*'[^']+'/g)) {
    const names = match[2]!
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean)
      .map((name) =>
        name
          .split(/\s+as\s+/)
          .pop()!
          .replace(/^type\s+/, ''),
      );
    (match[1] ? types : values).push(...names);
  }
  return { values: values.sort(), types: types.sort() };
}

describe.each(Object.entries(SUBPATHS))('rcp-sdk/%s', (subpath, { pkg, load }) => {
  const own = read(`./${subpath}.ts`);
  const upstream = read(`../../${pkg}/src/index.ts`);

  it('lists every name explicitly (no export *) and only re-exports its package', () => {
    expect(own).not.toMatch(/export\s+\*/);
    const sources = [...own.matchAll(/^(?:export|import)\b[^;]*?from\s*'([^']+)'/gm)].map((match) => match[1]);
    expect(new Set(sources)).toEqual(new Set([pkg]));
  });

  it(`exports exactly the value and type names of ${pkg}'s src/index.ts`, () => {
    expect(exportedNames(own)).toEqual(exportedNames(upstream));
  });

  it(`exposes at run time exactly the names ${pkg} exposes, bound to the same values`, async () => {
    const [sdk, original] = await load();
    expect(Object.keys(sdk).sort()).toEqual(Object.keys(original).sort());
    for (const key of Object.keys(original)) {
      expect((sdk as Record<string, unknown>)[key], key).toBe((original as Record<string, unknown>)[key]);
    }
  });
});
