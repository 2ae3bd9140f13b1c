/**
 * `rcp-sdk/template`: everything `rcp-template` exports — the `{{token}}` grammar:
 * `parseTemplate`, `collectTemplateTokens`, `compileRequest`, `percentEncode` and `RcpTemplateError`.
 * Re-exports only; every name is listed explicitly and kept equal to `rcp-template`'s own
 * exports (a test checks it).
 *
 * @example
 * ```ts
 * import { compileRequest } from 'rcp-sdk/template';
 *
 * const request = compileRequest({ method: 'GET', url: '/courses/{{id}}' }, { baseUrl: 'https://api.example.com' });
 * request.render({ id: 'a b' }).url; // 'https://api.example.com/courses/a%20b'
 * ```
 *
 * @packageDocumentation
 */
export {
  parseTemplate,
  collectTemplateTokens,
  compileRequest,
  percentEncode,
  encodeFormBody,
  TOKEN_NAME_SOURCE,
  isTokenName,
  RcpTemplateError,
  RcpError,
  isRcpError,
} from 'rcp-template';
export type {
  ParsedTemplate,
  TemplatePart,
  CompileRequestOptions,
  CompiledRequest,
  RenderedRequest,
  RequestTemplate,
  QueryStyle,
  RcpTemplateErrorCode,
  RcpTemplateErrorOptions,
  TemplatePosition,
  RcpErrorCode,
  RcpErrorOptions,
  RcpErrorOf,
} from 'rcp-template';
