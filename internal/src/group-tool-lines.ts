/** A warning under a JSON Pointer, as the client's discovery and rcp-manifest give them. */
export interface PointedWarning {
  readonly path: string;
  readonly message: string;
}

/** `/tools/<i>` and the rest of a tool's pointer (`/params/2`). */
const TOOL_POINTER = /^\/tools\/\d+((?:\/[^:\s]*)?)$/;
/** A message about the tool itself: `Tool "<name>"<rest>`. */
const ABOUT_TOOL = /^Tool "([^"]*)"(.*)$/s;
/** A message about a part of a tool: `<head> of tool "<name>" (<pointer>)<rest>` (the client's param warnings). */
const ABOUT_PART = /^(.*?) of tool "([^"]*)" \((\/tools\/[^\s)]*)\)(.*)$/s;

/** What a group's warnings share, and the items (warnings or lines) under it. */
interface Group<Item> {
  readonly items: Item[];
  readonly paths: string[];
  readonly names: string[];
  readonly render: (count: number, shown: string) => string;
}

/**
 * Warnings a person reads (issue 41): warnings under tools that differ only in the tool — its
 * index in the pointer (`/tools/7/params/2` and `/tools/9/params/4` are the same place in two
 * tools) and its name in the message — become one warning naming how many tools and the first
 * few: 447 tools whose origin is not trusted are one warning, not 447. The client's
 * `Tool "<name>" …` and `… of tool "<name>" (<pointer>) …` name the first three tools; a message that
 * names no tool (rcp-manifest's `unknown field "x" is ignored`) says how many. A warning under no
 * tool, and a tool alone with its warning, is kept as it is; the order of first appearance is kept.
 * A group's pointer is its first and last (`/tools/0 …/tools/446`).
 *
 * @example
 * ```ts
 * groupToolWarnings([
 *   { path: '/tools/0', message: 'Tool "a" would send a credential to https://x.example, which is not a trusted origin; executing it will fail' },
 *   { path: '/tools/1', message: 'Tool "b" would send a credential to https://x.example, which is not a trusted origin; executing it will fail' },
 * ]);
 * // [{ path: '/tools/0 …/tools/1', message: '2 tools (a, b) would send a credential to https://x.example, which is not a trusted origin; executing them will fail' }]
 * ```
 */
export function groupToolWarnings<Warning extends PointedWarning>(warnings: readonly Warning[], named = 3): (Warning | PointedWarning)[] {
  return grouped(warnings, (warning) => warning, named);
}

/** The one grouping: `pointed` reads an item as a warning (undefined: kept as it is). */
function grouped<Item>(items: readonly Item[], pointed: (item: Item) => PointedWarning | undefined, named: number): (Item | PointedWarning)[] {
  const groups = new Map<string, Group<Item>>();
  const out: (Item | Group<Item>)[] = [];
  for (const item of items) {
    const warning = pointed(item);
    const key = warning === undefined ? undefined : groupKey(warning);
    if (warning === undefined || key === undefined) {
      out.push(item);
      continue;
    }
    let group = groups.get(key.key);
    if (group === undefined) {
      group = { items: [], paths: [], names: [], render: key.render };
      groups.set(key.key, group);
      out.push(group);
    }
    group.items.push(item);
    group.paths.push(warning.path);
    group.names.push(key.name);
  }
  const made = new Set<unknown>(groups.values());
  return out.map((entry) => {
    if (!made.has(entry)) return entry as Item;
    const { items: members, paths, names, render } = entry as Group<Item>;
    if (members.length === 1) return members[0]!;
    const shown = names.slice(0, named).join(', ') + (names.length > named ? ', …' : '');
    return { path: `${paths[0]} …${paths[paths.length - 1]}`, message: render(names.length, shown) };
  });
}

/** The group a warning belongs to (its place in a tool, its cause), the tool's name, and how the group reads; undefined for a warning under no tool. */
function groupKey(warning: PointedWarning): { key: string; name: string; render: Group<unknown>['render'] } | undefined {
  const tail = TOOL_POINTER.exec(warning.path)?.[1];
  if (tail === undefined) return undefined;
  // The same place in every tool: indexes below the tool are not compared.
  const place = tail.replace(/\/\d+(?=\/|$)/g, '/*');
  const tool = ABOUT_TOOL.exec(warning.message);
  if (tool !== null) {
    const [, name, rest] = tool as unknown as [string, string, string];
    const plural = rest.replace(/\bexecuting it\b/g, 'executing them').replace(/\bits\b/g, 'their');
    return { key: `tool\u0000${place}\u0000${rest}`, name, render: (count, shown) => `${count} tools (${shown})${plural}` };
  }
  const part = ABOUT_PART.exec(warning.message);
  if (part !== null && part[3] === warning.path) {
    const [, head, name, , rest] = part as unknown as [string, string, string, string, string];
    return { key: `part\u0000${place}\u0000${head}\u0000${rest}`, name, render: (count, shown) => `${head} of ${count} tools (${shown})${rest}` };
  }
  // A message that does not name its tool (rcp-manifest's: an unknown field, an unused param): the same text at the same place.
  return { key: `same\u0000${place}\u0000${warning.message}`, name: '', render: (count) => `${warning.message} (${count} tools)` };
}

/** A `<pointer>: <message>` line as a warning; undefined for a line under no tool. */
const LINE = /^(\/tools\/\d+(?:\/[^:\s]*)?): (.*)$/s;

/**
 * {@link groupToolWarnings} over `<pointer>: <message>` lines (a tool set's `warnings`): lines
 * under no tool are kept as they are.
 *
 * @example
 * ```ts
 * groupToolLines([
 *   '/tools/0: Tool "a" would send a credential to https://x.example, which is not a trusted origin; executing it will fail',
 *   '/tools/1: Tool "b" would send a credential to https://x.example, which is not a trusted origin; executing it will fail',
 * ]);
 * // ['/tools/0 …/tools/1: 2 tools (a, b) would send a credential to https://x.example, which is not a trusted origin; executing them will fail']
 * ```
 */
export function groupToolLines(lines: readonly string[], named = 3): string[] {
  return grouped(
    lines,
    (line) => {
      const match = LINE.exec(line);
      return match === null ? undefined : { path: match[1]!, message: match[2]! };
    },
    named,
  ).map((entry) => (typeof entry === 'string' ? entry : `${entry.path}: ${entry.message}`));
}
