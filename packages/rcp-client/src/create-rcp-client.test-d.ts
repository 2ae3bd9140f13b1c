import { trace } from '@opentelemetry/api';
import { expectTypeOf, test } from 'vitest';
import type { RcpErrorOf } from 'rcp-errors';
import type { RcpManifestError, RcpManifestLimitError, RcpVersionError } from 'rcp-manifest';
import type { RcpTemplateError } from 'rcp-template';
import {
  createMemoryApprovalLedger,
  createRcpClient,
  isRcpError,
  toModelResult,
  toModelText,
  type ModelMedia,
  type ModelPage,
  type ModelResult,
  type RcpMedia,
  type RcpOutputSchema,
  type RcpResponseError,
  type RcpBindingError,
  type RcpCallOutcome,
  type RcpClientTool,
  type RcpTracer,
  type RcpApprovalLedger,
  type RcpApprovalRequest,
  type RcpDiscovery,
  type RcpHttpError,
  type RcpInvalidArgumentsError,
  type RcpResolverError,
  type RcpUnknownToolError,
  type RcpToolNotInStageError,
  type RcpApprovalDeniedError,
  type RcpApprovalMismatchError,
  type RcpApprovalRequiredError,
  type RcpApprovalInfo,
  type RcpApprovalPolicy,
  type RcpApprovalVerdict,
  type RcpDecideOptions,
} from './index';

declare const tool: RcpClientTool;
declare const discovery: RcpDiscovery;

test('every error class has the fields isRcpError(error, code) promises for its code', () => {
  expectTypeOf<RcpHttpError>().toMatchTypeOf<RcpErrorOf<'RCP_HTTP_ERROR'>>();
  expectTypeOf<RcpInvalidArgumentsError>().toMatchTypeOf<RcpErrorOf<'RCP_INVALID_ARGUMENTS'>>();
  expectTypeOf<RcpResolverError>().toMatchTypeOf<RcpErrorOf<'RCP_UNRESOLVED' | 'RCP_RESOLVER_FAILED'>>();
  expectTypeOf<RcpBindingError>().toMatchTypeOf<RcpErrorOf<'RCP_RESOLVER_MISMATCH' | 'RCP_UNBOUND_PARAM'>>();
  expectTypeOf<RcpUnknownToolError>().toMatchTypeOf<RcpErrorOf<'RCP_UNKNOWN_TOOL'>>();
  expectTypeOf<RcpToolNotInStageError>().toMatchTypeOf<RcpErrorOf<'RCP_TOOL_NOT_IN_STAGE'>>();
  expectTypeOf<RcpApprovalRequiredError>().toMatchTypeOf<RcpErrorOf<'RCP_APPROVAL_REQUIRED'>>();
  expectTypeOf<RcpApprovalDeniedError>().toMatchTypeOf<RcpErrorOf<'RCP_APPROVAL_DENIED'>>();
  expectTypeOf<RcpApprovalMismatchError>().toMatchTypeOf<RcpErrorOf<'RCP_APPROVAL_MISMATCH'>>();
  expectTypeOf<RcpResponseError>().toMatchTypeOf<RcpErrorOf<'RCP_RESPONSE_TOO_LARGE' | 'RCP_INVALID_RESPONSE'>>();
  expectTypeOf<RcpManifestError>().toMatchTypeOf<RcpErrorOf<'RCP_INVALID_MANIFEST'>>();
  expectTypeOf<RcpVersionError>().toMatchTypeOf<RcpErrorOf<'RCP_UNSUPPORTED_VERSION'>>();
  expectTypeOf<RcpManifestLimitError>().toMatchTypeOf<RcpErrorOf<'RCP_MANIFEST_LIMIT'>>();
  // One class for three codes: its fields cover each code's.
  expectTypeOf<Omit<RcpTemplateError, 'code'>>().toMatchTypeOf<Omit<RcpErrorOf<'RCP_TEMPLATE_VALUE'>, 'code'>>();
  expectTypeOf<Omit<RcpTemplateError, 'code'>>().toMatchTypeOf<Omit<RcpErrorOf<'RCP_TEMPLATE_SYNTAX'>, 'code'>>();
});

