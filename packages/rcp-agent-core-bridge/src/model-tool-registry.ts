import { RcpError } from 'rcp-errors';
import type { ModelTool, RegisteredModelTool, SealedModelToolRegistry } from './model-tool';
import { createSealedRegistry } from './internal/sealed-registry';
import { snapshotTool } from './internal/snapshot';
import { quote } from './internal/quote';

/**
 * The bundled implementation of the `@jangts/agent-core` `ModelToolRegistry` contract.
 * The constructor validates every definition at once (ids unique and never blank, a
 * description, an object input schema adapter, a `resolve` function) and stores a frozen
 * snapshot of each; any problem throws `RCP_INVALID_TOOL` listing them all.
 * {@link ModelToolRegistry.seal} returns the immutable registry the runtime works with.
 *
 * `active` and `asIntent` are stored untouched and never evaluated here.
 *
 * @example
 * ```ts
 * import { ModelToolRegistry } from 'rcp-agent-core-bridge';
 * const inputSchema = { jsonSchema: { type: 'object', properties: {}, additionalProperties: false },
 *   parse(value: unknown) {
 *     if (!value || typeof value !== 'object' || Array.isArray(value) || Object.keys(value).length) throw new Error('需要空对象');
 *     return {};
 *   } };
 * const tools = new ModelToolRegistry([
 *   { id: 'greet', description: '回答问候', inputSchema, resolve: () => 'greet' },
 *   { id: 'status', description: '查询状态', inputSchema, resolve: () => 'status' },
 * ]).seal();
 * console.log(tools.resolve({ toolId: 'status', input: {} }, { stageId: 'recognize' })); // 'status'
 * ```
 */
export class ModelToolRegistry<Output = unknown> {
  readonly #sealed: SealedModelToolRegistry<Output>;

  /**
   * Validates `tools` and snapshots them.
   *
   * @throws RcpError `RCP_INVALID_TOOL` listing every invalid or duplicate definition.
   * @example
   * ```ts
   * new ModelToolRegistry([{ id: '', description: 'x', inputSchema, resolve: () => 1 }]); // throws RCP_INVALID_TOOL
   * ```
   */
  constructor(tools: readonly ModelTool<any, Output>[]) {
    if (!Array.isArray(tools)) {
      throw new RcpError('RCP_INVALID_TOOL', 'ModelToolRegistry takes an array of tool definitions.');
    }
    const catalog = new Map<string, RegisteredModelTool<Output>>();
    const firstIndex = new Map<string, number>();
    const issues: string[] = [];
    tools.forEach((definition, index) => {
      const result = snapshotTool<Output>(definition, `tools[${index}]`);
      if (result.tool === undefined) {
        issues.push(...result.issues);
        return;
      }
      const { id } = result.tool;
      const previous = firstIndex.get(id);
      if (previous !== undefined) {
        issues.push(`tools[${index}].id ${quote(id)} duplicates tools[${previous}].id`);
        return;
      }
      firstIndex.set(id, index);
      catalog.set(id, result.tool);
    });
    if (issues.length > 0) {
      const shown = issues.slice(0, 5).join('; ');
      const more = issues.length > 5 ? ` (and ${issues.length - 5} more)` : '';
      throw new RcpError('RCP_INVALID_TOOL', `Invalid model tool definitions: ${shown}${more}.`);
    }
    this.#sealed = createSealedRegistry(catalog, [...catalog.keys()]);
  }

  /**
   * The sealed registry: a frozen object with `ids()`, `get(id)`, `select(ids)` and
   * `resolve(selection, { stageId })`. Nothing can be added, removed or replaced. Calling
   * `seal()` again returns the same object.
   *
   * @example
   * ```ts
   * const sealed = new ModelToolRegistry([greet, status]).seal();
   * Object.isFrozen(sealed); // true
   * sealed.select(['status']).ids(); // ['status']
   * ```
   */
  seal(): SealedModelToolRegistry<Output> {
    return this.#sealed;
  }
}
