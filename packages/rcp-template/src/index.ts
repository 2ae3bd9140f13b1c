export { parseTemplate } from './parse-template';
export type { ParsedTemplate, TemplatePart } from './parse-template';
export { collectTemplateTokens } from './collect-template-tokens';
export { compileRequest } from './compile-request';
export { percentEncode } from './percent-encode';
export { HTTP_TOKEN_PROBLEM, HTTP_TOKEN_SOURCE, isHttpToken, isTokenChar } from './http-token';
export { encodeFormBody } from './encode-form';
export type {
  CompileRequestOptions,
  CompiledRequest,
  RenderedRequest,
  RequestTemplate,
} from './compile-request';
export { RcpTemplateError } from './template-error';
export type { RcpTemplateErrorCode, RcpTemplateErrorOptions, TemplatePosition } from './template-error';
export { RcpError, isRcpError } from 'rcp-errors';
export type { RcpErrorCode, RcpErrorOptions, RcpErrorOf } from 'rcp-errors';
export { TOKEN_NAME_SOURCE, isTokenName, isTokenNameChar, isTokenNameStart } from './token-name';
export { isHeaderValue, isHeaderValueChar } from './header-value';
export { escapePointerToken, unescapePointerToken } from './json-pointer';
export { isPlainObject, isRecord } from './plain-object';
