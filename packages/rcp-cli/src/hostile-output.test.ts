import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serveManifest, startTestServer, type TestServer } from 'rcp-test-utils';
import { runRcp as rcp } from './fixtures/run-rcp';

/**
 * Issue 27, item 3: text from a server or a document never drives the terminal or the CI log.
 * The built `rcp` (in this process, its output captured) runs against hostile manifests, a hostile reason phrase and a hostile OpenAPI
 * document; its raw stdout and stderr are checked byte by byte.
 */

/** What no output may carry raw: C0 but LF, DEL, C1, the Unicode line breaks and bidi controls. */
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
/** Retitles the terminal, clears the line and writes a forged line, then a forged annotation. */
const ATTACK = '\x1b]0;owned\x07\x1b[2K\rwarning: all clear\n::error::forged\n::add-mask::x,file=evil.ts';

function expectClean(output: string): void {
  expect(output).not.toMatch(RAW_CONTROL);
  expect(output).not.toContain('\u00c2\u009b'); // no C1 smuggled in as Latin-1 either
  for (const line of output.split('\n')) {
    expect(line).not.toMatch(/^warning: all clear/);
    expect(line).not.toMatch(/^::(error|add-mask|stop-commands)::/);
  }
}

let api: TestServer;
let dir: string;
beforeEach(async () => {
  api = await startTestServer();
  dir = mkdtempSync(join(tmpdir(), 'rcp-hostile-'));
});
afterEach(async () => {
  await api.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A manifest whose unknown field names and descriptions carry the attack. */
function hostileManifest(): Record<string, unknown> {
  return {
    rcpVersion: '0.1',
    [`x${ATTACK}`]: true,
    tools: [
      {
        name: 'get_thing',
        description: `Gets a thing${ATTACK}\u202e\u009b31m`,
        method: 'GET',
        url: `${api.origin}/thing`,
        [`note${ATTACK}`]: 1,
      },
    ],
  };
}

describe('hostile manifests', () => {
  it('rcp describe: warnings name the fields, escaped; nothing raw, no forged line', async () => {
    const url = serveManifest(api, hostileManifest());
    const result = await rcp(['describe', url]);
    expect(result.code).toBe(0);
    expectClean(result.stdout);
    expectClean(result.stderr);
    expect(result.stderr).toContain('\\x1b]0;owned\\x07\\x1b[2K\\x0dwarning: all clear\\x0a::error::forged');
    // describeManifest blanks what it quotes (rcp-errors' blankUnsafeText): the bidi override is a space, not a marker.
    expect(result.stdout).toContain('- get_thing (GET) — Gets a thing ]0;owned  [2K warning: all clear');
    expect(result.stdout).toMatch(/::add-mask::x,file=evil\.ts {2}31m\n$/);
    const json = await rcp(['describe', url, '--json']);
    expect(json.stdout).not.toMatch(RAW_CONTROL);
    const parsed = JSON.parse(json.stdout) as { manifest: { tools: { description: string }[] } };
    expect(parsed.manifest.tools[0]!.description).toBe(`Gets a thing${ATTACK}\u202e\u009b31m`); // the same value, escaped as JSON
  });

  it('rcp lint, text and --json: one line per issue, nothing raw', async () => {
    const url = serveManifest(api, hostileManifest());
    const text = await rcp(['lint', url]);
    expectClean(text.stdout);
    const lines = text.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(3); // two warnings and the summary: no forged line
    for (const line of lines) expect(line).toMatch(/^(warning |✓ )/);
    const json = await rcp(['lint', url, '--json']);
    expect(json.stdout).not.toMatch(RAW_CONTROL);
    expect((JSON.parse(json.stdout) as { warnings: unknown[] }).warnings).toHaveLength(2);
  });

  it('rcp lint --format github: a field name can inject no command and no property', async () => {
    const file = join(dir, 'bad,name.json');
    writeFileSync(file, JSON.stringify({ ...hostileManifest(), tools: [{ ...(hostileManifest().tools as object[])[0], url: '/x/{{id}}' }] }));
    const result = await rcp(['lint', file, '--format', 'github']);
    expect(result.code).toBe(1);
    expectClean(result.stdout);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(3); // the error and the two warnings
    // Properties hold no ":" or "," of their own (file= and title= only); the message is the rest.
    for (const line of lines) expect(line).toMatch(/^::(error|warning) file=[^:,]+,title=[^:,]+::[^\n]*$/);
    expect(lines.find((line) => line.includes('/tools/0/note'))).toContain(
      'title=RCP manifest /tools/0/note\\x1b]0;owned\\x07\\x1b[2K%0Dwarning%3A all clear%0A%3A%3Aerror%3A%3Aforged%0A%3A%3Aadd-mask%3A%3Ax%2Cfile=evil.ts::',
    );
    expect(lines[0]).toContain(`file=${file.replace(',', '%2C')},`);
  });
});

/** A tool server that answers 500 with a hostile reason phrase (node:http would refuse to write one). */
async function hostileReasonServer(): Promise<{ url: string; requests: number; close(): Promise<void> }> {
  const state = { requests: 0 };
  const server: Server = createServer((socket) => {
    socket.once('data', () => {
      state.requests += 1;
      const reason = Buffer.concat([Buffer.from('Oops \x1b]0;owned\x07 '), Buffer.from('\u009b2J', 'utf8'), Buffer.from('\x1b[2K')]);
      socket.end(Buffer.concat([Buffer.from('HTTP/1.1 500 '), reason, Buffer.from('\r\ncontent-length: 0\r\nconnection: close\r\n\r\n')]));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/boom`,
    get requests() {
      return state.requests;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('a hostile HTTP reason phrase', () => {
  it('rcp call prints the error on one line, the reason phrase escaped', async () => {
    const tool = await hostileReasonServer();
    try {
      const url = serveManifest(api, { rcpVersion: '0.1', tools: [{ name: 'boom', description: 'Fails.', method: 'GET', url: tool.url }] });
      const result = await rcp(['call', url, 'boom']);
      expect(tool.requests).toBeGreaterThan(0); // a 500 is retried
      expect(result.code).toBe(1);
      expectClean(result.stderr);
      expect(result.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/^rcp: RCP_HTTP_ERROR: .*500 Oops \\x1b\]0;owned\\x07 \\x9b2J\\x1b\[2K/)]);
    } finally {
      await tool.close();
    }
  });
});

describe('a hostile OpenAPI document', () => {
  it('rcp from-openapi: the summary and the manifest carry the title and names escaped', async () => {
    const file = join(dir, 'hostile.json');
    const document = {
      openapi: '3.0.3',
      info: { title: `Pets${ATTACK}\u202e`, version: '1' },
      servers: [{ url: 'http://127.0.0.1:9/api' }],
      paths: {
        '/pets': {
          get: {
            operationId: 'listPets',
            summary: `List pets${ATTACK}`,
            parameters: [{ name: `q${ATTACK}`, in: 'query', schema: { type: 'string' } }],
            responses: { '200': { description: 'ok' } },
          },
        },
      },
    };
    writeFileSync(file, JSON.stringify(document));
    const result = await rcp(['from-openapi', file]);
    expect(result.code).toBe(0);
    expectClean(result.stdout);
    expectClean(result.stderr);
    expect(result.stderr.split('\n')[0]).toMatch(/^Pets\\x1b\]0;owned\\x07\\x1b\[2K\\x0dwarning: all clear\\x0a::error::forged/);
    JSON.parse(result.stdout); // the manifest, still JSON
    const out = join(dir, 'manifest.json');
    const written = await rcp(['from-openapi', file, '-o', out]);
    expectClean(written.stdout);
    const report = await rcp(['from-openapi', file, '--json']);
    expectClean(report.stdout);
    expect((JSON.parse(report.stdout) as { report: { title: string } }).report.title).toBe(`Pets${ATTACK}\u202e`);
  });
});
