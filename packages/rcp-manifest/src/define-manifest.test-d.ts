import { expectTypeOf, test } from 'vitest';
import { defineManifest, isRcpError, type RcpManifest } from './index';

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
