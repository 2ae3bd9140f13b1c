import fc from 'fast-check';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { describe, expect, it } from 'vitest';
import { RcpManifestSchema } from '../manifest-schema';
import { structuralIssues } from './structural-check';

const conformsToSchema = (value: unknown): boolean => structuralIssues(value).length === 0;

const typebox = TypeCompiler.Compile(RcpManifestSchema);

const scalar = fc.oneof(
  fc.constantFrom('GET', 'POST', 'get', 'x', '', ' ', '@a', 'a', 'Authorization', 'bad name', '0.1', 'none', 'header', 'string', 'number'),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
);
const loose = fc.oneof(scalar, fc.array(scalar, { maxLength: 2 }), fc.dictionary(fc.string({ maxLength: 2 }), scalar, { maxKeys: 2 }));
const auth = fc.oneof(
  fc.record(
    {
      type: fc.constantFrom('none', 'header', 'query', 'basic', undefined),
      name: fc.oneof(fc.constantFrom('X-Key', 'bad name'), loose),
      scheme: fc.oneof(fc.constantFrom('Bearer', 'a b'), loose),
    },
    { requiredKeys: [] },
  ),
  loose,
);
const stringMap = fc.oneof(fc.dictionary(fc.string({ maxLength: 3 }), fc.oneof(fc.string({ maxLength: 3 }), scalar), { maxKeys: 3 }), loose);
/** Nested value schemas, a few levels deep. */
const { value } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    loose,
    fc.record(
      {
        type: fc.oneof(fc.constantFrom('string', 'array', 'object', 'text'), loose),
        description: fc.oneof(fc.string({ maxLength: 2 }), loose),
        required: fc.oneof(fc.array(fc.constantFrom('a', 'b'), { maxLength: 2 }), loose),
        enum: fc.oneof(fc.array(fc.oneof(fc.string({ maxLength: 2 }), fc.integer()), { maxLength: 2 }), loose),
        items: tie('value'),
        properties: fc.dictionary(fc.constantFrom('a', 'b'), tie('value'), { maxKeys: 2 }),
        minLength: fc.oneof(fc.integer({ min: -1, max: 3 }), loose),
      },
      { requiredKeys: [] },
    ),
  ),
}));

const param = fc.oneof(
  fc.record(
    {
      name: fc.oneof(fc.constantFrom('a', '_b', '1x', '__proto__', 'constructor', ''), loose),
      type: fc.oneof(fc.constantFrom('string', 'integer', 'object', 'text'), loose),
      description: fc.oneof(fc.string({ maxLength: 3 }), loose),
      required: fc.oneof(fc.boolean(), loose),
      requiredProperties: fc.oneof(fc.array(fc.constantFrom('a', 'b'), { maxLength: 2 }), loose),
      enum: fc.oneof(fc.array(fc.oneof(fc.string({ maxLength: 2 }), fc.integer(), fc.boolean(), fc.constant(null)), { maxLength: 3 }), loose),
      items: fc.oneof(value, loose),
      properties: fc.oneof(fc.dictionary(fc.constantFrom('a', 'b', ''), value, { maxKeys: 2 }), loose),
      minimum: fc.oneof(fc.double(), loose),
      maxLength: fc.oneof(fc.integer({ min: -2, max: 5 }), fc.double(), loose),
      pattern: fc.oneof(fc.constantFrom('^a', '('), loose),
      default: loose,
    },
    { requiredKeys: [] },
  ),
  loose,
);
const tool = fc.oneof(
  fc.record(
    {
      name: fc.oneof(fc.constantFrom('t', 'a-b_c', '', 'x'.repeat(65), 'bad name'), loose),
      description: fc.oneof(fc.constantFrom('Does.', ' ', '\n'), loose),
      method: fc.oneof(fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'get', 'HEAD'), loose),
      url: fc.oneof(fc.constantFrom('/x', 'https://a.example/x'), loose),
      params: fc.oneof(fc.array(param, { maxLength: 3 }), loose),
      queryParams: stringMap,
      headers: stringMap,
      body: loose,
      bodyEncoding: fc.oneof(fc.constantFrom('json', 'form', 'xml'), loose),
      auth,
      responseMappings: fc.oneof(fc.dictionary(fc.string({ maxLength: 2 }), fc.oneof(fc.constantFrom('@', '@a.b', 'a', ''), scalar), { maxKeys: 2 }), loose),
      responseMediaTypes: fc.oneof(fc.array(fc.constantFrom('image/png', 'image/*', '*/*', 'png', 'text/csv; q=1'), { maxLength: 2 }), loose),
      pagination: fc.oneof(
        fc.record(
          {
            nextCursor: fc.oneof(fc.constantFrom('@next', 'next', '@a[*]'), loose),
            param: fc.oneof(fc.constantFrom('cursor', '1x', ''), loose),
            hasMore: fc.oneof(fc.constantFrom('@more', 'more'), loose),
          },
          { requiredKeys: [] },
        ),
        loose,
      ),
    },
    { requiredKeys: [] },
  ),
  loose,
);
const manifest = fc.oneof(
  fc.record(
    { rcpVersion: fc.oneof(fc.constantFrom('0.1', '0.2', '0.3'), loose), auth, tools: fc.oneof(fc.array(tool, { maxLength: 3 }), loose) },
    { requiredKeys: [] },
  ),
  loose,
);

