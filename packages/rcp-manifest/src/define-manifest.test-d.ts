import { expectTypeOf, test } from 'vitest';
import { defineManifest, isRcpError, type NoUnknownKeys, type RcpManifest, type RcpParam, type UnknownManifestKey } from './index';

const quiet = { onWarning: () => {} };

test('defineManifest keeps literal types', () => {
  const manifest = defineManifest({
    rcpVersion: '0.1',
    auth: { type: 'header', name: 'Authorization', scheme: 'Bearer' },
    tools: [
      {
        name: 'get_note',
        description: 'Gets a note.',
        method: 'GET',
        url: '/notes/{{noteId}}',
        params: [{ name: 'noteId', type: 'string', required: true }],
        responseMappings: { title: '$.title' },
      },
    ],
  });
  expectTypeOf(manifest.tools[0].name).toEqualTypeOf<'get_note'>();
  expectTypeOf(manifest).toMatchTypeOf<RcpManifest>();
});

test('defineManifest rejects keys the manifest format does not have, at every depth', () => {
  defineManifest(
    {
      rcpVersion: '0.1',
      tools: [
        {
          name: 'get_note',
          description: 'Gets a note.',
          method: 'GET',
          url: '/notes/{{noteId}}',
          // @ts-expect-error a misspelled "required"
          params: [{ name: 'noteId', requried: true }],
        },
      ],
    },
    quiet,
  );
  defineManifest(
    {
      rcpVersion: '0.1',
      tools: [
        {
          name: 'list_notes',
          description: 'Lists notes.',
          method: 'GET',
          url: '/notes',
          // @ts-expect-error "responseMapping" is not a field (responseMappings is)
          responseMapping: {},
        },
      ],
    },
    quiet,
  );
  // @ts-expect-error an unknown top-level field
  defineManifest({ rcpVersion: '0.1', tools: [], tool: [] }, quiet);
  defineManifest(
    {
      rcpVersion: '0.1',
      // @ts-expect-error "schema" is not a field of header auth
      auth: { type: 'header', name: 'Authorization', schema: 'Bearer' },
      tools: [],
    },
    quiet,
  );
});

test('the narrowing the README documents compiles', () => {
  try {
    defineManifest({ rcpVersion: '0.1', tools: [] });
  } catch (error) {
    if (isRcpError(error, 'RCP_INVALID_MANIFEST')) expectTypeOf(error.issues[0]!.path).toEqualTypeOf<string>();
    if (isRcpError(error, 'RCP_UNSUPPORTED_VERSION')) expectTypeOf(error.supported).toEqualTypeOf<readonly string[]>();
  }
});

test('an object or array body, and object or array defaults, are any JSON value', () => {
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
          { name: 'tags', type: 'array', items: { type: 'string' }, default: ['inbox', 'new'] },
          { name: 'meta', type: 'object', properties: { color: { type: 'string' } }, default: { color: 'blue', pinned: [1, null] } },
        ],
        body: { title: '{{title}}', tags: '{{tags}}', meta: '{{meta}}', source: { app: 'notes', version: 2, flags: [true, null, { deep: 'x' }] } },
      },
      {
        name: 'add_tags',
        description: 'Adds tags.',
        method: 'PUT',
        url: '/tags',
        params: [{ name: 'tag', type: 'string', required: true }],
        body: ['{{tag}}', 'fixed', { kind: 'label' }],
      },
    ],
  });
  expectTypeOf(manifest.tools[0].body.source.app).toEqualTypeOf<'notes'>();
  expectTypeOf(manifest.tools[1].body[0]).toEqualTypeOf<'{{tag}}'>();
});

test('a typo names the key: the error reads "... is not assignable to type UnknownManifestKey<\'requried\'>"', () => {
  type Checked = NoUnknownKeys<{ name: 'noteId'; requried: true }, RcpParam>;
  expectTypeOf<Checked['requried']>().toEqualTypeOf<UnknownManifestKey<'requried'>>();
  expectTypeOf<Checked['name']>().toEqualTypeOf<'noteId'>();
  // @ts-expect-error a boolean is not the branded key type, so strict tsc names "requried" in its message
  const typo: Checked['requried'] = true;
  void typo;
  // Inside an open body nothing is an unknown key, at any depth.
  type Body = NoUnknownKeys<{ body: { anything: { at: ['all'] } } }, { body?: unknown }>;
  expectTypeOf<Body['body']['anything']['at']>().toEqualTypeOf<['all']>();
});
