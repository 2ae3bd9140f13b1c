import { describe, expect, expectTypeOf, it } from 'vitest';
import { RcpManifestError, defineManifest, type RcpManifest } from './index';

describe('defineManifest', () => {
  it('keeps literal types and returns the validated, frozen manifest', () => {
    const manifest = defineManifest({
      rcpVersion: '0.1',
      auth: { type: 'header', name: 'Authorization', scheme: 'Bearer' },
      tools: [
        {
          name: 'search_courses',
          description: 'Searches the course catalog.',
          method: 'GET',
          url: '/courses/search',
          queryParams: { q: '{{query}}' },
          params: [{ name: 'query', type: 'string', required: true }],
        },
      ],
    });
    expectTypeOf(manifest.tools[0].name).toEqualTypeOf<'search_courses'>();
    expectTypeOf(manifest.tools[0].method).toEqualTypeOf<'GET'>();
    expectTypeOf(manifest).toMatchTypeOf<RcpManifest>();
    expect(manifest.tools[0].name).toBe('search_courses');
    expect(Object.isFrozen(manifest)).toBe(true);
  });

  it('accepts object and array bodies and defaults (any JSON value), typed and checked at run time', () => {
    const manifest = defineManifest({
      rcpVersion: '0.1',
      tools: [
        {
          name: 'create_note',
          description: 'Creates a note.',
          method: 'POST',
          url: '/notes',
          params: [
            { name: 'title', type: 'string', required: true },
            { name: 'tags', type: 'array', items: { type: 'string' }, default: ['inbox'] },
            { name: 'meta', type: 'object', properties: { color: { type: 'string' } }, default: { color: 'blue' } },
          ],
          body: { title: '{{title}}', tags: '{{tags}}', meta: '{{meta}}', source: { app: 'notes', flags: [true, null] } },
        },
        { name: 'add_tags', description: 'Adds tags.', method: 'PUT', url: '/tags', params: [{ name: 'tag' }], body: ['{{tag}}', 'fixed'] },
      ],
    });
    expectTypeOf(manifest.tools[0].body.source.app).toEqualTypeOf<'notes'>();
    expect(manifest.tools[0].body.source).toEqual({ app: 'notes', flags: [true, null] });
    expect(manifest.tools[1].body).toEqual(['{{tag}}', 'fixed']);
  });

  it('rejects at compile time what the schema forbids', () => {
    // @ts-expect-error method must be one of the five
    expect(() => defineManifest({ rcpVersion: '0.1', tools: [{ name: 'a', description: 'd', method: 'FETCH', url: '/' }] })).toThrow();
    // @ts-expect-error rcpVersion must be a supported version
    expect(() => defineManifest({ rcpVersion: '0.9', tools: [] })).toThrow();
  });

  it('validates at run time what types cannot express, and throws', () => {
    expect(() =>
      defineManifest({
        rcpVersion: '0.1',
        tools: [{ name: 'get_item', description: 'Get an item.', method: 'GET', url: '/items/{{id}}' }],
      }),
    ).toThrow(RcpManifestError);
  });

  it('hands each warning to onWarning (console.warn by default), then still returns the manifest', () => {
    const seen: string[] = [];
    const source = {
      rcpVersion: '0.1',
      tools: [{ name: 'list_notes', description: 'Lists notes.', method: 'GET', url: '/notes', responseMapping: {} }],
    } as const;
    // Plain JavaScript (or a cast) gets past the compile-time check; the warning is the run-time net.
    const manifest = defineManifest(source as never as RcpManifest, { onWarning: (warning) => seen.push(warning.path) });
    expect(seen).toEqual(['/tools/0/responseMapping']);
    expect(manifest.tools).toHaveLength(1);

    const printed: unknown[] = [];
    const original = console.warn;
    console.warn = (...args: unknown[]) => void printed.push(args.join(' '));
    try {
      defineManifest(source as never as RcpManifest);
    } finally {
      console.warn = original;
    }
    expect(printed).toEqual([expect.stringContaining('/tools/0/responseMapping')]);
  });

  it('reports the warnings of a manifest it refuses, before throwing', () => {
    const seen: string[] = [];
    const source = {
      rcpVersion: '0.1',
      tools: [{ name: 'get_note', description: 'Gets a note.', method: 'GET', url: '/notes/{{note}}', params: [{ name: 'noteId', requried: true }] }],
    };
    expect(() => defineManifest(source as never as RcpManifest, { onWarning: (warning) => seen.push(warning.path) })).toThrow(RcpManifestError);
    expect(seen).toContain('/tools/0/params/0/requried');
  });
});
