import { RESERVED_PARAM_NAMES, TOOL_NAME_MAX_LENGTH, TOOL_NAME_PATTERN, TOOL_NAME_RULE } from './manifest-patterns';

const TOOL_NAME = new RegExp(TOOL_NAME_PATTERN);

/**
 * Whether `name` is a tool name: 1 to 64 characters from `A-Z a-z 0-9 _ -` ({@link TOOL_NAME_PATTERN}),
 * what model APIs accept as a function name. The one rule for manifests, namespaced tool sets and importers.
 *
 * @example
 * ```ts
 * import { isToolName } from 'rcp-manifest';
 * isToolName('search_courses'); // true
 * isToolName('search courses'); // false
 * ```
 */
export function isToolName(name: string): boolean {
  return typeof name === 'string' && TOOL_NAME.test(name);
}

export { RESERVED_PARAM_NAMES, TOOL_NAME_MAX_LENGTH, TOOL_NAME_PATTERN, TOOL_NAME_RULE };
