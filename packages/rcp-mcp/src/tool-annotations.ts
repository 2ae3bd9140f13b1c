import type { ToolAnnotations } from '@modelcontextprotocol/server';
import { toolEffects, type RcpClientTool, type RcpHttpMethod } from 'rcp-client';

/**
 * MCP tool annotations from a tool's effects (rcp-client's `tool.effects`: the method's defaults,
 * the manifest's RCP 0.3 claims only adding caution): GET is read-only; DELETE is destructive;
 * reads, PUT and DELETE are idempotent; every tool reaches the open world unless its manifest
 * says otherwise. `destructiveHint: false` is sent only when the manifest claims it (MCP's
 * default for a write is destructive). Given a bare method, the method's defaults.
 *
 * @example
 * ```ts
 * toolAnnotations('DELETE'); // { openWorldHint: true, destructiveHint: true, idempotentHint: true }
 * toolAnnotations(discovery.tool('search_notes')); // from the tool's effects
 * ```
 */
export function toolAnnotations(tool: RcpHttpMethod | Pick<RcpClientTool, 'effects' | 'declaredEffects'>): ToolAnnotations {
  const effects = typeof tool === 'string' ? toolEffects({ method: tool }) : tool.effects;
  const annotations: ToolAnnotations = { openWorldHint: effects.openWorld };
  if (effects.readOnly) annotations.readOnlyHint = true;
  else if (effects.destructive) annotations.destructiveHint = true;
  else if (typeof tool !== 'string' && tool.declaredEffects?.destructive === false) annotations.destructiveHint = false;
  if (effects.idempotent && !effects.readOnly) annotations.idempotentHint = true;
  return annotations;
}
