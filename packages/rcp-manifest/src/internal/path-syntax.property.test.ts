import fc from 'fast-check';
import { query as libraryQuery, type JsonValue } from 'jsonpath-rfc9535';
import parseJsonPath, { type JsonPathQuery } from 'jsonpath-rfc9535/parser';
import { describe, expect, it } from 'vitest';
import { compileResponsePath } from './json-path';
import { parseFilterFreeQuery } from './path-syntax';

/*
 * The SDK's reader of the filter-free RFC 9535 grammar against the library it replaces at load
 * time (issue 26): on any text, it agrees with the library's parser (plus the I-JSON integer rule
 * the SDK adds to it) on valid or invalid, yields the very same AST, and the compiled path
 * selects what the library's query() selects.
 */

type Outcome = { readonly valid: true; readonly ast: JsonPathQuery } | { readonly valid: false };

function isSafe(value: number | null): boolean {
  return value === null || Number.isSafeInteger(value);
}

/** The library's verdict, with the I-JSON integer check rcp-manifest applies to its AST. */
function library(text: string): Outcome {
  let ast: JsonPathQuery;
  try {
    ast = parseJsonPath(text);
  } catch {
    return { valid: false };
  }
  for (const { node } of ast.segments) {
    const selectors = node.type === 'BracketedSelection' ? node.selectors : [];
    for (const selector of selectors) {
      if (selector.type === 'IndexSelector' && !isSafe(selector.value)) return { valid: false };
      if (selector.type === 'SliceSelector' && !(isSafe(selector.start) && isSafe(selector.end) && isSafe(selector.step))) return { valid: false };
    }
  }
  return { valid: true, ast };
}

function checkAgainstLibrary(text: string): void {
  const ours = parseFilterFreeQuery(text);
  if (ours.kind === 'filter') return; // the library parses it (json-path.ts)
  const theirs = library(text);
  expect({ text, valid: ours.kind === 'query' }).toEqual({ text, valid: theirs.valid });
  if (ours.kind === 'query' && theirs.valid) expect(ours.segments).toEqual(theirs.ast.segments);
}

/**
 * jsonpath-rfc9535 1.3 evaluates a slice bound below -length wrongly (`$[-4:]` on a 3-element
 * array gives the last element, RFC 9535 §2.3.4.2.2 all three); the SDK's evaluator follows the
 * RFC (the compliance suite checks slices), so such queries are not compared with the library.
 */
function hasNegativeSliceBound(text: string): boolean {
  const parsed = parseFilterFreeQuery(text);
  if (parsed.kind !== 'query') return false;
  return parsed.segments.some(
    ({ node }) =>
      node.type === 'BracketedSelection' &&
      node.selectors.some((selector) => selector.type === 'SliceSelector' && ((selector.start ?? 0) < 0 || (selector.end ?? 0) < 0)),
  );
}

/** Pieces of the grammar and near misses: blanks, quotes, escapes, surrogates, signs, big integers. */
const piece = fc.constantFrom(
  '.',
  '..',
  '[',
  ']',
  ',',
  ':',
  '*',
  '-',
  '0',
  '1',
  '7',
  '00',
  '-0',
  '9007199254740991',
  '9007199254740992',
  ' ',
  '\t',
  '\n',
  '\u000b',
  "'",
  '"',
  '\\',
  '\\u',
  'D800',
  'dc00',
  '0041',
  'u',
  'b',
  'n',
  '/',
  "\\'",
  '\\"',
  'a',
  'Z',
  '_',
  '9',
  'é',
  '\u{1F600}',
  '\ud800',
  '\u0001',
  '\u007f',
  '\u0080',
  '$',
  '@',
  '?',
  'true',
  '(',
  ')',
);

const name = fc.stringMatching(/^[A-Za-z_é][A-Za-z0-9_]{0,3}$/);
const integer = fc.oneof(fc.integer({ min: -20, max: 20 }), fc.constantFrom(9007199254740991, -9007199254740991, 9007199254740992));
const blank = fc.constantFrom('', ' ', '\t', '\n  ');
const quoted = fc.oneof(
  fc.string({ maxLength: 4 }).map((value) => `'${value.replace(/[\\']/g, (char) => `\\${char}`)}'`),
  fc.string({ maxLength: 4 }).map((value) => JSON.stringify(value)),
  fc.constantFrom(String.raw`'\u00e9'`, String.raw`"\uD83D\uDE00"`, String.raw`'\t'`, String.raw`"\/"`, String.raw`'\uD800'`, String.raw`'\q'`),
);
const slice = fc
  .tuple(
    fc.option(integer, { nil: undefined }),
    blank,
    fc.option(integer, { nil: undefined }),
    fc.option(fc.option(integer, { nil: undefined }), { nil: undefined }),
  )
  .map(([start, space, end, step]) => `${start ?? ''}${space}:${space}${end ?? ''}${step === undefined ? '' : `:${step ?? ''}`}`);
const selector = fc.oneof(quoted, fc.constant('*'), integer.map(String), slice);
const bracketed = fc
  .tuple(blank, fc.array(selector, { minLength: 1, maxLength: 3 }), blank)
  .map(([space, selectors, after]) => `[${space}${selectors.join(`${space},${after}`)}${after}]`);
const segment = fc.oneof(
  name.map((value) => `.${value}`),
  name.map((value) => `..${value}`),
  fc.constantFrom('.*', '..*'),
  bracketed,
  bracketed.map((value) => `..${value}`),
);
/** Mostly valid queries (with blanks between segments), so that the ASTs are compared often. */
const query = fc
  .tuple(fc.array(fc.tuple(blank, segment), { maxLength: 4 }))
  .map(([segments]) => `$${segments.map(([space, value]) => space + value).join('')}`);

describe('the filter-free JSONPath reader against jsonpath-rfc9535 (issue 26)', () => {
  it('agrees with the library on valid queries, to the AST', () => {
    fc.assert(fc.property(query, checkAgainstLibrary), { numRuns: 3000 });
  });

  it('agrees with the library on arbitrary text made of grammar pieces and near misses', () => {
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 8 }).map((pieces) => `$${pieces.join('')}`),
        checkAgainstLibrary,
      ),
      { numRuns: 5000 },
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 8 }), (text) => checkAgainstLibrary(text)),
      { numRuns: 1000 },
    );
  });

  it('selects what the library selects, on any JSON document', () => {
    fc.assert(
      fc.property(query, fc.jsonValue({ maxDepth: 3 }), (text, document) => {
        const compiled = compileResponsePath(`@${text.slice(1)}`);
        if (!compiled.ok || hasNegativeSliceBound(text)) return;
        const ours = compiled.path.select(document);
        const theirs = libraryQuery(document as JsonValue, text);
        // RFC 9535 §2.5.2.2 lets descendant nodelists come in more than one order (each node before
        // its descendants, array elements in order): the SDK walks depth-first, the library does not.
        if (text.includes('..')) expect(ours.map((node) => JSON.stringify(node)).sort()).toEqual(theirs.map((node) => JSON.stringify(node)).sort());
        else expect(ours).toEqual(theirs);
      }),
      { numRuns: 2000 },
    );
  });

  it('hands a filter selector to the library, wherever it is', () => {
    for (const text of ['$[?@.a]', '$.a[ ?@]', "$[0, 'x', ?@.b > 1]", '$..[?@]']) expect(parseFilterFreeQuery(text)).toEqual({ kind: 'filter' });
  });
});
