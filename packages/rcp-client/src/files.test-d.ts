import { expectTypeOf, test } from 'vitest';
import { createRcpClient } from './index';
import type { RcpClientOptions, RcpFileResolver, RcpFileResolverInfo, RcpInputSchemaProperty, RcpParamType, RcpResolvedFile } from './index';

test('the files option: a resolver of a reference under the typed context, bytes or a stream back', () => {
  type Ctx = { userId: string };
  const files: RcpFileResolver<Ctx> = async (reference, ctx, info) => {
    expectTypeOf(reference).toEqualTypeOf<string>();
    expectTypeOf(ctx).toEqualTypeOf<Ctx>();
    expectTypeOf(info).toEqualTypeOf<RcpFileResolverInfo>();
    expectTypeOf(info.mediaTypes).toEqualTypeOf<readonly string[] | undefined>();
    expectTypeOf(info.maxBytes).toEqualTypeOf<number | undefined>();
    return { bytes: new Uint8Array(), mediaType: 'image/png', filename: 'a.png' };
  };
  createRcpClient<Ctx>({ files, maxUploadBytes: 1024 });
  expectTypeOf<RcpClientOptions['maxUploadBytes']>().toEqualTypeOf<number | undefined>();
  const streamed: RcpResolvedFile = { stream: new ReadableStream<Uint8Array>(), size: 3, mediaType: 'text/plain', filename: 'a.txt' };
  expectTypeOf(streamed).toExtend<RcpResolvedFile>();
  // @ts-expect-error a file needs its media type and filename
  const bare: RcpResolvedFile = { bytes: new Uint8Array() };
  // @ts-expect-error bytes are a Uint8Array, never text (a path or base64)
  const text: RcpResolvedFile = { bytes: 'aGk=', mediaType: 'text/plain', filename: 'a.txt' };
  void bare;
  void text;
  // @ts-expect-error the resolver's context is the client's
  createRcpClient<Ctx>({ files: (_reference: string, ctx: { other: number }) => (ctx.other ? undefined : undefined) });
});

test('a file param: its type and the x-rcp-file marker of its model-facing schema', () => {
  expectTypeOf<'file'>().toExtend<RcpParamType>();
  expectTypeOf<RcpInputSchemaProperty['x-rcp-file']>().toEqualTypeOf<{ readonly mediaTypes?: readonly string[]; readonly maxBytes?: number } | undefined>();
});
