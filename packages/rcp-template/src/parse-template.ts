import { RcpTemplateError } from './template-error';
import { isTokenNameChar, isTokenNameStart } from 'rcp-internal';

/**
 * One piece of a parsed template: literal text, or a `{{name}}` token.
 *
 * @example
 * ```ts
 * const parts: TemplatePart[] = [{ kind: 'text', text: '/users/' }, { kind: 'token', name: 'id', offset: 7 }];
 * ```
 */
export type TemplatePart =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'token'; readonly name: string /** Offset of the token's `{{` in the template text. */; readonly offset: number };

/**
 * A template parsed by {@link parseTemplate}. Frozen.
 *
 * @example
 * ```ts
 * const parsed: ParsedTemplate = parseTemplate('Hello {{name}}');
 * parsed.tokens; // ['name']
 * ```
 */
export interface ParsedTemplate {
  /** The template text as given. */
  readonly text: string;
  /** Token names, unique, in order of first use. */
  readonly tokens: readonly string[];
  /** Literal text and tokens in order. Adjacent text is merged; empty text is left out. */
  readonly parts: readonly TemplatePart[];
  /** The token name when the whole text is exactly one token (`"{{x}}"`), else `undefined`. */
  readonly single: string | undefined;
}

const OPEN = 0x7b; // {
const CLOSE = 0x7d; // }

function syntaxError(text: string, offset: number, message: string): RcpTemplateError {
  return new RcpTemplateError('RCP_TEMPLATE_SYNTAX', `Invalid template at offset ${offset}: ${message}`, {
    offset,
    template: text,
  });
}

/**
 * Parses `{{token}}` placeholders in a template string.
 *
 * Grammar (RCP 0.1): a token is `{{name}}` with `name` matching `^[A-Za-z_][A-Za-z0-9_]*$`; no
 * whitespace or operators inside the braces. `{{` always opens a token (there is no escape);
 * a lone `{`, `}` or `}}` outside a token is literal text.
 *
 * @param text - The template text.
 * @returns The parsed template (frozen).
 * @throws {@link RcpTemplateError} `RCP_TEMPLATE_SYNTAX` with `offset` (the offending character, or the
 *   opening `{{` of an unterminated token) and `template`.
 *
 * @example
 * ```ts
 * import { parseTemplate } from 'rcp-template';
 * parseTemplate('/users/{{id}}/posts/{{postId}}').tokens; // ['id', 'postId']
 * parseTemplate('{{count}}').single;                      // 'count'
 * parseTemplate('{{ id }}');                              // throws RCP_TEMPLATE_SYNTAX, offset 2
 * ```
 */
export function parseTemplate(text: string): ParsedTemplate {
  if (typeof text !== 'string') {
    throw new RcpTemplateError('RCP_TEMPLATE_SYNTAX', 'Invalid template: expected a string', {
      offset: 0,
      template: String(text),
    });
  }
  const parts: TemplatePart[] = [];
  const tokens: string[] = [];
  const length = text.length;
  let textStart = 0;
  let index = text.indexOf('{{');
  while (index !== -1) {
    const nameStart = index + 2;
    if (nameStart >= length) throw syntaxError(text, index, 'unterminated token (missing "}}")');
    const first = text.charCodeAt(nameStart);
    if (!isTokenNameStart(first)) {
      const what =
        first === CLOSE
          ? 'empty token name'
          : first === OPEN
            ? '"{{" cannot be followed by "{" (there is no escape for "{{")'
            : 'a token name must start with a letter or "_", with no spaces or operators';
      throw syntaxError(text, nameStart, what);
    }
    let cursor = nameStart + 1;
    while (cursor < length && isTokenNameChar(text.charCodeAt(cursor))) cursor++;
    if (cursor >= length) throw syntaxError(text, index, 'unterminated token (missing "}}")');
    if (text.charCodeAt(cursor) !== CLOSE) {
      throw syntaxError(text, cursor, 'a token name may contain only letters, digits and "_", with no spaces or operators');
    }
    if (cursor + 1 >= length) throw syntaxError(text, index, 'unterminated token (missing "}}")');
    if (text.charCodeAt(cursor + 1) !== CLOSE) {
      throw syntaxError(text, cursor + 1, 'expected "}}" to close the token');
    }
    if (index > textStart) parts.push(Object.freeze({ kind: 'text' as const, text: text.slice(textStart, index) }));
    const name = text.slice(nameStart, cursor);
    parts.push(Object.freeze({ kind: 'token' as const, name, offset: index }));
    if (!tokens.includes(name)) tokens.push(name);
    textStart = cursor + 2;
    index = text.indexOf('{{', textStart);
  }
  if (textStart < length) parts.push(Object.freeze({ kind: 'text' as const, text: text.slice(textStart) }));
  const only = parts.length === 1 ? parts[0] : undefined;
  return Object.freeze({
    text,
    tokens: Object.freeze(tokens),
    parts: Object.freeze(parts),
    single: only !== undefined && only.kind === 'token' ? only.name : undefined,
  });
}
