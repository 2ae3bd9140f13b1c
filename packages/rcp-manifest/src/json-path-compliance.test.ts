import { readFileSync } from 'node:fs';
import { query as libraryQuery, type JsonValue } from 'jsonpath-rfc9535';
import parseJsonPath from 'jsonpath-rfc9535/parser';
import { describe, expect, it } from 'vitest';
import { compileResponsePath } from './internal/json-path';

/*
 * The RFC 9535 JSONPath Compliance Test Suite, run through the response-path compiler.
 * CTS selectors are `$...`; response mappings are written `@...`, so each selector is converted
 * (`$` → `@`) and compiled exactly as a manifest's mapping would be.
 */

interface CtsCase {
  readonly name: string;
  readonly selector: string;
  readonly document?: unknown;
  readonly result?: unknown[];
  readonly results?: unknown[][];
  readonly invalid_selector?: boolean;
}

const suite = JSON.parse(readFileSync(new URL('../../../test/test-utils/fixtures/jsonpath-cts.json', import.meta.url), 'utf8')) as { tests: CtsCase[] };

const cases = suite.tests.filter((test) => test.selector.startsWith('$'));
const validCases = cases.filter((test) => test.invalid_selector !== true);
const invalidCases = cases.filter((test) => test.invalid_selector === true);

/** Valid CTS cases whose match()/search() pattern is not a string literal: refused at load (SPEC §9). */
const DELIBERATELY_REFUSED: readonly string[] = [
  'functions, match, regex from the document',
  'functions, match, non-string second arg',
  'functions, match, arg is a function expression',
  'functions, search, regex from the document',
  'functions, search, non-string second arg',
  'functions, search, arg is a function expression',
];

function matches(actual: unknown[], test: CtsCase): boolean {
  const expected = test.result !== undefined ? [test.result] : (test.results ?? []);
  return expected.some((candidate) => JSON.stringify(candidate) === JSON.stringify(actual));
}

function ours(test: CtsCase): unknown[] {
  const compiled = compileResponsePath(`@${test.selector.slice(1)}`);
  if (!compiled.ok) throw new Error(compiled.message);
  return compiled.path.select(test.document);
}

function theirs(test: CtsCase): unknown[] {
  return libraryQuery(test.document as JsonValue, test.selector);
}

function passCount(run: (test: CtsCase) => unknown[]): { passed: number; failed: string[] } {
  let passed = 0;
  const failed: string[] = [];
  for (const test of validCases) {
    try {
      if (matches(run(test), test)) passed++;
      else failed.push(test.name);
    } catch {
      failed.push(test.name);
    }
  }
  return { passed, failed };
}

describe('RFC 9535 compliance suite', () => {
  it('has the expected shape', () => {
    expect(cases.length).toBeGreaterThan(600);
    expect(validCases.length).toBeGreaterThan(400);
    expect(invalidCases.length).toBeGreaterThan(200);
  });

  it('passes at least as many valid cases as the library itself', () => {
    const mine = passCount(ours);
    const library = passCount(theirs);
    // Recorded for the report: printed when run with --reporter=verbose.
    console.info(
      `CTS: ${validCases.length} valid cases — rcp-manifest ${mine.passed} pass, jsonpath-rfc9535 query() ${library.passed} pass; ` +
        `${invalidCases.length} invalid cases. Failing here: ${mine.failed.join(' | ') || 'none'}`,
    );
    // Refused on purpose (SPEC §9): a match()/search() pattern must be a safe string literal.
    const refused = validCases.filter((test) => DELIBERATELY_REFUSED.includes(test.name));
    expect(refused.map((test) => test.name).sort()).toEqual([...DELIBERATELY_REFUSED].sort());
    for (const test of refused) expect(compileResponsePath(`@${test.selector.slice(1)}`).ok, test.name).toBe(false);
    expect(mine.passed + refused.length).toBeGreaterThanOrEqual(library.passed);
  });

  it('rejects every invalid selector at parse time', () => {
    const accepted = invalidCases.filter((test) => compileResponsePath(`@${test.selector.slice(1)}`).ok);
    const parserAlone = invalidCases.filter((test) => {
      try {
        parseJsonPath(test.selector);
        return false;
      } catch {
        return true;
      }
    }).length;
    console.info(
      `CTS invalid selectors: rcp-manifest rejects ${invalidCases.length - accepted.length}/${invalidCases.length} at compile time; ` +
        `the jsonpath-rfc9535 parser alone rejects ${parserAlone}/${invalidCases.length}.`,
    );
    expect(accepted.map((test) => test.selector)).toEqual([]);
  });
});
