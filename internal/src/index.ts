// rcp-internal: shared rules, bundled into each public package that imports them (tsup `noExternal`); never
// published, never a dependency a user installs. A name here is not public API of any package.
export { HTTP_TOKEN_PROBLEM, HTTP_TOKEN_SOURCE, isHttpToken, isTokenChar } from './http-token';
export { isHeaderValue, isHeaderValueChar } from './header-value';
export { escapePointerToken, unescapePointerToken } from './json-pointer';
export { isPlainObject, isRecord } from './plain-object';
export { TOKEN_NAME_SOURCE, isTokenName, isTokenNameChar, isTokenNameStart } from './token-name';
export { annotationMessage, annotationProperty, terminalJson, terminalLines, terminalStrings, terminalText } from './terminal-text';
export { groupToolLines, groupToolWarnings } from './group-tool-lines';
export type { PointedWarning } from './group-tool-lines';
export { TOOL_NAME_CHARS, kindOf, scalarFromText } from './value-text';
export { oneLineDescription } from './one-line';
export { mediaTypeInRanges, STREAM_MEDIA_TYPES } from './media-range';
