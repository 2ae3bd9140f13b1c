import { RcpError } from 'rcp-errors';
import type { SchemaAdapter } from './model-tool';
import { snapshotSchemaAdapter } from './internal/snapshot';

/**
 * Checks a schema adapter's shape (`jsonSchema` object, `parse` function) and returns a
 * frozen snapshot of it, typed by what `parse` returns. Registries additionally require a
 * tool's input schema to be an object schema.
 *
 * @throws RcpError `RCP_INVALID_TOOL` when the adapter is malformed.
 * @example
 * ```ts
 * import { Support } from 'rcp-agent-core-bridge';
 * const schema = Support.defineSchema({ jsonSchema: { type: 'object', properties: {} },
 *   parse(value: unknown) { if (!value || typeof value !== 'object' || Array.isArray(value)) throw new TypeError('需要对象'); return {}; } });
 * ```
 */
export function defineSchema<T>(adapter: SchemaAdapter<T>): SchemaAdapter<T> {
  const result = snapshotSchemaAdapter(adapter, 'schema', false);
  if (result.adapter === undefined) {
    throw new RcpError('RCP_INVALID_TOOL', `Invalid schema adapter: ${result.issues.join('; ')}.`);
  }
  return result.adapter;
}
