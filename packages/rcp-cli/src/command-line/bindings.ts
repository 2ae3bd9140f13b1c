import type { RcpClientTool, RcpResolver } from 'rcp-client';
import type { CommandLineOptions } from './parse-command-line';
import { RcpUsageError } from './usage-error';

/**
 * The binding flags, one meaning on every command (`rcp call`, `describe`, `lint`, `inspect`,
 * `mcp` and the `rcp-mcp` bin): `--ctx param=value` fills a param with a trusted value,
 * `--resolve a,b` names params the application fills (no value given here), `--model-filled a,b`
 * names params the model may choose although their names look like an identity.
 *
 * @example
 * ```ts
 * const { values } = parseCommandLine('rcp call', argv, { ...BINDING_OPTIONS });
 * const bindings = bindingsOf(values, 'rcp call');
 * ```
 */
export const BINDING_OPTIONS = {
  ctx: { type: 'string', multiple: true, default: [] as string[] },
  resolve: { type: 'string', multiple: true, default: [] as string[] },
  'model-filled': { type: 'string', multiple: true, default: [] as string[] },
} satisfies CommandLineOptions;

/**
 * The `--help` lines of {@link BINDING_OPTIONS}: every command prints these same lines.
 *
 * @example
 * ```ts
 * const HELP = `Usage: rcp call <url|file> <tool> [options]\n\n${BINDING_HELP}`;
 * ```
 */
export const BINDING_HELP = `  --ctx param=value       a trusted value for the param, filled by the client (the param is hidden from
                          the model); repeatable. The names are the manifest's param names
  --resolve a,b           params your application fills: hidden from the model as --ctx hides them, with no
                          value here (a call then fails before sending: RCP_UNRESOLVED); repeatable
  --model-filled a,b      params the model may choose although their names look like an identity (userId,
                          tenant_id ...): no identity warning or refusal for them; repeatable
`;

/**
 * Which flag named a param.
 *
 * @example
 * ```ts
 * const flag: BindingFlag | undefined = bindings.names.get('userId'); // '--ctx'
 * ```
 */
export type BindingFlag = '--ctx' | '--resolve' | '--model-filled';

/**
 * What the binding flags say: the client's `resolvers` and `modelFilledParams`, and every name
 * given with the flag that gave it (to refuse a name that fills no param).
 *
 * @example
 * ```ts
 * const bindings: CommandLineBindings = bindingsOf({ ctx: ['userId=u-1'], resolve: [], 'model-filled': [] }, 'rcp call');
 * createRcpClient({ resolvers: bindings.resolvers, modelFilledParams: bindings.modelFilledParams });
 * ```
 */
export interface CommandLineBindings {
  /**
   * One resolver per `--ctx` or `--resolve` param: it returns the `--ctx` value, whatever the
   * call's context (`undefined` for a `--resolve` param: the call fails with `RCP_UNRESOLVED`).
   */
  readonly resolvers: Readonly<Record<string, RcpResolver>>;
  /** The `--model-filled` params. */
  readonly modelFilledParams: readonly string[];
  /** Every param named, with the first flag that named it, in the order given. */
  readonly names: ReadonlyMap<string, BindingFlag>;
  /** The `--resolve` params that got no `--ctx` value. */
  readonly withoutValue: readonly string[];
}

const listOf = (entries: readonly string[]): string[] =>
  entries
    .flatMap((entry) => entry.split(','))
    .map((name) => name.trim())
    .filter((name) => name !== '');

const quoted = (names: readonly string[]): string => names.map((name) => `"${name}"`).join(', ');

/**
 * Reads the binding flags. A `--ctx` entry without `=`, a `--resolve` entry with one (the old
 * `param=ctxKey` form), and a param both filled and model-filled are usage errors. No message
 * quotes a `--ctx` value.
 *
 * @example
 * ```ts
 * const bindings = bindingsOf({ ctx: ['userId=u-1'], resolve: ['tenantId'], 'model-filled': [] }, 'rcp call');
 * await bindings.resolvers.userId!({}, context); // 'u-1'
 * ```
 */
