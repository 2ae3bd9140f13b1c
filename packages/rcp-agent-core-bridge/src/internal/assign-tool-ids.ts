import { createToolSet, type RcpDiscovery } from 'rcp-client';
import type { RcpClientTool } from 'rcp-client';
import type { RcpModelToolsOptions } from '../rcp-model-tools';

/** One RCP tool and its model tool id (internal to the bridge). */
export interface RcpToolEntry {
  readonly id: string;
  readonly tool: RcpClientTool;
}

/**
 * Every discovered tool with its model tool id: its name in `rcp-client`'s tool set (the one
 * rule for combining discoveries, namespacing clashing names in every discovery).
 */
export function assignToolIds(
  discoveries: RcpDiscovery | readonly RcpDiscovery[],
  options: RcpModelToolsOptions = {},
): RcpToolEntry[] {
  const { namespace } = options ?? {};
  return createToolSet(discoveries, namespace === undefined ? {} : { namespace }).entries.map(({ name, tool }) => ({
    id: name,
    tool,
  }));
}