test('an approval policy is typed by the client context; a misspelled decision does not compile', () => {
  createRcpClient<{ userId: string }>({ approval: ({ ctx, effects }) => (ctx.userId && effects.destructive ? 'user-approval' : 'not-applicable') });
  createRcpClient({ approval: 'writes' });
  // @ts-expect-error — not a decision
  createRcpClient({ approval: { delete_note: 'ask-someone' } });
  expectTypeOf<RcpApprovalPolicy>().not.toBeAny();
});

declare function askPolicyService(signal: AbortSignal): Promise<boolean>;

test("a policy function is handed the call's signal; decide takes a signal after the context (issue 38)", async () => {
  createRcpClient({ approval: async ({ signal }) => ((await askPolicyService(signal)) ? 'approved' : 'denied') });
  expectTypeOf<RcpApprovalInfo['signal']>().toEqualTypeOf<AbortSignal>();
  const client = createRcpClient<{ userId: string }>();
  expectTypeOf(client.decide(tool, {}, { userId: 'u-1' }, { signal: AbortSignal.timeout(1_000) })).resolves.toEqualTypeOf<RcpApprovalVerdict>();
  // @ts-expect-error — the options come after the context, which this client requires
  void client.decide(tool, {}, { signal: AbortSignal.timeout(1_000) });
  expectTypeOf<RcpDecideOptions>().toEqualTypeOf<{ signal?: AbortSignal }>();
});

test('the README and TSDoc narrowing compiles', async () => {
  const client = createRcpClient();
  try {
    await client.execute(tool, { query: 'algebra' });
  } catch (error) {
    if (isRcpError(error, 'RCP_HTTP_ERROR')) expectTypeOf(error.status).toEqualTypeOf<number>();
    if (isRcpError(error, 'RCP_INVALID_ARGUMENTS')) expectTypeOf(error.issues[0]!.path).toEqualTypeOf<string>();
    if (isRcpError(error, 'RCP_UNRESOLVED')) expectTypeOf(error.param).toEqualTypeOf<string>();
  }
  try {
    await client.discover('http://127.0.0.1:8080/rcp/manifest');
  } catch (error) {
    if (isRcpError(error, 'RCP_UNSUPPORTED_VERSION')) expectTypeOf(error.received).toBeUnknown();
    if (isRcpError(error, 'RCP_RESOLVER_MISMATCH')) expectTypeOf(error.resolver).toEqualTypeOf<string>();
  }
});

test('a client whose resolvers read a typed context requires ctx', () => {
  const client = createRcpClient({ resolvers: { userId: (ctx: { userId: string }) => ctx.userId } });
  void client.execute(tool, {}, { userId: 'u-1' });
  // @ts-expect-error ctx is required
  void client.execute(tool, {});
  // @ts-expect-error ctx is required
  void client.prepare(tool, {});
  // @ts-expect-error ctx is required
  void client.call(discovery, { name: 'get_note' });
  // @ts-expect-error the wrong shape of ctx
  void client.execute(tool, {}, { user: 'u-1' });
  void client.call(discovery, { name: 'get_note', arguments: '{}' }, { userId: 'u-1' }, { signal: AbortSignal.timeout(1) });
});

test('a client without a typed context may leave ctx out', () => {
  const client = createRcpClient();
  void client.execute(tool, { query: 'algebra' });
  void client.execute(tool, '{"query":"algebra"}', undefined, { signal: AbortSignal.timeout(1) });
  const optional = createRcpClient<{ userId?: string } | undefined>();
  void optional.execute(tool, {});
});

