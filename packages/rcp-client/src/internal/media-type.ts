const JSON_MEDIA_TYPE = /^\s*application\/(?:[\w.!#$&^-]+\+)?json\s*(?:;|$)/i;

/** True for `application/json` and `application/<anything>+json`, with or without parameters. */
export function isJsonMediaType(contentType: string): boolean {
  return JSON_MEDIA_TYPE.test(contentType);
}

const HTML_MEDIA_TYPE = /^\s*(?:text\/html|application\/xhtml\+xml)\s*(?:;|$)/i;

/** True for `text/html` and `application/xhtml+xml`, with or without parameters. */
export function isHtmlMediaType(contentType: string): boolean {
  return HTML_MEDIA_TYPE.test(contentType);
}
