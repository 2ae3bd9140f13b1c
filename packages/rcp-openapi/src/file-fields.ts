/**
 * Which fields of a multipart body are files (RCP 0.4 file params, SPEC §20.7; docs/behaviour.md
 * "Files"), by what OpenAPI itself says a file is: OpenAPI 3.0's `type: string, format: binary`,
 * 3.1's `contentMediaType` (without `contentEncoding`: base64 text is text), Swagger 2's `type: file`.
 * A field's accepted media types come from its `encoding.contentType` (3.0, 3.1) or
 * `contentMediaType`; its `maxBytes` from `maxLength` on the binary string, the only size a
 * description can state. Never a guess from a field's name or description.
 */
import { MEDIA_RANGE_PATTERN, type RcpParam } from 'rcp-manifest';
import { isRecord } from 'rcp-internal';
import type { Schema } from './schema-to-param';

type Json = Record<string, unknown>;

const MEDIA_RANGE = new RegExp(MEDIA_RANGE_PATTERN);
/** Types that name no restriction: any bytes. */
const ANY_BYTES = new Set(['application/octet-stream', '*/*']);

/** Whether a schema describes one file's bytes. */
export function isFileSchema(schema: Schema): boolean {
  if (schema['type'] === 'file') return true;
  if (schema['format'] === 'binary' && (schema['type'] === 'string' || schema['type'] === undefined)) return true;
  return typeof schema['contentMediaType'] === 'string' && schema['contentEncoding'] === undefined && (schema['type'] ?? 'string') === 'string';
}

/** Whether a schema is an array of files (several files in one field: RCP sends one file per param). */
export function isFileArraySchema(schema: Schema): boolean {
  return schema['type'] === 'array' && isRecord(schema['items']) && isFileSchema(schema['items'] as Schema);
}

/**
 * A file param's fields for a file field: `type: "file"`, `mediaTypes` when the document names
 * them (each a `type/subtype` or `type/*`; `application/octet-stream` and `*\/*` name none, and a
 * list with any type RCP cannot write is left out, reported by `lose`), `maxBytes` from
 * `maxLength`.
 *
 * @example
 * ```ts
 * fileFields({ type: 'string', format: 'binary' }, { contentType: 'image/png, image/jpeg' }, () => {}, '"image"');
 * // { type: 'file', mediaTypes: ['image/png', 'image/jpeg'] }
 * ```
 */
export function fileFields(schema: Schema, encoding: unknown, lose: (message: string) => void, label: string): Partial<RcpParam> & { type: 'file' } {
  const fields: { type: 'file'; mediaTypes?: string[]; maxBytes?: number } = { type: 'file' };
  const declared = isRecord(encoding) && typeof encoding['contentType'] === 'string' ? encoding['contentType'] : schema['contentMediaType'];
  if (typeof declared === 'string') {
    const types = declared
      .split(',')
      .map((type) => type.trim().toLowerCase())
      .filter((type) => type !== '');
    if (types.some((type) => ANY_BYTES.has(type))) {
      // Any bytes: no restriction to declare.
    } else if (types.length > 0 && types.every((type) => MEDIA_RANGE.test(type))) fields.mediaTypes = [...new Set(types)];
    else lose(`the media types of file ${label} were left out (${declared.slice(0, 80)}: not "type/subtype" or "type/*")`);
  }
  const maxLength = (schema as Json)['maxLength'];
  if (typeof maxLength === 'number' && Number.isSafeInteger(maxLength) && maxLength >= 1) fields.maxBytes = maxLength;
  return fields;
}
