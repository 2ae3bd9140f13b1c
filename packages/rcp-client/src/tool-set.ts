import { RcpError } from 'rcp-errors';
import { TOOL_NAME_MAX_LENGTH, TOOL_NAME_RULE, isToolName } from 'rcp-manifest';
import { isRecord } from 'rcp-internal';
import type { RcpClientTool, RcpToolGroup } from './client-tool';
import type { RcpDiscovery } from './create-rcp-client';
import { NAMESPACE_SEPARATOR, defaultNamespace } from './internal/discovery/namespace';
import { RcpToolNotInStageError, RcpUnknownToolError } from './unknown-tool-error';

/**
 * Chooses the namespace of a manifest whose tools share a name with another manifest's tools.
 * Called at most once per discovery (only for discoveries with a clashing name); the result
 * must be a tool name itself (`isToolName` from rcp-manifest: 1-64 of `A-Z a-z 0-9 _ -`).
 *
 * @example
 * ```ts
 * const namespace: RcpNamespace = (discovery, index) => (index === 0 ? 'learn' : 'shop');
 * ```
 */
export type RcpNamespace = (discovery: RcpDiscovery, index: number) => string;

/**
 * Which tools of a set to keep: a list of names (a set's name or a tool's own name), or a
 * predicate.
 *
 * @example
 * ```ts
 * const readOnly: RcpToolFilter = (tool) => tool.method === 'GET';
 * const some: RcpToolFilter = ['search_courses', 'get_course'];
 * ```
 */
export type RcpToolFilter = readonly string[] | ((tool: RcpClientTool, name: string) => boolean);

/**
 * One tool of a set, under the name the model sees (the tool's own name, or
 * `<namespace>__<name>` when several discoveries share it).
 *
 * @example
 * ```ts
 * const { name, tool } = toolSet.entries[0]!;
 * ```
 */
export interface RcpToolSetEntry {
  readonly name: string;
  readonly tool: RcpClientTool;
}

/**
 * A group of a tool set's tools (RCP 0.4 groups, SPEC §20.3): what adapters with a native notion
 * of groups (OpenAI Responses namespaces) and search read. `name` is the group's own, unique in
 * the set regardless of case — a group of another discovery that has the same name gets `_2`,
 * `_3` … — and `names` are the model-facing names of its tools in this set, in order.
 * `description` is the server's text (untrusted), `''` when it gives none.
 *
 * @example
 * ```ts
 * for (const group of toolSet.groups) console.log(group.name, group.names.length);
 * ```
 */
export interface RcpToolSetGroup {
  readonly name: string;
  readonly description: string;
  readonly names: readonly string[];
}

/**
 * Options of {@link createToolSet}.
 *
 * @example
 * ```ts
 * createToolSet([learn, shop], { namespace: (discovery, index) => ['learn', 'shop'][index]!, only: ['search_courses'] });
 * ```
 */
export interface RcpToolSetOptions {
  /**
   * Namespace for tools whose name appears in more than one discovery. Every tool sharing
   * such a name becomes `<namespace>__<name>`; tools with a unique name keep their name.
   * @default the manifest URL's host, `[^A-Za-z0-9-]` runs as `_` (`learn.example.com` → `learn_example_com`), shortened to keep names within 64 characters
   */
  namespace?: RcpNamespace;
  /**
   * Keep only these tools (names, or a predicate).
   * @default every tool
   */
  only?: RcpToolFilter;
}

/**
 * The tools one agent is given, from one or more discoveries, each under a unique
 * model-facing name matching `^[A-Za-z0-9_-]{1,64}$`. Frozen. Pass it to `client.call()`
 * (which then looks names up in it) and to the adapters.
 *
 * @example
 * ```ts
 * const toolSet = createToolSet([learn, shop]);
 * const browse = toolSet.select(['search_courses', 'get_course']);
 * await client.call(browse, { name: 'search_courses', arguments: '{"query":"algebra"}' }, ctx);
 * ```
 */
