import { RcpError } from 'rcp-errors';
import { parseTemplate } from 'rcp-template';

/** One segment of a tool's path: literal text, or a token between a literal prefix and suffix. */
type Segment =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'token'; readonly name: string; readonly prefix: string; readonly suffix: string };

/** The raw (still percent-encoded) value of each path token, or `undefined` when the path does not match. */
export type PathMatcher = (pathname: string) => Map<string, string> | undefined;

/**
 * Literal path text as a request URL carries it: what the client's URL normalisation and the
 * WHATWG parser make of it (characters not valid as written percent-encoded, `%xx` upper-cased).
 */
function normalise(text: string): string {
  if (text === '') return '';
  return new URL(`/${text}`, 'http://rcp.invalid').pathname.slice(1).replace(/%[0-9a-f]{2}/gi, (sequence) => sequence.toUpperCase());
}

/**
 * Compiles the matcher of a tool's path template (parsed with rcp-template's grammar). A
 * segment holds at most one token, so a value can be read back without guessing where it ends.
 */
export function compilePathMatcher(tool: string, path: string): PathMatcher {
  if (!path.startsWith('/') || path.startsWith('//') || path.includes('?') || path.includes('#')) {
    throw new RcpError('RCP_INVALID_OPTIONS', `Tool "${tool}": "path" must be a path starting with one "/", without a fragment`);
  }
  const segments: Segment[] = path
    .slice(1)
    .split('/')
    .map((text) => {
      const parsed = parseTemplate(text);
      if (parsed.tokens.length === 0) return { kind: 'text', text: normalise(text) };
      const tokens = parsed.parts.filter((part) => part.kind === 'token');
      if (tokens.length > 1) {
        throw new RcpError('RCP_INVALID_OPTIONS', `Tool "${tool}": a path segment may hold one {{token}} at most ("${text}")`);
      }
      const index = parsed.parts.findIndex((part) => part.kind === 'token');
      const textOf = (parts: typeof parsed.parts) => parts.map((part) => (part.kind === 'text' ? part.text : '')).join('');
      return {
        kind: 'token',
        name: tokens[0]!.kind === 'token' ? tokens[0]!.name : '',
        prefix: normalise(textOf(parsed.parts.slice(0, index))),
        suffix: normalise(textOf(parsed.parts.slice(index + 1))),
      };
    });

  return (pathname) => {
    const raw = pathname.slice(1).split('/');
    if (!pathname.startsWith('/') || raw.length !== segments.length) return undefined;
    const values = new Map<string, string>();
    for (let index = 0; index < segments.length; index++) {
      const segment = segments[index]!;
      const text = raw[index]!;
      if (segment.kind === 'text') {
        if (text !== segment.text) return undefined;
        continue;
      }
      const { prefix, suffix } = segment;
      if (text.length <= prefix.length + suffix.length || !text.startsWith(prefix) || !text.endsWith(suffix)) return undefined;
      values.set(segment.name, text.slice(prefix.length, text.length - suffix.length));
    }
    return values;
  };
}
