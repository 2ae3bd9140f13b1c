import { RcpError } from 'rcp-errors';
import type { RcpClientTool } from '../../client-tool';
import type { RcpDiscovery, RcpToolSource } from '../../client-types';
import { findEntry, findInToolSet, isToolSet, type RcpToolSetEntry } from '../../tool-set';
import { entriesOf } from '../discovery/entries';

/**
 * How a call's source finds a tool by name (`RCP_INVALID_OPTIONS` for a source that is none):
 * a tool set tells a name outside its stage from an unknown one.
 */
export function lookUpIn(source: RcpToolSource): (name: string) => RcpToolSetEntry {
  if (isToolSet(source)) return (name) => findInToolSet(source, name);
  const entries = entriesOfSource(source);
  return (name) => findEntry(entries, name);
}

/** The named tools of a discovery or a list of tools. */
function entriesOfSource(source: RcpDiscovery | readonly RcpClientTool[]): readonly RcpToolSetEntry[] {
  if (Array.isArray(source)) return entriesOf(source);
  const tools = typeof source === 'object' && source !== null ? (source as RcpDiscovery).tools : undefined;
  if (!Array.isArray(tools)) {
    throw new RcpError('RCP_INVALID_OPTIONS', 'client.call() needs a discovery (from client.discover), a list of its tools, or a tool set');
  }
  return entriesOf(tools);
}

/**
 * The tool a handle names in a call's source: the one discovered from that manifest under that
 * name, or `RCP_INVALID_HANDLE` when the source does not hold it (a handle of another tool set).
 */
export function toolForHandle(source: RcpToolSource, manifestUrl: string, name: string): RcpClientTool {
  const entries = isToolSet(source) ? source.entries : entriesOfSource(source);
  const found = entries.find((entry) => entry.tool.name === name && entry.tool.manifestUrl === manifestUrl);
  if (found === undefined) throw new RcpError('RCP_INVALID_HANDLE', `The operation handle names tool "${name}", which these tools do not hold`);
  return found.tool;
}
