import { Composer, Parser, type CST } from 'yaml';
import { isRecord } from 'rcp-internal';
import type { RcpError } from 'rcp-manifest';
import { expandedSize } from './expanded-size';
import { invalidOptions as fail } from './invalid-options';

/**
 * Deepest nesting a document may have (the document object itself is level 1). Real API
 * descriptions stay far below it; the YAML composer, the OpenAPI validator and the dereferencer
 * all recurse, and a document nested a few thousand levels deep exhausts the stack inside them
 * (on Node, once in a regular-expression compilation: a native allocation failure that ends the
 * process, which no `catch` stops). So depth is measured first, without recursion.
 */
export const MAX_DOCUMENT_DEPTH = 256;

/** The default of `maxBytes`: 32 MiB (the largest public API descriptions are about a third of it). */
export const DEFAULT_MAX_DOCUMENT_BYTES = 32 * 1024 * 1024;

/** Aliases a YAML document may use (each can repeat a whole subtree). */
const MAX_ALIASES = 100;

type Json = Record<string, unknown>;

function tooDeep(): RcpError<'RCP_INVALID_OPTIONS'> {
  return fail(`The OpenAPI document is nested deeper than ${MAX_DOCUMENT_DEPTH} levels`);
}

/** UTF-8 bytes of `text`, counted up to `max + 1` (lone surrogates count as U+FFFD, 3 bytes). */
function utf8Bytes(text: string, max: number): number {
  let bytes = 0;
  for (let i = 0; i < text.length && bytes <= max; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * Nesting depth of YAML's concrete syntax tree (block maps and sequences, flow collections —
 * JSON's objects and arrays are flow collections), walked with an explicit stack. The tree comes
 * from `yaml`'s `Parser`, which keeps its own stack and does not recurse; only composing the
 * tree into values recurses, and that runs after this check.
 */
function syntaxDepth(tokens: readonly CST.Token[], max: number): number {
  const stack: [CST.Token, number][] = tokens.map((token) => [token, 0]);
  let deepest = 0;
  while (stack.length > 0) {
    const [token, parentDepth] = stack.pop()!;
    let depth = parentDepth;
    if (token.type === 'block-map' || token.type === 'block-seq' || token.type === 'flow-collection') {
      depth++;
      if (depth > deepest) deepest = depth;
      if (deepest > max) return deepest;
      for (const item of token.items) {
        if (item.key) stack.push([item.key, depth]);
        if (item.value) stack.push([item.value, depth]);
      }
    } else if (token.type === 'document' && token.value !== undefined) stack.push([token.value, depth]);
  }
  return deepest;
}

/**
 * Nesting depth of a value (a container is one level), walked with an explicit stack; it stops
 * at `max + 1`, so a cyclic value counts as too deep. A YAML alias makes a value deeper than its
 * text, and an object input has no text: this runs on every value before anything recursive does.
 * An object used in several places (an alias, a shared object) is walked once: its depth below
 * it is kept, so a value that shares objects costs what its distinct objects do.
 */
function valueDepth(value: unknown, max: number): number {
  if (typeof value !== 'object' || value === null) return 0;
  /** Levels from an object down (itself included), once walked. */
  const below = new Map<object, number>();
  const open = new Set<object>();
  const stack: [object, boolean][] = [[value, false]];
  while (stack.length > 0) {
    const [current, walked] = stack.pop()!;
    if (walked) {
      let deepest = 0;
      for (const child of Object.values(current)) if (typeof child === 'object' && child !== null) deepest = Math.max(deepest, below.get(child)!);
      open.delete(current);
      below.set(current, deepest + 1);
      if (deepest + 1 > max) return deepest + 1;
      continue;
    }
    if (below.has(current)) continue;
    // Open objects are the path from the top: one open again is a cycle, and a long path is too deep.
    if (open.has(current) || open.size >= max) return max + 1;
    open.add(current);
    stack.push([current, true]);
    for (const child of Object.values(current)) if (typeof child === 'object' && child !== null && !below.has(child)) stack.push([child, false]);
  }
  return below.get(value)!;
}

/** YAML (a superset of JSON) text to a value: size and depth checked before the recursive steps. */
function parseText(text: string, maxBytes: number): unknown {
  if (utf8Bytes(text, maxBytes) > maxBytes) throw fail(`The OpenAPI document is larger than ${maxBytes} bytes (option "maxBytes")`);
  let tokens: CST.Token[];
  try {
    tokens = [...new Parser().parse(text)];
  } catch (error) {
    throw fail('The OpenAPI document is neither JSON nor YAML', error);
  }
  if (syntaxDepth(tokens, MAX_DOCUMENT_DEPTH) > MAX_DOCUMENT_DEPTH) throw tooDeep();
  try {
    const documents = [...new Composer().compose(tokens, true, text.length)];
    const document = documents[0];
    if (document === undefined) return null;
    if (documents.length > 1) throw new Error('the text holds several YAML documents');
    if (document.errors.length > 0) throw document.errors[0];
    return document.toJS({ maxAliasCount: MAX_ALIASES });
  } catch (error) {
    throw fail('The OpenAPI document is neither JSON nor YAML', error);
  }
}

/** What a document may cost to read: text bytes, and values once its `$ref`s are resolved. */
export interface DocumentLimits {
  readonly maxBytes: number;
  readonly maxExpandedValues: number;
}

/** RCP_INVALID_OPTIONS when the document expands to more than `max` values (expanded-size.ts), saying where. */
function checkExpansion(document: Json, max: number): void {
  const { values, where } = expandedSize(document, max);
  if (values <= max) return;
  const pointer = where?.pointer.slice(0, 200) || '/';
  const at = where?.ref === undefined ? pointer : `the $ref "${where.ref.slice(0, 120)}" in ${pointer}`;
  throw fail(`The OpenAPI document expands to more than ${max} values once its $refs are resolved (option "maxExpandedValues"), at ${at}`);
}

/**
 * The document from text (JSON or YAML) or an object, as a copy the caller does not share:
 * at most `maxBytes` of text, {@link MAX_DOCUMENT_DEPTH} levels deep and `maxExpandedValues`
 * values once its refs are resolved, else `RcpError` RCP_INVALID_OPTIONS before any recursive
 * step, the validator or the dereferencer has run.
 */
export function readDocument(input: string | object, limits: DocumentLimits): Json {
  const value = typeof input === 'string' ? parseText(input, limits.maxBytes) : input;
  if (valueDepth(value, MAX_DOCUMENT_DEPTH) > MAX_DOCUMENT_DEPTH) throw tooDeep();
  if (!isRecord(value)) throw fail('The OpenAPI document must be an object');
  const document = value as Json;
  if (typeof document['openapi'] !== 'string' && document['swagger'] !== '2.0') {
    throw fail('Not an OpenAPI document: it has neither "openapi" (3.x) nor "swagger": "2.0"');
  }
  checkExpansion(document, limits.maxExpandedValues);
  // validate() and dereference() mutate their input.
  return structuredClone(document);
}
