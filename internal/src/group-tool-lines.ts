/**
 * Warning lines a person reads (issue 41): `<pointer>: Tool "<name>"<rest>` lines that differ only in the tool
 * become one line naming how many tools and the first few — 447 tools whose origin is not trusted are one line, not
 * 447. Any other line, and a tool alone with its warning, is kept as it is; the order of first appearance is kept.
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
  const TOOL_LINE = /^(\/tools\/\d+)((?:\/[^:\s]*)?): Tool "([^"]*)"(.*)$/s;
  const groups = new Map<string, { pointers: string[]; names: string[]; tail: string; rest: string }>();
  const out: (string | { key: string })[] = [];
  for (const line of lines) {
    const match = TOOL_LINE.exec(line);
    if (match === null) {
      out.push(line);
      continue;
    }
    const [, pointer, tail, name, rest] = match as unknown as [string, string, string, string, string];
    const key = `${tail}\u0000${rest}`;
    let group = groups.get(key);
    if (group === undefined) {
      group = { pointers: [], names: [], tail, rest };
      groups.set(key, group);
      out.push({ key });
    }
    group.pointers.push(pointer + tail);
    group.names.push(name);
  }
  return out.map((entry) => {
    if (typeof entry === 'string') return entry;
    const { pointers, names, rest } = groups.get(entry.key)!;
    if (names.length === 1) return `${pointers[0]}: Tool "${names[0]}"${rest}`;
    const shown = names.slice(0, named).join(', ') + (names.length > named ? ', …' : '');
    const plural = rest.replace(/\bexecuting it\b/g, 'executing them').replace(/\bits\b/g, 'their');
    return `${pointers[0]} …${pointers[pointers.length - 1]}: ${names.length} tools (${shown})${plural}`;
  });
}
