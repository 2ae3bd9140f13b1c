import { readFileSync, readdirSync } from 'node:fs';
import { dereference } from '@readme/openapi-parser';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { expandedSize } from './expanded-size';

type Json = Record<string, unknown>;

const dataDir = new URL('../test-data/', import.meta.url);
const realDocuments = readdirSync(dataDir)
  .filter((name) => /\.(ya?ml|json)$/.test(name))
  .sort();

/** Values in a tree, counted plainly: what a walk of the dereferencer's output visits. */
function treeValues(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 1;
  let count = 1;
  for (const child of Object.values(value)) count += treeValues(child);
  return count;
}

/** What the importer's dereferencer makes of `document` (it mutates its input: a copy). */
async function dereferenced(document: Json): Promise<unknown> {
  return dereference(structuredClone(document) as never, { resolve: { external: false, file: false }, dereference: { circular: 'ignore' } });
}

const openapi = (schemas: Json, schema: Json = { $ref: '#/components/schemas/Level0' }): Json => ({
  openapi: '3.0.3',
  info: { title: 'T', version: '1' },
  paths: { '/things': { post: { requestBody: { content: { 'application/json': { schema } } }, responses: { '200': { description: 'ok' } } } } },
  components: { schemas },
});

/** `levels` schemas, each an `allOf` naming the next one twice (and, with `back`, the first one too: a cycle). */
function doubling(levels: number, back = false): Json {
  const schemas: Json = {};
  for (let i = 0; i < levels; i++) {
    const next = { $ref: `#/components/schemas/Level${i + 1}` };
    schemas[`Level${i}`] =
      i === levels - 1
        ? { type: 'object', properties: { name: { type: 'string' } } }
        : { allOf: back ? [next, next, { $ref: '#/components/schemas/Level0' }] : [next, next] };
  }
  return openapi(schemas);
}

describe('expandedSize counts what the dereferencer makes of a document', () => {
  it('counts every value, a ref standing for what it points to', () => {
    expect(expandedSize({ a: { $ref: '#/b' }, b: { c: 1 } }, 100)).toEqual({ values: 6 });
    expect(expandedSize({ a: { $ref: '#/b~1c/d%20e' }, 'b/c': { 'd e': [1, 2] } }, 100)).toEqual({ values: 9 });
    // A ref that points nowhere, or to another document, is a string like any other.
    expect(expandedSize({ a: { $ref: '#/missing' }, b: { $ref: 'other.yaml#/x' } }, 100)).toEqual({ values: 5 });
  });

  // The count is the walk of the output (at least) plus, where a cycle is reachable, the one walk
  // of each target the dereferencer does before it leaves that ref as it is (at most as much again).
  it.each<[name: string, document: Json, factor: number]>([
    ...realDocuments.map((file): [string, Json, number] => [file, parse(readFileSync(new URL(file, dataDir), 'utf8')) as Json, 1.1]),
    ['twelve doubling levels', doubling(12), 1.1],
    ['doubling levels that also name the first (a cycle: every ref above it stays a ref)', doubling(30, true), 2],
    [
      'a recursive schema, and one that uses it',
      openapi({
        Level0: { type: 'object', properties: { tree: { $ref: '#/components/schemas/Node' } } },
        Node: { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/components/schemas/Node' } } } },
      }),
      2,
    ],
  ])(
    "%s: at least the values in the dereferencer's output walked as a tree, at most a tenth more (twice as many where a cycle is)",
    async (_name, document, factor) => {
      const counted = expandedSize(document, Number.MAX_SAFE_INTEGER).values;
      const walked = treeValues(await dereferenced(document));
      expect(counted).toBeGreaterThanOrEqual(walked);
      expect(counted).toBeLessThanOrEqual(walked * factor + 10);
    },
  );

  it('an object used in several places counts wherever it is used (an object input can share them)', () => {
    let shared: Json = { type: 'string' };
    for (let i = 0; i < 10; i++) shared = { allOf: [shared, shared] };
    expect(expandedSize({ shared }, Number.MAX_SAFE_INTEGER).values).toBe(treeValues({ shared }));
  });

  it('stops past max, in a few steps however much it would expand to, and names the outermost ref and where it is', () => {
    const started = performance.now();
    const result = expandedSize(doubling(60), 1_000_000);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(result.values).toBeGreaterThan(1_000_000);
    expect(result.where).toEqual({ pointer: '/paths/~1things/post/requestBody/content/application~1json/schema', ref: '#/components/schemas/Level0' });
    let shared: Json = { type: 'string' };
    for (let i = 0; i < 60; i++) shared = { allOf: [shared, shared] };
    const sharing = expandedSize({ shared }, 1_000_000);
    expect(sharing.values).toBeGreaterThan(1_000_000);
    // No ref: where the count passed the limit.
    expect(sharing.where?.ref).toBeUndefined();
    expect(sharing.where?.pointer).toMatch(/^\/shared(\/allOf\/[01])+$/);
  });

  it('a chain of 20,000 refs is counted without exhausting the call stack', () => {
    const schemas: Json = {};
    for (let i = 0; i < 20_000; i++) schemas[`Level${i}`] = { items: { $ref: `#/components/schemas/Level${i + 1}` } };
    expect(expandedSize(openapi(schemas), Number.MAX_SAFE_INTEGER).values).toBeGreaterThan(20_000);
  });
});
