import { RcpError } from 'rcp-errors';
import type { RcpClientTool, RcpDiscovery } from 'rcp-client';
import type { RcpModelToolsOptions } from '../rcp-model-tools';
import { NAMESPACE_SEPARATOR, TOOL_ID_PATTERN, defaultNamespace } from './namespace';
import { quote } from './quote';

/** One RCP tool and its model tool id (internal to the bridge). */
export interface RcpToolEntry {
  readonly id: string;
  readonly tool: RcpClientTool;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

/** Accepts one discovery or a list of them; checks their shape. */
function discoveryList(discoveries: RcpDiscovery | readonly RcpDiscovery[]): readonly RcpDiscovery[] {
  const list = Array.isArray(discoveries) ? discoveries : [discoveries];
  list.forEach((discovery, index) => {
    if (!isObject(discovery) || !Array.isArray(discovery.tools) || typeof discovery.manifestUrl !== 'string') {
      throw new RcpError(
        'RCP_INVALID_OPTIONS',
        `discoveries[${index}] is not a discovery returned by client.discover().`,
      );
    }
  });
  return list;
}

/**
 * Assigns every discovered tool its model tool id. A name found in one discovery only is
 * the id. A name found in two or more discoveries is namespaced in EVERY one of them
 * (`<namespace>__<name>`), so neither silently shadows the other. Colliding ids throw
 * `RCP_INVALID_TOOL`.
 */
export function assignToolIds(
  discoveries: RcpDiscovery | readonly RcpDiscovery[],
  options: RcpModelToolsOptions = {},
): RcpToolEntry[] {
  const list = discoveryList(discoveries);
  const { namespace } = options ?? {};
  if (namespace !== undefined && typeof namespace !== 'function') {
    throw new RcpError('RCP_INVALID_OPTIONS', 'namespace must be a function (discovery, index) => string.');
  }
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
      chosen = namespace ? namespace(discovery, index) : defaultNamespace(discovery.manifestUrl, index);
      if (typeof chosen !== 'string' || !/^[A-Za-z0-9_-]+$/.test(chosen)) {
        throw new RcpError(
          'RCP_INVALID_OPTIONS',
          `namespace() must return a non-empty string of A-Z a-z 0-9 _ - (discovery ${index}).`,
        );
      }
      namespaces.set(index, chosen);
    }
    return chosen;
  };

  const entries: RcpToolEntry[] = [];
  const seen = new Map<string, string>();
  list.forEach((discovery, index) => {
    for (const tool of discovery.tools) {
      let id = tool.name;
      if ((owners.get(tool.name)?.size ?? 0) > 1) {
        let prefix = namespaceOf(discovery, index);
        const room = 64 - NAMESPACE_SEPARATOR.length - tool.name.length;
        if (namespace === undefined && prefix.length > room && room > 0) prefix = prefix.slice(0, room);
        id = `${prefix}${NAMESPACE_SEPARATOR}${tool.name}`;
        if (!TOOL_ID_PATTERN.test(id)) {
          throw new RcpError(
            'RCP_INVALID_TOOL',
            `Tool ${quote(tool.name)} from ${discovery.manifestUrl} would get the id ${quote(id)}, longer than 64 characters; pass a shorter namespace.`,
          );
        }
      }
      const where = `${quote(tool.name)} from ${discovery.manifestUrl}`;
      const previous = seen.get(id);
      if (previous !== undefined) {
        throw new RcpError(
          'RCP_INVALID_TOOL',
          `Tools ${previous} and ${where} would both get the id ${quote(id)}; pass a namespace option that tells their manifests apart.`,
        );
      }
      seen.set(id, where);
      entries.push(Object.freeze({ id, tool }));
    }
  });
  return entries;
}

