import { createRcpRegistry } from 'rcp-sdk/agent-core';
import { createRcpClient, isRcpError } from 'rcp-sdk/client';
import type { RequestedCall, ResolveBinding } from './cli-options';
import { assertHiddenFromCatalogs } from './catalog-check';
import { discoverySection } from './discovery-section';
import { ManifestUnavailableError } from './demo-errors';
import type { CallRecord, DemoReport, PreparedRequestView, ReportSection, StageCatalog } from './report';
import { callThroughStage, type StageTransport } from './run-turn';

/** Options of {@link exploreManifest}: what the operator passed on the command line. */
export interface ExploreOptions {
  readonly manifestUrl: string;
  readonly calls: readonly RequestedCall[];
  readonly ctx: Readonly<Record<string, unknown>>;
  /** Credential for header auth; `undefined`: tools that need one fail with RCP_MISSING_CREDENTIALS. */
  readonly token: string | undefined;
  readonly resolve: readonly ResolveBinding[];
}

type Context = Readonly<Record<string, unknown>>;

/** The innermost cause that is not an RCP error (`connect ECONNREFUSED ...`, `bad port`). */
function rootCause(error: unknown): Error | undefined {
  let current: unknown = error;
  let found: Error | undefined;
  for (let depth = 0; depth < 8 && current instanceof Error; depth += 1) {
    if (!isRcpError(current) && current.message !== '') found = current;
    current = current.cause;
  }
  return found;
}

/** One line: what failed, where, and the stable code (plus the system error, when there is one). */
function describeDiscoveryFailure(manifestUrl: string, error: unknown): string {
  if (!isRcpError(error)) return `cannot load the manifest at ${manifestUrl}: ${String(error)}`;
  const message = error.message.includes(manifestUrl)
    ? error.message
    : `cannot load the manifest at ${manifestUrl}: ${error.message}`;
  // Add the system's reason unless the client's message already names it.
  const cause = rootCause(error);
  const causeCode = (cause as { code?: unknown } | undefined)?.code;
  const named = cause === undefined || message.includes(cause.message) || (typeof causeCode === 'string' && message.includes(causeCode));
  return `${message} (${error.code}${named ? '' : `: ${cause.message}`})`;
}

/** The single stage used when exploring: every tool of the manifest. */
const STAGE = 'all';

/**
 * Describes and explores any RCP server: discovery, the model's catalog, and the calls the
 * operator asked for (each through the stage, as a model's call would go), with the request the
 * client prepared (credential redacted) and what went back to the model.
 *
 * @example
 * ```ts
 * const report = await exploreManifest({ manifestUrl, calls: [], ctx: {}, token: undefined, resolve: [] });
 * ```
 */
export async function exploreManifest(options: ExploreOptions): Promise<DemoReport> {
  const token = options.token;
  const client = createRcpClient<Context>({
    resolvers: Object.fromEntries(
      options.resolve.map(({ param, ctxKey }) => [param, (ctx: Context) => (Object.hasOwn(ctx, ctxKey) ? ctx[ctxKey] : undefined)]),
    ),
    ...(token !== undefined && { credentials: () => token }),
  });

  let discovery;
  try {
    discovery = await client.discover(options.manifestUrl);
  } catch (error) {
    throw new ManifestUnavailableError(describeDiscoveryFailure(options.manifestUrl, error));
  }

  const { transports } = createRcpRegistry({
    client,
    discoveries: [discovery],
    stages: { [STAGE]: discovery.tools.map((tool) => tool.name) },
  });
  const transport: StageTransport<Context> | undefined = transports[STAGE];
  if (transport === undefined) throw new Error(`the registry has no "${STAGE}" stage`);
  const hiddenParams = [...new Set(discovery.tools.flatMap((tool) => tool.resolvedParams))];
  const catalogs: StageCatalog[] = [{ stage: STAGE, tools: transport.catalog() }];
  // A foreign server's descriptions may mention the param's name in prose; check the schemas.
  assertHiddenFromCatalogs(catalogs, hiddenParams, { anywhere: false });

  const calls: CallRecord[] = [];
  for (const requested of options.calls) {
    let prepared: PreparedRequestView | undefined;
    const call = { name: requested.name, arguments: requested.arguments };
    const result = await callThroughStage(transport, call, options.ctx, async (plan, ctx) => {
      // What is about to be sent (credential redacted); a failure here fails the call the same way.
      prepared = await client.prepare(plan.tool, plan.input, ctx);
    });
    calls.push({ call, stage: STAGE, ...(prepared !== undefined && { prepared }), result });
  }

  const callsFailed = calls.filter((record) => !record.result.ok).length;
  const callsMade = calls.length - callsFailed;
  const ok = callsFailed === 0;
  const text =
    calls.length === 0
      ? `✓ ${discovery.tools.length} tools discovered · add --call <tool> --args '{...}' to call one`
      : `${ok ? '✓' : '✗'} ${callsMade} of ${calls.length} calls succeeded`;

  const sections: ReportSection[] = [
    discoverySection(discovery),
    { id: 'catalogs', title: 'What a model sees', stages: catalogs, hiddenParams },
  ];
  if (calls.length > 0) {
    sections.push({
      id: 'turn',
      title: 'The calls you asked for',
      stage: STAGE,
      ctx: options.ctx,
      witness: 'prepared',
      calls,
    });
  }
  sections.push({
    id: 'summary',
    title: 'Summary',
    ok,
    callsMade,
    callsFailed,
    attacks: 0,
    attacksStopped: 0,
    text,
  });
  return { mode: 'explore', ok, manifestUrl: discovery.manifestUrl, sections };
}
