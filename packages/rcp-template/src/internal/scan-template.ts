/**
 * Allocation-light template scanning for the compilers. {@link parseTemplate} stays the one
 * place that words syntax errors: a compiler first asks {@link isValidTemplate} and, only when
 * it says no, calls `parseIn` to throw the exact error. Both follow the same grammar.
 */

import { isTokenNameChar, isTokenNameStart } from 'rcp-internal';

const CLOSE = 0x7d; // }

/**
 * End (exclusive) of the token whose `{{` is at `index`, or -1 when no valid token starts
 * there (`{{` followed by a name and `}}`).
 */
function tokenEnd(text: string, index: number): number {
  const length = text.length;
  let cursor = index + 2;
  if (cursor >= length || !isTokenNameStart(text.charCodeAt(cursor))) return -1;
  cursor++;
  while (cursor < length && isTokenNameChar(text.charCodeAt(cursor))) cursor++;
  if (cursor + 1 >= length || text.charCodeAt(cursor) !== CLOSE || text.charCodeAt(cursor + 1) !== CLOSE) return -1;
  return cursor + 2;
}

/** True when `text` follows the `{{token}}` grammar (what `parseTemplate` accepts). */
export function isValidTemplate(text: string): boolean {
  let index = text.indexOf('{{');
  while (index !== -1) {
    const end = tokenEnd(text, index);
    if (end === -1) return false;
    index = text.indexOf('{{', end);
  }
  return true;
}

/** Literal pieces and token names of a template, interleaved: `texts[0] names[0] texts[1] ... texts[n]`. */
export interface TemplatePieces {
  texts: string[];
  names: string[];
}

/**
 * Splits the part of a VALID template between `start` and `end` (which must not cut a token)
 * into literal pieces and token names (`texts.length === names.length + 1`; pieces may be
 * empty). `onText(piece, offset)` may transform each literal piece (`offset`: where it starts
 * in `text`). The lists are allocated at their exact size: compiled templates keep them.
 */
export function splitTemplate(text: string, start: number, end: number, onText?: (piece: string, offset: number) => string): TemplatePieces {
  let count = 0;
  for (let index = text.indexOf('{{', start); index !== -1 && index < end; index = text.indexOf('{{', tokenEnd(text, index))) {
    count++;
  }
  if (count === 0) {
    const piece = text.slice(start, end);
    return { texts: [onText === undefined ? piece : onText(piece, start)], names: [] };
  }
  const texts = new Array<string>(count + 1);
  const names = new Array<string>(count);
  let from = start;
  let index = text.indexOf('{{', start);
  for (let at = 0; at < count; at++) {
    const close = tokenEnd(text, index);
    const piece = text.slice(from, index);
    texts[at] = onText === undefined ? piece : onText(piece, from);
    names[at] = text.slice(index + 2, close - 2);
    from = close;
    index = text.indexOf('{{', close);
  }
  const piece = text.slice(from, end);
  texts[count] = onText === undefined ? piece : onText(piece, from);
  return { texts, names };
}

/** Offset of the first `{{` between `start` and `end`, or -1. */
export function firstToken(text: string, start: number, end: number): number {
  const index = text.indexOf('{{', start);
  return index !== -1 && index < end ? index : -1;
}
