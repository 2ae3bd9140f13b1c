import { escapePointerToken, unescapePointerToken } from 'rcp-internal';

export { escapePointerToken };

/** Appends reference tokens to a JSON Pointer. */
export function joinPointer(base: string, ...tokens: (string | number)[]): string {
  let out = base;
  for (const token of tokens) out += `/${escapePointerToken(token)}`;
  return out;
}

/** Splits a JSON Pointer into unescaped reference tokens. */
export function splitPointer(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer.slice(1).split('/').map(unescapePointerToken);
}

/**
 * Orders pointers in document order as far as it can be known from the pointer alone:
 * segment by segment, array indexes numerically, keys by code unit.
 */
export function comparePointers(a: string, b: string): number {
  const left = splitPointer(a);
  const right = splitPointer(b);
  const length = Math.min(left.length, right.length);
  for (let i = 0; i < length; i++) {
    const x = left[i] as string;
    const y = right[i] as string;
    if (x === y) continue;
    const xIsIndex = /^(?:0|[1-9]\d*)$/.test(x);
    const yIsIndex = /^(?:0|[1-9]\d*)$/.test(y);
    if (xIsIndex && yIsIndex) return Number(x) - Number(y);
    return x < y ? -1 : 1;
  }
  return left.length - right.length;
}