export interface RcpToolSet {
  readonly entries: readonly RcpToolSetEntry[];
  /** The model-facing names, in order. */
  readonly names: readonly string[];
  /**
   * The tool under `name`; `RCP_UNKNOWN_TOOL` (naming the available ones) otherwise.
   * @example
   * ```ts
   * const search = toolSet.tool('search_courses');
   * ```
   */
  tool(name: string): RcpClientTool;
  /**
   * A subset (a stage's tools): names of this set or tools' own names, or a predicate. A
   * listed name that is not in the set is `RCP_UNKNOWN_TOOL`. A call through the subset to a
   * tool of the whole set that the subset left out is `RCP_TOOL_NOT_IN_STAGE` (the same code and
   * message on every stack); `stage` names the subset in that message.
   * @example
   * ```ts
   * const browse = toolSet.select((tool) => tool.method === 'GET', { stage: 'browse' });
   * ```
   */
  select(only: RcpToolFilter, options?: { readonly stage?: string }): RcpToolSet;
  /** The stage this subset was selected for, when `select` was given one. */
  readonly stage?: string;
  /**
   * The groups of this set's tools (RCP 0.4), in the order of their first tool; a tool whose
   * manifest puts it in no group is in none of them (its `tool.group` is absent).
   * @example
   * ```ts
   * toolSet.groups; // [{ name: 'invoices', description: 'Invoices and their payments.', names: ['list_invoices', 'pay_invoice'] }]
   * ```
   */
  readonly groups: readonly RcpToolSetGroup[];
  /**
   * The discoveries' warnings about what this set serves, as `<pointer>: <message>` lines: each
   * manifest's own, and those under a tool this set holds (a tool left out by `only` or a stage
   * takes its warnings with it). Every adapter surfaces them the same way: through its `toolSet`,
   * or in its own `warnings` beside its tool-count warning.
   * @example
   * ```ts
   * for (const warning of toolSet.warnings) console.warn(warning);
   * ```
   */
  readonly warnings: readonly string[];
}

/** A discovery warning and the tool it is under (none for a manifest's own). */
interface ToolSetNote {
  readonly tool: RcpClientTool | undefined;
  readonly line: string;
}

const NO_NOTES: readonly ToolSetNote[] = Object.freeze([]);

/** The discoveries' warnings, each with the tool its pointer names (`/tools/<i>…`). */
function notesOf(discoveries: readonly RcpDiscovery[]): readonly ToolSetNote[] {
  const notes = discoveries.flatMap((discovery) =>
    (Array.isArray(discovery.warnings) ? discovery.warnings : []).map((warning) => {
      const index = /^\/tools\/(\d+)(?:\/|$)/.exec(warning.path)?.[1];
      return { tool: index === undefined ? undefined : discovery.tools[Number(index)], line: `${warning.path}: ${warning.message}` };
    }),
  );
  return notes.length === 0 ? NO_NOTES : notes;
}

/** The whole set a subset was selected from (its names tell "not in this stage" from "unknown"). */
const WHOLE = Symbol('rcp.toolSet.whole');

/** True for a value made by {@link createToolSet}. */
export function isToolSet(value: unknown): value is RcpToolSet {
  return isRecord(value) && Array.isArray(value.entries) && typeof value.select === 'function';
}

/** The one entry named `name`; `RCP_UNKNOWN_TOOL` when there is none, or more than one. */
export function findEntry(entries: readonly RcpToolSetEntry[], name: string): RcpToolSetEntry {
  let found: RcpToolSetEntry | undefined;
  for (const entry of entries) {
    if (entry.name !== name) continue;
    if (found !== undefined) throw new RcpUnknownToolError(name, [], { ambiguous: true });
    found = entry;
  }
  if (found === undefined)
    throw new RcpUnknownToolError(
      name,
      entries.map((entry) => entry.name),
    );
  return found;
}

/**
 * The entry named `name` in a tool set: `RCP_TOOL_NOT_IN_STAGE` when the set is a subset and the
 * name is one of the whole set's, `RCP_UNKNOWN_TOOL` when it is no one's.
 */
export function findInToolSet(toolSet: RcpToolSet, name: string): RcpToolSetEntry {
  const whole = (toolSet as { [WHOLE]?: readonly RcpToolSetEntry[] })[WHOLE];
  if (whole !== undefined && !toolSet.entries.some((entry) => entry.name === name) && whole.some((entry) => entry.name === name)) {
    throw new RcpToolNotInStageError(name, toolSet.stage);
  }
  return findEntry(toolSet.entries, name);
}

function filterEntries(entries: readonly RcpToolSetEntry[], only: RcpToolFilter): RcpToolSetEntry[] {
  if (typeof only === 'function') return entries.filter(({ tool, name }) => only(tool, name) === true);
  if (!Array.isArray(only) || !only.every((name) => typeof name === 'string')) {
    throw new RcpError('RCP_INVALID_OPTIONS', '"only" must be a list of tool names or a predicate (tool, name) => boolean');
  }
  const kept = new Set<RcpToolSetEntry>();
  for (const name of only) {
    const byName = entries.find((entry) => entry.name === name);
    const matches = byName ? [byName] : entries.filter((entry) => entry.tool.name === name);
    if (matches.length === 0)
      throw new RcpUnknownToolError(
        name,
        entries.map((entry) => entry.name),
      );
    for (const entry of matches) kept.add(entry);
  }
  return entries.filter((entry) => kept.has(entry));
}

