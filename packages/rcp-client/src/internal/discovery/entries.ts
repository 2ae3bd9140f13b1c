import type { RcpClientTool } from '../../client-tool';
import type { RcpToolSetEntry } from '../../tool-set';

/** Each tool under its own name. */
export function entriesOf(tools: readonly RcpClientTool[]): readonly RcpToolSetEntry[] {
  return tools.map((tool) => ({ name: tool.name, tool }));
}