export function bindingsOf(
  values: { readonly ctx: readonly string[]; readonly resolve: readonly string[]; readonly 'model-filled': readonly string[] },
  command: string,
): CommandLineBindings {
  const given = new Map<string, string>();
  const names = new Map<string, BindingFlag>();
  for (const entry of values.ctx) {
    const at = entry.indexOf('=');
    if (at <= 0) throw new RcpUsageError('--ctx takes param=value (an entry has no param name, or no "=")', { command });
    const name = entry.slice(0, at);
    given.set(name, entry.slice(at + 1));
    if (!names.has(name)) names.set(name, '--ctx');
  }
  const resolved = listOf(values.resolve);
  for (const name of resolved) {
    const at = name.indexOf('=');
    if (at !== -1) {
      const param = name.slice(0, at);
      throw new RcpUsageError(`--resolve takes param names (--resolve ${param}); give the param's value with --ctx ${param}=VALUE`, { command });
    }
    if (!names.has(name)) names.set(name, '--resolve');
  }
  const modelFilledParams = listOf(values['model-filled']);
  const both = modelFilledParams.filter((name) => names.has(name));
  if (both.length > 0) throw new RcpUsageError(`${quoted(both)}: a param is either filled (--ctx, --resolve) or model-filled, not both`, { command });
  for (const name of modelFilledParams) if (!names.has(name)) names.set(name, '--model-filled');
  const resolvers: Record<string, RcpResolver> = {};
  for (const [name, flag] of names) if (flag !== '--model-filled') resolvers[name] = () => given.get(name);
  return Object.freeze({
    resolvers: Object.freeze(resolvers),
    modelFilledParams: Object.freeze(modelFilledParams),
    names,
    withoutValue: Object.freeze(resolved.filter((name) => !given.has(name))),
  });
}

/**
 * Refuses binding flags that name no param of `tools` (`--ctx user=u-1` when the param is
 * `userId`): such a value would fill nothing, and the param it was meant for would stay the
 * model's. One usage error naming every such flag and the params there are.
 *
 * @example
 * ```ts
 * checkBindingNames(bindings, discovery.tools, 'rcp mcp');
 * // RcpUsageError: --ctx "user" fills no param of the tools; their params are "userId", "noteId" …
 * ```
 */
export function checkBindingNames(bindings: CommandLineBindings, tools: readonly RcpClientTool[], command: string): void {
  const declared = [...new Set(tools.flatMap((tool) => tool.params.map((param) => param.name)))];
  const unknown = [...bindings.names].filter(([name]) => !declared.includes(name));
  if (unknown.length === 0) return;
  const flags = unknown.map(([name, flag]) => `${flag} "${name}"`).join(', ');
  const params = declared.length === 0 ? 'the tools have no params' : `their params are ${quoted(declared.slice(0, 20))}${declared.length > 20 ? ' …' : ''}`;
  throw new RcpUsageError(`${flags} ${unknown.length === 1 ? 'fills' : 'fill'} no param of the tools; ${params}`, { command });
}

/**
 * The params that look like an identity (`userId`, `tenant_id` …) and that nothing fills, so a
 * model would choose them — each with the tools that declare it. The rule is rcp-client's
 * (`RcpClientToolParam.looksLikeIdentity`, SPEC §10): the command line's one place that reads it.
 *
 * @example
 * ```ts
 * unboundIdentityParams(discovery.tools); // [{ param: 'userId', tools: ['list_notes', 'get_note'] }]
 * ```
 */
export function unboundIdentityParams(tools: readonly RcpClientTool[]): { readonly param: string; readonly tools: readonly string[] }[] {
  const found = new Map<string, string[]>();
  for (const tool of tools) {
    for (const param of tool.params) {
      if (!param.looksLikeIdentity) continue;
      const list = found.get(param.name) ?? [];
      list.push(tool.name);
      found.set(param.name, list);
    }
  }
  return [...found].map(([param, names]) => ({ param, tools: names }));
}

/**
 * Refuses to serve tools to a model while a param that looks like an identity stays unbound
 * (see {@link unboundIdentityParams}): the refusal names each param, its tools, and both ways
 * out — `--ctx param=VALUE`, or `--model-filled param` when the model may choose it.
 *
 * @example
 * ```ts
 * refuseUnboundIdentity(toolSet.entries.map((entry) => entry.tool), 'rcp mcp');
 * ```
 */
export function refuseUnboundIdentity(tools: readonly RcpClientTool[], command: string): void {
  const unbound = unboundIdentityParams(tools);
  if (unbound.length === 0) return;
  const what = unbound.map(({ param, tools: names }) => `"${param}" (${names.join(', ')})`).join(', ');
  const one = unbound.length === 1;
  const params = unbound.map(({ param }) => param);
  // Every param that needs a flag is named in the way out too, so one fix serves them all (issue 41).
  throw new RcpUsageError(
    `not serving: ${one ? 'the param' : 'the params'} ${what} ${one ? 'looks' : 'look'} like an identity ` +
      `and nothing fills ${one ? 'it' : 'them'}, so the host's model would choose whose data a call reads. ` +
      `Give ${one ? 'the value' : 'the values'} with ${params.map((param) => `--ctx ${param}=VALUE`).join(' ')}, ` +
      `or pass --model-filled ${params.join(',')} if the model may choose ${one ? 'it' : 'them'}`,
    { command },
  );
}