describe('structuralIssues, the one run-time check of the structure', () => {
  it('finds no issue exactly when TypeBox (the schema the JSON Schema file comes from) says valid', () => {
    fc.assert(
      fc.property(manifest, (value) => {
        expect(conformsToSchema(value)).toBe(typebox.Check(value));
      }),
      { numRuns: 2000 },
    );
  });

  it('accepts valid manifests and refuses what is not one', () => {
    const valid = {
      rcpVersion: '0.1',
      auth: { type: 'header', name: 'Authorization', scheme: 'Bearer' },
      tools: [
        {
          name: 'a',
          description: 'd',
          method: 'POST',
          url: '/x/{{id}}',
          params: [{ name: 'id', type: 'string', required: true, description: '' }],
          queryParams: { q: '{{id}}' },
          headers: { 'X-A': 'b' },
          body: { any: [1] },
          auth: { type: 'none' },
          responseMappings: { out: '@data' },
        },
      ],
    };
    expect(conformsToSchema(valid)).toBe(true);
    expect(conformsToSchema({ ...valid, rcpVersion: '0.2' })).toBe(true);
    expect(conformsToSchema({ ...valid, rcpVersion: '0.9' })).toBe(false);
    expect(conformsToSchema({ ...valid, tools: [{ ...valid.tools[0], headers: { 'X-A': 1 } }] })).toBe(false);
    expect(conformsToSchema({ ...valid, tools: [{ ...valid.tools[0], queryParams: new Date(0) }] })).toBe(false);
    expect(conformsToSchema({ ...valid, tools: [{ ...valid.tools[0], responseMappings: { out: 'data' } }] })).toBe(false);
  });
});

describe('structuralIssues', () => {
  it('reports every problem at its pointer, with the same set of paths TypeBox finds', () => {
    fc.assert(
      fc.property(manifest, (value) => {
        const ours = new Set(structuralIssues(value).map((issue) => issue.path));
        for (const error of typebox.Errors(value)) {
          // TypeBox also reports each failed union variant at the union's own path; ours names
          // the variant's field (or the discriminant) instead.
          if (ours.has(error.path)) continue;
          expect([...ours].some((path) => path.startsWith(`${error.path}/`) || error.path.startsWith(`${path}/`))).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('reports nothing for a valid manifest and every problem otherwise', () => {
    expect(structuralIssues({ rcpVersion: '0.1', tools: [] })).toEqual([]);
    const paths = structuralIssues({ rcpVersion: '0.1', tools: [{ name: 1 }] }).map((issue) => issue.path);
    expect(new Set(paths)).toEqual(new Set(['/tools/0/name', '/tools/0/description', '/tools/0/method', '/tools/0/url']));
  });
});
