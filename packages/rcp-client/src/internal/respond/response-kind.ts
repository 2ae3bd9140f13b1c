import { MEDIA_RANGE_PATTERN } from 'rcp-manifest';
import { mediaTypeInRanges } from 'rcp-internal';
/**
 * What a 2xx answer with a body is, by its media type (SPEC §11 step 7, §18.3): JSON, text, a
 * media part (the bytes, passed on as they are), or refused — a binary type the client does not
 * pass on is never decoded as text. One file, so the rule is written once.
 */
import { isJsonMediaType } from './media-type';

/** Media passed on by default: what model APIs read natively, and a file of bytes. */
export const DEFAULT_MEDIA_TYPES: readonly string[] = Object.freeze(['image/*', 'audio/*', 'video/*', 'application/pdf', 'application/octet-stream']);
/** Largest media part passed on by default (the smallest per-image limit of the common model APIs). */
export const DEFAULT_MAX_MEDIA_BYTES = 5 * 1024 * 1024;

/** The kinds of a response body. */
export type ResponseKind = 'json' | 'text' | 'media' | 'refused';

/**
 * Types that are text whatever else is declared: `text/*`, XML (`application/xml`, `+xml`, so
 * `image/svg+xml` too: its text can carry instructions like any other) and the `application/`
 * types that are text by definition.
 */
const TEXT_MEDIA_TYPE =
  /^(?:text\/.+|application\/(?:xml|javascript|ecmascript|x-ndjson|x-www-form-urlencoded|yaml|x-yaml|toml|csv|graphql|sql)|[^/]+\/.+\+xml)$/;
/** What a media type (or range) may look like after lower-casing. */
const MEDIA_TYPE = new RegExp(MEDIA_RANGE_PATTERN);
/** C0 controls a text body does not hold (tab, line feed, form feed and carriage return are text). */
const BINARY_CONTROL = /[\u0000-\u0008\u000b\u000e-\u001f]/;

/** The media type of a Content-Type, lower-cased, without parameters; `''` when absent or unreadable. */
export function mediaTypeOf(contentType: string): string {
  const type = contentType.split(';', 1)[0]!.trim().toLowerCase();
  return MEDIA_TYPE.test(type) && !type.endsWith('/*') ? type : '';
}

/** True for a media type that is text (see {@link TEXT_MEDIA_TYPE}); `type` is lower-case. */
export function isTextMediaType(type: string): boolean {
  return TEXT_MEDIA_TYPE.test(type);
}

/** Whether `type` matches one of `ranges` (`image/png`, `image/*`): rcp-internal's one rule. */
export const matchesMediaRange = mediaTypeInRanges;

/** Checked, lower-cased media ranges (throws a message for the first bad one). */
export function normalizeMediaRanges(ranges: readonly unknown[], what: string): string[] {
  return ranges.map((range) => {
    const lower = typeof range === 'string' ? range.trim().toLowerCase() : '';
    if (!MEDIA_TYPE.test(lower)) {
      throw new TypeError(`${what} must list media types or ranges of one type ("image/png", "image/*"), without parameters`);
    }
    return lower;
  });
}

const UTF8_STRICT = new TextDecoder('utf-8', { fatal: true });

/** Whether bytes read as text: valid UTF-8 without the control characters binary formats are full of. */
export function looksLikeText(body: Uint8Array): boolean {
  let text: string;
  try {
    text = UTF8_STRICT.decode(body);
  } catch {
    return false;
  }
  return !BINARY_CONTROL.test(text);
}

/** What the rule says of one body: its kind and media type (`''` when it has none). */
export interface ResponseKindOf {
  readonly kind: ResponseKind;
  readonly mediaType: string;
}

/** A body without a (readable) media type is, by RFC 9110 §8.3, `application/octet-stream`. */
const OCTET_STREAM = 'application/octet-stream';

/**
 * The kind of a non-empty 2xx body (HTML is refused before, SPEC §11 step 7): JSON by its type;
 * text for a text type; media for a type in `mediaRanges` (the client's `mediaTypes` and the
 * tool's declared `responseMediaTypes`); otherwise text when the bytes read as text (a vendor
 * text type, or none at all) and, when they do not, refused — never decoded into garbage. A
 * body with no readable type whose bytes are not text is `application/octet-stream`.
 */
export function responseKind(contentType: string, body: Uint8Array, mediaRanges: readonly string[]): ResponseKindOf {
  if (isJsonMediaType(contentType)) return { kind: 'json', mediaType: mediaTypeOf(contentType) };
  const type = mediaTypeOf(contentType);
  if (type !== '' && isTextMediaType(type)) return { kind: 'text', mediaType: type };
  if (type !== '' && matchesMediaRange(type, mediaRanges)) return { kind: 'media', mediaType: type };
  if (looksLikeText(body)) return { kind: 'text', mediaType: type };
  if (type === '') return { kind: matchesMediaRange(OCTET_STREAM, mediaRanges) ? 'media' : 'refused', mediaType: OCTET_STREAM };
  return { kind: 'refused', mediaType: type };
}
