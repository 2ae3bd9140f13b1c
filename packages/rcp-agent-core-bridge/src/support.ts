import { defineSchema } from './define-schema';
import { createModelTransport } from './model-transport';

/**
 * The contract's `Support` helpers, as a frozen namespace object:
 * {@link defineSchema} and {@link createModelTransport}.
 *
 * @example
 * ```ts
 * import { ModelToolRegistry, Support } from 'rcp-agent-core-bridge';
 * const schema = Support.defineSchema({ jsonSchema: { type: 'object', properties: {} },
 *   parse(value: unknown) { if (!value || typeof value !== 'object' || Array.isArray(value)) throw new TypeError('需要对象'); return {}; } });
 * const registry = new ModelToolRegistry([
 *   { id: 'greet', description: '问候', inputSchema: schema, resolve: () => 'greet' },
 *   { id: 'status', description: '状态', inputSchema: schema, resolve: () => 'status' },
 * ]).seal();
 * const readOnly = registry.select(['status']);
 * const transport = Support.createModelTransport({ id: 'recognize', tools: readOnly });
 * console.log(transport.id, readOnly.ids()); // recognize [ 'status' ]
 * ```
 */
export const Support: Readonly<{
  defineSchema: typeof defineSchema;
  createModelTransport: typeof createModelTransport;
}> = Object.freeze({ defineSchema, createModelTransport });
