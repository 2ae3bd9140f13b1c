/**
 * File params through the gateway (docs/behaviour.md, the gateway; SPEC §20.7): a tool's file
 * param is listed the way the MCP file-input drafts declare one — `x-mcp-file` on a string
 * property (SEP-2356's declaration, which SEP-2631 keeps), with `accept` (media types) and
 * `maxSize` (bytes) — beside rcp-client's own `x-rcp-file`. What a host sends for it (an
 * attachment id, or a URI it received) is the reference rcp-client's `files` resolver is given;
 * the gateway never reads it.
 */
import type { RcpClientTool } from 'rcp-client';

type InputSchema = RcpClientTool['inputSchema'];

/**
 * The input schema a host is shown: each property rcp-client marks `x-rcp-file` also carries
 * `x-mcp-file: { accept?, maxSize? }`; a schema without file params is returned as it is.
 *
 * @example
 * ```ts
 * mcpFileSchema(tool.inputSchema).properties.image;
 * // { type: 'string', description: '…', 'x-rcp-file': { mediaTypes: ['image/png'] }, 'x-mcp-file': { accept: ['image/png'] } }
 * ```
 */
export function mcpFileSchema(schema: InputSchema): InputSchema {
  const entries = Object.entries(schema.properties);
  if (!entries.some(([, property]) => property['x-rcp-file'] !== undefined)) return schema;
  const properties = Object.fromEntries(
    entries.map(([name, property]) => {
      const file = property['x-rcp-file'];
      if (file === undefined) return [name, property];
      const mark = { ...(file.mediaTypes !== undefined && { accept: [...file.mediaTypes] }), ...(file.maxBytes !== undefined && { maxSize: file.maxBytes }) };
      return [name, { ...property, 'x-mcp-file': mark }];
    }),
  );
  return { ...schema, properties } as InputSchema;
}
