import { compileRequest } from 'rcp-template';
import type { RcpParamType, RcpTool } from './manifest-schema';

/**
 * A tool's param with the defaults of RCP 0.1 applied.
 *
 * @example
 * ```ts
 * const param: ToolParam = { name: 'learnerId', type: 'string', required: true, description: "The learner's id" };
 * ```
 */
export interface ToolParam {
  /** The `{{token}}` name. */
  readonly name: string;
  /** The declared type, `'string'` when omitted. */
  readonly type: RcpParamType;
  /** Declared `required`, or `true` when the param is used in the URL path (path tokens are always required). */
  readonly required: boolean;
  /** The declared description, `''` when omitted. */
  readonly description: string;
}

/**
 * The params of a tool with defaults applied: `type` defaults to `'string'`, `description` to
 * `''`, and a param whose token appears in the URL path is required whether or not it says so.
 *
 * @param tool - A validated tool (from `parseManifest` / `defineManifest`).
 * @returns Frozen list, in declaration order.
 * @throws `RcpTemplateError` RCP_TEMPLATE_SYNTAX when the tool's url is not a valid template (only
 *   possible for a tool that did not come from `parseManifest`).
 *
 * @example
 * ```ts
 * import { parseManifest, toolParams } from 'rcp-manifest';
 *
 * const manifest = parseManifest(json);
 * toolParams(manifest.tools[0]);
 * // [{ name: 'learnerId', type: 'string', required: true, description: "The learner's id" }]
 * ```
 */
export function toolParams(tool: RcpTool): readonly ToolParam[] {
  const pathTokens = compileRequest({ method: tool.method, url: tool.url }).pathTokens;
  const params = Object.freeze(
    (tool.params ?? []).map((param) =>
      Object.freeze({
        name: param.name,
        type: param.type ?? 'string',
        required: param.required === true || pathTokens.includes(param.name),
        description: param.description ?? '',
      }),
    ),
  );
  return params;
}
