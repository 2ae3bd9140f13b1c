import { MEDIA_TYPE_PATTERN, isJsonMediaType } from 'rcp-manifest';

export { isJsonMediaType };

const MEDIA_TYPE = new RegExp(MEDIA_TYPE_PATTERN);

const HTML_MEDIA_TYPE = /^\s*(?:text\/html|application\/xhtml\+xml)\s*(?:;|$)/i;

/** True for `text/html` and `application/xhtml+xml`, with or without parameters. */
export function isHtmlMediaType(contentType: string): boolean {
  return HTML_MEDIA_TYPE.test(contentType);
}

/**
 * The media type of a Content-Type for a message: the part before any parameter, if it is a
 * short token (`application/json`); else `an unreadable content type`. Parameters (where a
 * server may reflect anything) are never quoted.
 */
export function mediaTypeLabel(contentType: string): string {
  const type = contentType.split(';', 1)[0]!.trim();
  if (type === '') return 'no content type';
  return MEDIA_TYPE.test(type) ? type : 'an unreadable content type';
}
