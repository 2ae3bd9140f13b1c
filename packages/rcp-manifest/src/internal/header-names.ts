import { HTTP_TOKEN_PATTERN } from '../manifest-patterns';

const HTTP_TOKEN = new RegExp(HTTP_TOKEN_PATTERN);

/**
 * Header names a manifest may never set, lowercase. Host, Content-Length, Transfer-Encoding,
 * Connection and Cookie (RCP 0.1), plus the other connection-level (hop-by-hop) headers of
 * RFC 9110 §7.6.1 and Expect, which Node's fetch refuses or which only the HTTP client may set,
 * and Proxy-Authorization: a credential for a proxy between the client and the tool, which
 * neither a manifest's auth nor a model-filled value may ever set.
 */
export const FORBIDDEN_HEADER_NAMES: ReadonlySet<string> = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'cookie',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'upgrade',
  'expect',
  'proxy-authorization',
]);

/** Why `name` cannot be a header name, or undefined when it can. */
export function headerNameProblem(name: string): string | undefined {
  if (name === '') return 'a header name cannot be empty';
  if (name.includes('{{')) return 'header names are never templated (only values may contain {{tokens}})';
  if (!HTTP_TOKEN.test(name)) return "must be an HTTP token (RFC 9110): letters, digits and !#$%&'*+-.^_`|~ only";
  if (FORBIDDEN_HEADER_NAMES.has(name.toLowerCase())) {
    return `"${name}" cannot be set by a manifest (the HTTP client controls it)`;
  }
  return undefined;
}
