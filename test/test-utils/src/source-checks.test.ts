import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { undocumentedExports } from './export-docs';
import { moduleStateIn } from './module-state';

let dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

/** A source folder with the given files. */
function sourceFolder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'rcp-source-check-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

describe('moduleStateIn', () => {
  it('lists top-level let and var and empty containers, and leaves constant tables, locals and tests alone', () => {
    const dir = sourceFolder({
      'engine.ts':
        'let loaded: unknown;\nexport var count = 0;\nconst cache = new Map<string, string>();\nconst seen = new WeakMap();\nconst names = [] as string[];\nconst byKey = {};\n',
      'internal/tables.ts':
        "const METHODS = new Set(['GET', 'HEAD']);\nconst FIELDS = Object.freeze(['a']);\nconst TABLE = new Uint8Array(128);\nconst PATTERN = /x/g;\nexport function f() { let local = 1; const m = new Map(); return local + m.size; }\n",
      'engine.test.ts': 'let counter = 0;\n',
      'engine.test-d.ts': 'let counter = 0;\n',
    });
    expect(moduleStateIn(dir)).toEqual([
      'engine.ts:1 loaded',
      'engine.ts:2 count',
      'engine.ts:3 cache',
      'engine.ts:4 seen',
      'engine.ts:5 names',
      'engine.ts:6 byKey',
    ]);
  });
});

describe('undocumentedExports', () => {
  it('names each export without TSDoc or without an @example, through re-exports', () => {
    const dir = sourceFolder({
      'index.ts': "export { documented, bare, noExample, CONSTANT } from './parts';\nexport type { Shape } from './parts';\n",
      'parts.ts': [
        '/**\n * Does it.\n *\n * @example\n * ```ts\n * documented();\n * ```\n */\nexport function documented(): void {}',
        'export function bare(): void {}',
        '/** Has words only. */\nexport function noExample(): void {}',
        '/**\n * A constant.\n * @example\n * ```ts\n * CONSTANT;\n * ```\n */\nexport const CONSTANT = 1;',
        '/** A shape. */\nexport interface Shape { a: string }',
      ].join('\n'),
    });
    expect(undocumentedExports(join(dir, 'index.ts'))).toEqual(['Shape: no @example', 'bare: no TSDoc', 'noExample: no @example']);
  });
});
