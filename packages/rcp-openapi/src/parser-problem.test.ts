/**
 * No local path in any error of rcp-openapi (issue 38): a `$ref` chain too deep was refused, but
 * the error's cause was the dereferencer's, which named the process's working directory
 * (`… exceeded at /home/me/app/#/components/schemas/S500`) and carried it and its stack in own
 * fields that `JSON.stringify` shows. Every error below is walked down its cause chain, each link
 * stringified every way an application or a log shows it.
 */
import { homedir, tmpdir } from 'node:os';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isRcpError } from 'rcp-manifest';
import { fromOpenApi } from './index';
import { parserProblem, validatorWarning } from './parser-problem';

type Json = Record<string, unknown>;

/** Paths of this machine an error could name: the working directory (the dereferencer's base), this package, home, temp. */
const LOCAL_PATHS = [process.cwd(), dirname(fileURLToPath(import.meta.url)), homedir(), tmpdir()].filter((path) => path.length > 1);

/** Everything an error shows, down its cause chain: messages, `String()` and `JSON.stringify()` of each link. */
function shownText(error: unknown): string {
  const parts: string[] = [];
  let link: unknown = error;
  for (let depth = 0; link !== undefined && link !== null && depth < 8; depth++) {
    parts.push(String(link), JSON.stringify(link) ?? '');
    if (link instanceof Error) parts.push(link.message);
    link = (link as { cause?: unknown }).cause;
  }
  return parts.join('\n');
}

const operation = (schema: Json) => ({
  '/a': { get: { operationId: 'a', parameters: [{ name: 'q', in: 'query', schema }], responses: { '200': { description: 'ok' } } } },
});
const doc = (paths: Json, extra: Json = {}): Json => ({
  openapi: '3.0.3',
  info: { title: 'T', version: '1' },
  servers: [{ url: 'https://api.example.com' }],
  paths,
  ...extra,
});

/** 3,000 schemas, each a `$ref` to the next: deeper than the dereferencer's 500 levels. */
function refChain(length: number): Json {
  const schemas: Json = {};
  for (let i = 0; i < length; i++) schemas[`S${i}`] = { $ref: `#/components/schemas/S${i + 1}` };
  schemas[`S${length}`] = { type: 'string' };
  return doc(operation({ $ref: '#/components/schemas/S0' }), { components: { schemas } });
}

async function refusal(input: string | object, options: Parameters<typeof fromOpenApi>[1] = {}): Promise<unknown> {
  try {
    await fromOpenApi(input, options);
  } catch (error) {
    return error;
  }
  throw new Error('imported');
}

describe('no local path in any error of rcp-openapi', () => {
  it('a $ref chain too deep: the error says what and where, and neither it nor a cause names the working directory', async () => {
    const error = await refusal(refChain(3_000));
    expect(isRcpError(error, 'RCP_INVALID_OPTIONS')).toBe(true);
    expect((error as Error).message).toBe(
      'The OpenAPI document could not be dereferenced: a chain of $refs deeper than 500 levels, at "#/components/schemas/S500"',
    );
    const shown = shownText(error);
    for (const path of LOCAL_PATHS) expect(shown).not.toContain(path);
    expect(shown).not.toContain('file://');
  });

  const documents: [string, string | Json, Parameters<typeof fromOpenApi>[1]?][] = [
    ['a $ref to nothing', doc(operation({ $ref: '#/components/schemas/Nope' }))],
    ['a $ref that is not a pointer', doc(operation({ $ref: '#components' }))],
    ['a $ref to another file (never read)', doc(operation({ $ref: './secret.yaml#/X' }))],
    ['text that is neither JSON nor YAML', '{"openapi": "3.0.3", : ]'],
    ['YAML with a bad indentation', 'openapi: 3.0.3\ninfo:\n  title: T\n version: 1\n'],
    ['a document too large', JSON.stringify(doc({}, { 'x-pad': 'x'.repeat(2_000) })), { maxBytes: 1_000 }],
    ['a document that expands too much', refChain(200), { maxExpandedValues: 100 }],
    ['not an OpenAPI document', { title: 'nothing' }],
    ['a server URL that is not a URL', doc(operation({ type: 'string' }), { servers: [{ url: 'http://[not a host' }] })],
  ];
  it.each(documents)('%s: no local path in the error or its causes, nor in the report', async (_what, input, options = {}) => {
    let shown: string;
    try {
      const { report } = await fromOpenApi(input, options);
      shown = JSON.stringify(report);
    } catch (error) {
      expect(isRcpError(error, 'RCP_INVALID_OPTIONS')).toBe(true);
      shown = shownText(error);
    }
    for (const path of LOCAL_PATHS) expect(shown).not.toContain(path);
    expect(shown).not.toContain('file://');
  });
});

describe('the parser told in our own words', () => {
  it('names the kind of failure and the document pointers, never the library text', () => {
    expect(parserProblem(new RangeError('Maximum dereference depth (500) exceeded at /srv/app/#/components/schemas/S9. This likely …'))).toBe(
      'a chain of $refs deeper than 500 levels, at "#/components/schemas/S9"',
    );
    expect(parserProblem(Object.assign(new Error('at /srv/app/'), { code: 'EMISSINGPOINTER', targetRef: '#/x', parentPath: '#/paths/~1a' }))).toBe(
      'the $ref "#/x" points to nothing in the document, at "#/paths/~1a"',
    );
    expect(parserProblem(Object.assign(new Error('/srv/app/'), { code: 'ERESOLVER' }))).toBe('the parser failed (ERESOLVER)');
    expect(parserProblem(new Error('/srv/app/'))).toBe('the parser failed');
    expect(parserProblem(new RangeError('Maximum call stack size exceeded'))).toBe('it is too deeply nested to resolve');
    expect(validatorWarning('Token "x" does not exist at /srv/app/#/paths/~1a\nmore')).toBe('Token "x" does not exist at #/paths/~1a');
    expect(validatorWarning('bad $ref "file:///C:/app/doc.yaml#/x"')).toBe('bad $ref "#/x"');
  });
});
