import { isArray, isJsonObjectNode } from './internal/json-tree';
import { parseTemplate } from './parse-template';

/**
 * Lists the tokens used in every string value of a JSON tree (a tool's `body`), unique, in
 * document order. Object keys are never templates and are not examined.
 *
 * @param value - A JSON value (object, array, string, number, boolean or null).
 * @returns Token names in order of first use.
 * @throws {@link RcpTemplateError} `RCP_TEMPLATE_SYNTAX` when a string value is not a valid template
 *   (`template` is that string, `offset` is inside it).
 *
 * @example
 * ```ts
 * import { collectTemplateTokens } from 'rcp-template';
 * collectTemplateTokens({ user: '{{userId}}', tags: ['{{tag}}', 'fixed'], '{{key}}': 'Hi {{name}}' });
 * // ['userId', 'tag', 'name']
 * ```
 */
export function collectTemplateTokens(value: unknown): string[] {
  const found: string[] = [];
  const seen = new Set<string>();
  visit(value, found, seen);
  return found;
}

function visit(value: unknown, found: string[], seen: Set<string>): void {
  if (typeof value === 'string') {
    if (value.indexOf('{{') === -1) return;
    for (const name of parseTemplate(value).tokens) {
      if (!seen.has(name)) {
        seen.add(name);
        found.push(name);
      }
    }
  } else if (isArray(value)) {
    for (let index = 0; index < value.length; index++) visit(value[index], found, seen);
  } else if (isJsonObjectNode(value)) {
    for (const key of Object.keys(value)) visit(value[key], found, seen);
  }
}