test('call returns an outcome; toModelResult turns it into a model result', async () => {
  const client = createRcpClient();
  const outcome = await client.call(discovery, { name: 'get_note', arguments: { noteId: 'n-1' } });
  expectTypeOf(outcome).toEqualTypeOf<RcpCallOutcome>();
  if (outcome.ok) expectTypeOf(outcome.result.data).toBeUnknown();
  else expectTypeOf(outcome.error.code).toBeString();
  expectTypeOf(toModelResult(outcome)).toEqualTypeOf<ModelResult>();
  expectTypeOf(discovery.tool('get_note')).toEqualTypeOf<RcpClientTool>();
});

test('options reject a misspelled key', () => {
  // @ts-expect-error "resolver" is not an option ("resolvers" is)
  createRcpClient({ resolver: {} });
  // @ts-expect-error requireResolved takes true/false or a list of names
  createRcpClient({ requireResolved: 'userId' });
});

test('onWarning receives the warning and the manifest URL; modelFilledParams is the escape hatch', () => {
  createRcpClient({
    resolvers: { userId: () => 'u-1' },
    modelFilledParams: ['inviteeEmail'],
    onWarning: (warning, { manifestUrl }) => {
      expectTypeOf(warning.path).toEqualTypeOf<string>();
      expectTypeOf(warning.tool).toEqualTypeOf<string | undefined>();
      expectTypeOf(manifestUrl).toEqualTypeOf<string>();
    },
  });
  // @ts-expect-error modelFilledParams is a list of names
  createRcpClient({ modelFilledParams: 'userIds' });
});

test('tracer: an OpenTelemetry Tracer from @opentelemetry/api is accepted as it is', () => {
  const tracer = trace.getTracer('notes-agent');
  expectTypeOf(tracer).toExtend<RcpTracer>();
  createRcpClient({ tracer });
});

test('result options: media types, the inspector with the typed context, and what the model result carries', () => {
  createRcpClient<{ userId: string }>({
    mediaTypes: ['image/png', 'application/pdf'],
    maxMediaBytes: 1_000_000,
    markUntrustedText: true,
    inspectResult: ({ ctx, result, tool }) => {
      expectTypeOf(ctx.userId).toBeString();
      expectTypeOf(result.media).toEqualTypeOf<RcpMedia | undefined>();
      expectTypeOf(tool).toEqualTypeOf<RcpClientTool>();
      return result.media?.mediaType === 'image/png' ? { refuse: 'No images here.' } : undefined;
    },
  });
  // @ts-expect-error a verdict refuses with true or a reason
  createRcpClient({ inspectResult: () => ({ refuse: 1 }) });
  const result = toModelResult({ status: 200, data: null, contentType: 'image/png' });
  if (result.ok) {
    expectTypeOf(result.media).toEqualTypeOf<ModelMedia | undefined>();
    expectTypeOf(result.page).toEqualTypeOf<ModelPage | undefined>();
  } else expectTypeOf(result.error.retryAfterSeconds).toEqualTypeOf<number | undefined>();
  expectTypeOf(toModelText(result)).toBeString();
  expectTypeOf(tool.outputSchema).toEqualTypeOf<RcpOutputSchema | undefined>();
});

test('the approval ledger, subject and expiry: a ledger is an object of save/load/claim, the subject reads the typed context', () => {
  const approvalLedger: RcpApprovalLedger = createMemoryApprovalLedger({ maxEntries: 1_000 });
  const typed = createRcpClient<{ userId: string }>({
    approval: 'writes',
    approvalLedger,
    approvalSubject: (ctx) => {
      expectTypeOf(ctx.userId).toBeString();
      return ctx.userId;
    },
    approvalExpiresIn: 15 * 60_000,
  });
  expectTypeOf(typed.storedReview('call_1')).toEqualTypeOf<Promise<RcpApprovalRequest | undefined>>();
  expectTypeOf<RcpApprovalRequest['expiresAt']>().toBeNumber();
  expectTypeOf<RcpApprovalRequest['caller']>().toBeString();
  // @ts-expect-error a ledger needs claim
  createRcpClient({ approvalLedger: { save: async () => undefined, load: async () => undefined } });
  // @ts-expect-error the key of a review is a string
  void typed.review(tool, {}, { userId: 'u-1' }, { key: 1 });
});