const NO_GROUPS: readonly RcpToolSetGroup[] = Object.freeze([]);

/**
 * The set-wide name of each group of the entries' tools: its own, or with `_2`, `_3` … when a group of another
 * discovery took it (regardless of case), shortened to stay a tool name.
 */
function groupNamesOf(entries: readonly RcpToolSetEntry[]): ReadonlyMap<RcpToolGroup, string> {
  const names = new Map<RcpToolGroup, string>();
  const taken = new Set<string>();
  for (const { tool } of entries) {
    const group = tool.group;
    if (group === undefined || names.has(group)) continue;
    let name = group.name;
    for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${group.name.slice(0, TOOL_NAME_MAX_LENGTH - String(n).length - 1)}_${n}`;
    taken.add(name.toLowerCase());
    names.set(group, name);
  }
  return names;
}

/** The groups of the entries, in the order of their first tool, under their set-wide names. */
function groupsOf(entries: readonly RcpToolSetEntry[], groupNames: ReadonlyMap<RcpToolGroup, string>): readonly RcpToolSetGroup[] {
  if (groupNames.size === 0) return NO_GROUPS;
  const members = new Map<RcpToolGroup, string[]>();
  for (const { name, tool } of entries) {
    if (tool.group === undefined) continue;
    const list = members.get(tool.group);
    if (list === undefined) members.set(tool.group, [name]);
    else list.push(name);
  }
  return Object.freeze(
    [...members].map(([group, names]) => Object.freeze({ name: groupNames.get(group)!, description: group.description, names: Object.freeze(names) })),
  );
}

function toolSetOf(
  entries: readonly RcpToolSetEntry[],
  notes: readonly ToolSetNote[],
  whole?: readonly RcpToolSetEntry[],
  stage?: string,
  wholeGroupNames?: ReadonlyMap<RcpToolGroup, string>,
): RcpToolSet {
  const frozen = Object.freeze(entries.map((entry) => Object.freeze({ name: entry.name, tool: entry.tool })));
  const root = whole ?? frozen;
  // Names are given once, for the whole set: a subset's group keeps the name it has in the whole.
  const groupNames = wholeGroupNames ?? groupNamesOf(frozen);
  const served = new Set(frozen.map((entry) => entry.tool));
  const set: RcpToolSet = {
    entries: frozen,
    names: Object.freeze(frozen.map((entry) => entry.name)),
    tool: (name: string) => findInToolSet(set, name).tool,
    select: (only: RcpToolFilter, options?: { readonly stage?: string }) => {
      const named = options?.stage;
      if (named !== undefined && typeof named !== 'string') throw new RcpError('RCP_INVALID_OPTIONS', 'select(): "stage" must be a string');
      return toolSetOf(filterEntries(frozen, only), notes, root, named, groupNames);
    },
    ...(stage !== undefined && { stage }),
    groups: groupsOf(frozen, groupNames),
    warnings: Object.freeze(notes.filter((note) => note.tool === undefined || served.has(note.tool)).map((note) => note.line)),
  };
  if (whole !== undefined) Object.defineProperty(set, WHOLE, { value: whole });
  return Object.freeze(set);
}

/** Accepts one discovery or a list of them; checks their shape. */
function discoveryList(discoveries: unknown): readonly RcpDiscovery[] {
  const list = Array.isArray(discoveries) ? discoveries : [discoveries];
  list.forEach((discovery, index) => {
    if (!isRecord(discovery) || !Array.isArray(discovery.tools) || typeof discovery.manifestUrl !== 'string') {
      throw new RcpError('RCP_INVALID_OPTIONS', `discoveries[${index}] is not a discovery returned by client.discover()`);
    }
  });
  return list as readonly RcpDiscovery[];
}

/**
 * Combines the tools of one or more discoveries into one {@link RcpToolSet}, each under a
 * unique model-facing name. A name found in one discovery only is kept. A name found in two or
 * more is namespaced in EVERY one of them (`<namespace>__<name>`), so neither silently shadows
 * the other; names stay within `^[A-Za-z0-9_-]{1,64}$`. Given a tool set, it is filtered by
 * `only` and returned as is otherwise.
 *
 * @throws RcpError `RCP_INVALID_OPTIONS` (not discoveries, a bad namespace), `RCP_INVALID_TOOL` (two tools would get
 *   one name, or a name over 64 characters), `RCP_UNKNOWN_TOOL` (`only` names a tool that is not there).
 * @example
 * ```ts
 * import { createToolSet } from 'rcp-client';
 *
 * const toolSet = createToolSet([await client.discover(learnUrl), await client.discover(shopUrl)]);
 * toolSet.names; // ['get_learner_profile', 'learn_example_com__search', 'shop_example_com__search']
 * ```
 */
export function createToolSet(source: RcpDiscovery | readonly RcpDiscovery[] | RcpToolSet, options: RcpToolSetOptions = {}): RcpToolSet {
  if (!isRecord(options)) throw new RcpError('RCP_INVALID_OPTIONS', 'createToolSet options must be an object');
  const { namespace, only } = options as RcpToolSetOptions;
  if (isToolSet(source)) return only === undefined ? source : source.select(only);
  if (namespace !== undefined && typeof namespace !== 'function') {
    throw new RcpError('RCP_INVALID_OPTIONS', 'namespace must be a function (discovery, index) => string');
  }
  const list = discoveryList(source);
  const owners = new Map<string, Set<number>>();
  list.forEach((discovery, index) => {
    for (const tool of discovery.tools) {
      const set = owners.get(tool.name) ?? new Set<number>();
      set.add(index);
      owners.set(tool.name, set);
    }
  });
  const namespaces = new Map<number, string>();
  const namespaceOf = (discovery: RcpDiscovery, index: number): string => {
    let chosen = namespaces.get(index);
    if (chosen === undefined) {
      // An operator's namespace is checked by the tool-name rule, length included; the default one is
      // made of tool-name characters and may be longer: it is shortened below to fit the tool's name.
      chosen = namespace ? namespace(discovery, index) : defaultNamespace(discovery.manifestUrl, index);
      if (namespace !== undefined && (typeof chosen !== 'string' || !isToolName(chosen))) {
        throw new RcpError('RCP_INVALID_OPTIONS', `namespace() must return ${TOOL_NAME_RULE} (discovery ${index})`);
      }
      namespaces.set(index, chosen);
    }
    return chosen;
  };

  const entries: RcpToolSetEntry[] = [];
  const seen = new Map<string, string>();
  list.forEach((discovery, index) => {
    for (const tool of discovery.tools) {
      let name = tool.name;
      if ((owners.get(tool.name)?.size ?? 0) > 1) {
        let prefix = namespaceOf(discovery, index);
        const room = TOOL_NAME_MAX_LENGTH - NAMESPACE_SEPARATOR.length - tool.name.length;
        if (namespace === undefined && prefix.length > room && room > 0) prefix = prefix.slice(0, room);
        name = `${prefix}${NAMESPACE_SEPARATOR}${tool.name}`;
        if (!isToolName(name)) {
          throw new RcpError(
            'RCP_INVALID_TOOL',
            `Tool ${JSON.stringify(tool.name)} from ${discovery.manifestUrl} would be named ${JSON.stringify(name)}, ` +
              `longer than ${TOOL_NAME_MAX_LENGTH} characters; pass a shorter namespace`,
          );
        }
      }
      const where = `${JSON.stringify(tool.name)} from ${discovery.manifestUrl}`;
      const previous = seen.get(name);
      if (previous !== undefined) {
        throw new RcpError(
          'RCP_INVALID_TOOL',
          `Tools ${previous} and ${where} would both be named ${JSON.stringify(name)}; pass a namespace option that tells their manifests apart`,
        );
      }
      seen.set(name, where);
      entries.push({ name, tool });
    }
  });
  const set = toolSetOf(entries, notesOf(list));
  return only === undefined ? set : set.select(only);
}

/**
 * The warning for a tool list longer than a model API or host accepts (OpenAI: 128 functions),
 * or `undefined` when it fits. Written once for every adapter.
 *
 * @example
 * ```ts
 * toolCountWarning(toolSet, { limit: 128, target: 'OpenAI' });
 * // 'OpenAI accepts at most 128 tools; this set has 140: select fewer (createToolSet(..., { only }), or a stage)'
 * ```
 */
export function toolCountWarning(toolSet: RcpToolSet, { limit, target }: { limit: number; target: string }): string | undefined {
  const count = toolSet.entries.length;
  if (count <= limit) return undefined;
  return `${target} accepts at most ${limit} tools; this set has ${count}: select fewer (createToolSet(..., { only }), or a stage)`;
}
