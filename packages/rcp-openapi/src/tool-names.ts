import { RESERVED_PARAM_NAMES, TOOL_NAME_MAX_LENGTH } from 'rcp-manifest';
import { TOOL_NAME_CHARS } from 'rcp-internal';
import { isTokenNameChar, isTokenNameStart } from 'rcp-internal';

/** Longest tool name (rcp-manifest's rule). */
export const MAX_NAME = TOOL_NAME_MAX_LENGTH;
/** Every run of characters a tool name cannot have. */
const NOT_TOOL_NAME_CHARS = new RegExp(`[^${TOOL_NAME_CHARS}]+`, 'g');

/** A short deterministic hash (FNV-1a, base 36) for names that had to be shortened. */
export function shortHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash.toString(36).padStart(6, '0').slice(-6);
}

/** `[A-Za-z0-9_-]`, at most 64 characters; a long name keeps its start and gets a hash. */
export function toolNameOf(source: string): string {
  const clean =
    source
      .replace(NOT_TOOL_NAME_CHARS, '_')
      .replace(/_{2,}/g, '_')
      .replace(/^_+|_+$/g, '') || 'operation';
  return clean.length <= MAX_NAME ? clean : `${clean.slice(0, MAX_NAME - 7)}_${shortHash(source)}`;
}

/** A `{{token}}` name (rcp-template's grammar) made from `source`, never a reserved name. */
export function tokenNameOf(source: string): string {
  let clean = '';
  for (let index = 0; index < source.length; index++) {
    const code = source.charCodeAt(index);
    if (isTokenNameChar(code)) clean += source[index];
    else if (index === 0 || isTokenNameChar(source.charCodeAt(index - 1))) clean += '_'; // one `_` per run
  }
  if (!isTokenNameStart(clean.charCodeAt(0))) clean = `_${clean}`;
  if (RESERVED_PARAM_NAMES.includes(clean)) clean = `${clean}_`;
  return clean;
}
