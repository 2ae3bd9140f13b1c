/*
 * Media types (RFC 6838 restricted names), written once: the manifest's `responseMediaTypes`, the
 * client's reading of a Content-Type, the server's of a request body, the importer's choice of one.
 */

/** A restricted name (RFC 6838 §4.2): a letter or digit, then up to 126 of these characters. */
const RESTRICTED_NAME = '[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}';

/**
 * A media type without parameters, `type/subtype` (a regular expression source, `^` and `$` included).
 *
 * @example
 * ```ts
 * import { MEDIA_TYPE_PATTERN } from 'rcp-manifest';
 * new RegExp(MEDIA_TYPE_PATTERN).test('image/png'); // true
 * ```
 */
export const MEDIA_TYPE_PATTERN = `^${RESTRICTED_NAME}/${RESTRICTED_NAME}$`;

/**
 * A media type or a range of one type (RCP 0.3 `responseMediaTypes`): `type/subtype` or `type/*`,
 * no parameters. `*\/*` is not one: a tool names what it answers with.
 *
 * @example
 * ```ts
 * import { MEDIA_RANGE_PATTERN } from 'rcp-manifest';
 * new RegExp(MEDIA_RANGE_PATTERN).test('image/*'); // true
 * ```
 */
export const MEDIA_RANGE_PATTERN = `^${RESTRICTED_NAME}/(?:\\*|${RESTRICTED_NAME})$`;

const JSON_MEDIA_TYPE = /^\s*application\/(?:[A-Za-z0-9!#$&^_.+-]+\+)?json\s*(?:;|$)/i;

/**
 * Whether a Content-Type is JSON: `application/json` or `application/<anything>+json`
 * (`merge-patch+json`, `vnd.api+json`), with or without parameters, any case.
 *
 * @example
 * ```ts
 * import { isJsonMediaType } from 'rcp-manifest';
 * isJsonMediaType('application/problem+json; charset=utf-8'); // true
 * isJsonMediaType('text/json'); // false
 * ```
 */
export function isJsonMediaType(contentType: string): boolean {
  return JSON_MEDIA_TYPE.test(contentType);
}
