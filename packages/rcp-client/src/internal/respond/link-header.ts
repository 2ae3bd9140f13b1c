/**
 * The `rel="next"` target of a `Link` header (RFC 8288 §3): `<https://api.example.com/items?page=2>; rel="next"`.
 * Several links (comma-separated, or several headers joined), several relation types in one
 * `rel` (`rel="next last"`), quoted parameters holding commas or semicolons, and any case of
 * `rel` and `next` are read; anything else is skipped, never guessed at.
 */
import { isTokenChar } from 'rcp-internal';

/** Longest header read: a longer one is the server's bug, not a page link. */
const MAX_LINK_HEADER = 16 * 1024;

/** The `rel="next"` target as written (relative or absolute), or undefined. */
export function nextLinkTarget(header: string | null): string | undefined {
  if (header === null || header.length > MAX_LINK_HEADER) return undefined;
  let i = 0;
  const n = header.length;
  const skipSpace = (): void => {
    while (i < n && (header[i] === ' ' || header[i] === '\t')) i++;
  };
  const token = (): string => {
    const start = i;
    while (i < n && isTokenChar(header.charCodeAt(i))) i++;
    return header.slice(start, i);
  };
  /** A quoted-string's content (backslash escapes removed), `i` just past its closing quote. */
  const quoted = (): string => {
    let out = '';
    i++; // the opening quote
    while (i < n && header[i] !== '"') {
      if (header[i] === '\\' && i + 1 < n) i++;
      out += header[i];
      i++;
    }
    i++; // the closing quote
    return out;
  };
  while (i < n) {
    skipSpace();
    if (header[i] === ',') {
      i++;
      continue;
    }
    if (header[i] !== '<') return undefined; // not a link-value: stop rather than guess
    const end = header.indexOf('>', i);
    if (end === -1) return undefined;
    const target = header.slice(i + 1, end).trim();
    i = end + 1;
    let next = false;
    for (;;) {
      skipSpace();
      if (header[i] !== ';') break;
      i++;
      skipSpace();
      const name = token().toLowerCase();
      skipSpace();
      let value = '';
      if (header[i] === '=') {
        i++;
        skipSpace();
        value = header[i] === '"' ? quoted() : token();
      }
      if (name === '') return undefined;
      if (
        name === 'rel' &&
        value
          .toLowerCase()
          .split(/[ \t]+/)
          .includes('next')
      )
        next = true;
    }
    if (next) return target;
    skipSpace();
    if (i < n && header[i] !== ',') return undefined;
  }
  return undefined;
}
