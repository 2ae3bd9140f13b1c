import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NOTES_TOKEN, SPAWN_TIMEOUT, runNode, sendJson, serveManifest, startNotesApi, toolRequestLines, type TestServer } from 'rcp-test-utils';
import { runRcp as rcp, startInspect, textSink } from './fixtures/run-rcp';

const shim = fileURLToPath(new URL('../bin/rcp.js', import.meta.url));

/*
 * The built `rcp` runs in this process (`runCli`'s options: its streams, environment and folder
 * given), which takes a fraction of a process's time. Names ending in .rcp-test resolve to
 * 127.0.0.1 here (a public-looking manifest host: vitest.config.ts). One test spawns the bin.
 */

let notes: TestServer;
let manifestUrl: string;
let dir: string;
beforeEach(async () => {
  ({ server: notes, manifestUrl } = await startNotesApi());
  dir = mkdtempSync(join(tmpdir(), 'rcp-cli-'));
});
afterEach(async () => {
  await notes.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('rcp describe', () => {
  it('prints describeManifest with resolver marks, and identity warnings on stderr', async () => {
    const plain = await rcp(['describe', manifestUrl]);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain('userId: string, required [warning: looks like an identity');
    expect(plain.stderr).toContain('warning /tools/0/params/0');
    const resolved = await rcp(['describe', manifestUrl, '--resolve', 'userId']);
    expect(resolved.stdout).toContain('userId: string, required [resolved by client, hidden from model] — Whose notes');
    expect(resolved.stderr).toBe('');
  });

  it('--json gives the manifest, the tools with their model-facing schemas, and the warnings', async () => {
    const { code, stdout } = await rcp(['describe', manifestUrl, '--resolve', 'userId', '--json']);
    expect(code).toBe(0);
    const json = JSON.parse(stdout) as { tools: { name: string; inputSchema: { properties: object } }[]; warnings: unknown[] };
    expect(json.tools.map((tool) => tool.name)).toEqual(['list_notes', 'get_note', 'create_note', 'delete_note']);
    expect(Object.keys(json.tools[1]!.inputSchema.properties)).toEqual(['noteId']);
    expect(json.warnings).toEqual([]);
    expect(toolRequestLines(notes)).toEqual([]); // describing sends nothing to the tools
  });
});

describe('rcp lint', () => {
  it('exit 0 when clean; 1 with every issue and its pointer; --json and --format github', async () => {
    expect((await rcp(['lint', manifestUrl])).code).toBe(0);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ rcpVersion: '0.1', tools: [{ name: 'a', description: 'd', method: 'GET', url: '/x/{{id}}', parms: [] }] }));
    const text = await rcp(['lint', bad]);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain('error   /tools/0/url  uses {{id}}, which is not declared in params');
    expect(text.stdout).toContain('warning /tools/0/parms');
    expect(text.stdout).not.toMatch(/\x1b\[/); // no colours off a TTY
    const json = await rcp(['lint', bad, '--json']);
    expect(JSON.parse(json.stdout)).toEqual({
      ok: false,
      errors: [{ path: '/tools/0/url', message: 'uses {{id}}, which is not declared in params' }],
      warnings: [{ path: '/tools/0/parms', message: expect.stringContaining('parms') }],
    });
    const github = await rcp(['lint', bad, '--format', 'github']);
    expect(github.stdout.split('\n')[0]).toBe(`::error file=${bad},title=RCP manifest /tools/0/url::uses {{id}}, which is not declared in params`);
  });

  it('one-line errors: a bad URL, a bad file, an unsupported version; exit 2 for usage', async () => {
    const closed = await rcp(['lint', 'http://127.0.0.1:9/rcp/manifest']);
    expect(closed.code).toBe(1);
    expect(closed.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^rcp: RCP_DISCOVERY_FAILED: /)]);
    const missing = await rcp(['lint', join(dir, 'nope.json')]);
    expect([missing.code, missing.stderr.trim()]).toEqual([1, `rcp: cannot read ${join(dir, 'nope.json')} (ENOENT)`]);
    const version = await rcp(['lint', serveManifest(notes, { rcpVersion: '9', tools: [] }, '/v9')]);
    expect(version.code).toBe(1);
    expect(version.stderr).toMatch(/^rcp: RCP_UNSUPPORTED_VERSION: /);
    expect(version.stderr).not.toMatch(/\n\s+at /); // never a stack trace
    expect((await rcp(['lint'])).code).toBe(2);
    expect((await rcp(['lint', 'a', '--format', 'gitlab'])).code).toBe(2);
    expect((await rcp(['frobnicate'])).code).toBe(2);
  });
});

describe('rcp call', () => {
  const common = ['--ctx', 'userId=u-1', '--token-env', 'NOTES_TOKEN'];
  const env = { NOTES_TOKEN };

  it('--dry-run prints the exact request, the credential redacted, and sends nothing', async () => {
    const { code, stdout } = await rcp(['call', manifestUrl, 'create_note', '--arg', 'title=Call mum', '--arg', 'pinned=true', '--dry-run', ...common], {
      env,
    });
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({
      method: 'POST',
      url: `${notes.origin}/users/u-1/notes`,
      headers: { 'content-type': 'application/json', Authorization: 'Bearer [redacted]' },
      body: { title: 'Call mum', pinned: true },
    });
    expect(stdout).not.toContain(NOTES_TOKEN);
    expect(toolRequestLines(notes)).toEqual([]);
  });

  it('executes and prints the result; the server received the resolver value and the credential', async () => {
    const { code, stdout } = await rcp(['call', manifestUrl, 'get_note', '--args', '{"noteId":"n-1"}', ...common], { env });
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ status: 200, data: { id: 'n-1', title: 'Groceries', text: 'eggs' } });
    expect(toolRequestLines(notes)).toEqual(['GET /users/u-1/notes/n-1']);
    expect(notes.requests.at(-1)!.headers.authorization).toBe(`Bearer ${NOTES_TOKEN}`);
  });

  it('a call that changes data needs a confirmation: refused without a terminal (nothing sent), sent exactly with --yes', async () => {
    const args = ['call', manifestUrl, 'create_note', '--arg', 'title=Call mum', ...common];
    const refused = await rcp(args, { env });
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toBe('rcp: create_note changes data and there is no terminal to confirm it: nothing was sent (pass --yes to send it)');
    expect(toolRequestLines(notes)).toEqual([]);
    const sent = await rcp([...args, '--yes'], { env });
    expect([sent.code, JSON.parse(sent.stdout)]).toEqual([0, { status: 201, data: { id: 'n-2', title: 'Call mum' } }]);
    expect(toolRequestLines(notes)).toEqual(['POST /users/u-1/notes']);
    expect(notes.requests.at(-1)!.json).toEqual({ title: 'Call mum' });
    // A read needs no confirmation.
    expect((await rcp(['call', manifestUrl, 'get_note', '--arg', 'noteId=n-1', ...common], { env })).code).toBe(0);
  });

  it('on a terminal, the request is shown and asked about; an answer but "y" sends nothing', async () => {
    const stdin = Object.assign(new PassThrough(), { isTTY: true });
    stdin.end('n\n');
    const declined = await rcp(['call', manifestUrl, 'create_note', '--arg', 'title=Hi', ...common], { env, stdin });
    expect(declined.code).toBe(1);
    expect(declined.stderr).toContain(`"url": "${notes.origin}/users/u-1/notes"`);
    expect(declined.stderr).toContain('Bearer [redacted]');
    expect(declined.stderr).toContain('Send it? [y/N] ');
    expect(declined.stderr).toContain('rcp: not sent: the call was not confirmed');
    expect(toolRequestLines(notes)).toEqual([]);
  });

  it('on a terminal, nothing is sent before the answer; "y" sends it', async () => {
    const stdin = Object.assign(new PassThrough(), { isTTY: true });
    let sentBeforeAnswer = -1;
    const stderr = textSink(false, (text) => {
      if (sentBeforeAnswer === -1 && text.includes('Send it? [y/N]')) {
        sentBeforeAnswer = toolRequestLines(notes).length; // shown, not sent
        stdin.end('y\n');
      }
    });
    const accepted = await rcp(['call', manifestUrl, 'create_note', '--arg', 'title=Hi', ...common], { env, stdin, stderr });
    expect(sentBeforeAnswer).toBe(0);
    expect(stderr.text).toContain(`"url": "${notes.origin}/users/u-1/notes"`);
    expect(stderr.text).toContain('Bearer [redacted]');
    expect(accepted.stdout).toContain('"status": 201');
    expect(toolRequestLines(notes)).toEqual(['POST /users/u-1/notes']);
  });

  it('an unknown tool and bad --arg syntax are one line; nothing is sent', async () => {
    const unknown = await rcp(['call', manifestUrl, 'list_note', ...common], { env });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.trim()).toBe(
      'rcp: RCP_UNKNOWN_TOOL: Unknown tool "list_note". Did you mean "list_notes"? Available tools: list_notes, get_note, create_note, delete_note.',
    );
    const syntax = await rcp(['call', manifestUrl, 'get_note', '--arg', 'noteId', ...common], { env });
    expect([syntax.code, syntax.stderr.trim()]).toEqual([2, 'rcp: --arg takes key=value, got "noteId" (see rcp call --help)']);
    const spoof = await rcp(['call', manifestUrl, 'get_note', '--arg', 'noteId=n-1', '--arg', 'userId=u-7', ...common], { env });
    expect(spoof.code).toBe(1);
    expect(spoof.stderr).toMatch(/^rcp: RCP_INVALID_ARGUMENTS: .*\/userId is not a parameter of this tool/);
    expect(toolRequestLines(notes)).toEqual([]);
  });
});

describe('--allow-private-network', () => {
  // A manifest from a public name (public.rcp-test resolves to 127.0.0.1 in this test process
  // only) whose tool is on 127.0.0.1: the private-network boundary refuses it (SPEC §12.1) unless
  // the operator lifts it. A manifest file is a local source, so it needs no flag.
  function publicManifest(): string {
    notes.route('GET /ping', (_request, res) => sendJson(res, 200, { pong: true }));
    return serveManifest(
      notes,
      { rcpVersion: '0.1', tools: [{ name: 'ping', description: 'Pings.', method: 'GET', url: `${notes.origin}/ping` }] },
      '/public/manifest',
    ).replace('127.0.0.1', 'public.rcp-test');
  }
  const toolCalls = (): string[] => toolRequestLines(notes).filter((line) => line !== 'GET /public/manifest');
  function localFile(): string {
    const file = join(dir, 'local.json');
    writeFileSync(file, JSON.stringify({ rcpVersion: '0.1', tools: [{ name: 'ping', description: 'Pings.', method: 'GET', url: `${notes.origin}/ping` }] }));
    return file;
  }

  it('call: refused without the flag (one line naming it, nothing sent), sent with it; a local file needs none', async () => {
    const file = publicManifest();
    const refused = await rcp(['call', file, 'ping']);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trimEnd().split('\n')).toEqual([
      expect.stringMatching(
        /^rcp: RCP_ORIGIN_NOT_ALLOWED: Tool "ping": http:\/\/127\.0\.0\.1:\d+ is a loopback address, but .* unless --allow-private-network allows it$/,
      ),
    ]);
    expect(toolCalls()).toEqual([]);
    const allowed = await rcp(['call', file, 'ping', '--allow-private-network']);
    expect([allowed.code, JSON.parse(allowed.stdout)]).toEqual([0, { status: 200, data: { pong: true } }]);
    expect(toolCalls()).toEqual(['GET /ping']);
    const local = await rcp(['call', localFile(), 'ping']);
    expect([local.code, JSON.parse(local.stdout)]).toEqual([0, { status: 200, data: { pong: true } }]);
  });

  it('describe: the warning names the flag, none with it; every command documents it', async () => {
    const file = publicManifest();
    const warned = await rcp(['describe', file]);
    expect(warned.stderr).toMatch(/^warning \/tools\/0: .*unless --allow-private-network allows it/);
    const allowed = await rcp(['describe', file, '--json', '--allow-private-network']);
    expect([allowed.stderr, JSON.parse(allowed.stdout).warnings]).toEqual(['', []]);
    // (rcp mcp --help: the end-to-end tests below)
    for (const command of ['describe', 'lint', 'call', 'inspect']) expect((await rcp([command, '--help'])).stdout).toContain('--allow-private-network');
    expect(toolCalls()).toEqual([]);
  });
});

describe('rcp init, --help, --version', () => {
  it('writes a starter manifest that lints clean once its learner param is resolved, and refuses to overwrite it', async () => {
    const init = await rcp(['init'], { cwd: dir });
    expect([init.code, init.stdout.trim()]).toEqual([0, 'wrote rcp-manifest.json — check it with: rcp lint rcp-manifest.json --resolve learnerId']);
    expect(JSON.parse(readFileSync(join(dir, 'rcp-manifest.json'), 'utf8')).tools).toHaveLength(2);
    const lint = await rcp(['lint', 'rcp-manifest.json', '--json', '--resolve', 'learnerId'], { cwd: dir });
    expect(JSON.parse(lint.stdout)).toEqual({ ok: true, errors: [], warnings: [] });
    // Without it, the identity warning a URL of the same manifest gets (a file is discovered too).
    const unresolved = JSON.parse((await rcp(['lint', 'rcp-manifest.json', '--json'], { cwd: dir })).stdout) as { warnings: { path: string }[] };
    expect(unresolved.warnings.map((warning) => warning.path)).toEqual(['/tools/0/params/0']);
    const again = await rcp(['init'], { cwd: dir });
    expect([again.code, again.stderr.trim()]).toEqual([1, 'rcp: rcp-manifest.json exists; pass --force to overwrite it']);
  });

  it('prints help for each command and the version', async () => {
    expect((await rcp(['--version'])).stdout).toBe('0.1.0\n');
    expect((await rcp(['--help'])).stdout).toContain('Usage: rcp <command>');
    expect((await rcp([])).stdout).toContain('Usage: rcp <command>');
    for (const command of ['describe', 'lint', 'call', 'init']) {
      const { code, stdout } = await rcp([command, '--help']);
      expect([code, stdout.startsWith(`Usage: rcp ${command}`)]).toEqual([0, true]);
    }
  });
});

describe('rcp from-openapi', () => {
  const petstore = fileURLToPath(new URL('../../rcp-openapi/test-data/v3.0-petstore.yaml', import.meta.url));

  it('writes a manifest that lints clean and prints the report summary', async () => {
    const out = join(dir, 'manifest.json');
    const result = await rcp(['from-openapi', petstore, '-o', out, '--exclude', 'op:showPetById']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Swagger Petstore (OpenAPI 3.0.0): 3 operations, 2 imported, 1 skipped');
    expect(result.stdout).toContain('skipped 1: excluded');
    const manifest = JSON.parse(readFileSync(out, 'utf8')) as { rcpVersion: string; tools: { name: string }[] };
    expect(manifest.tools.map((tool) => tool.name)).toEqual(['listPets', 'createPets']);
    expect((await rcp(['lint', out])).code).toBe(0);
  });

  it('without -o prints the manifest on stdout and the summary on stderr; --json puts one JSON document on stdout', async () => {
    const plain = await rcp(['from-openapi', petstore, '--base-url', 'http://127.0.0.1:9/api']);
    expect(plain.code).toBe(0);
    expect((JSON.parse(plain.stdout) as { tools: { url: string }[] }).tools[0]!.url).toBe('http://127.0.0.1:9/api/pets');
    expect(plain.stderr).toContain('3 operations, 3 imported');
    // --json: { manifest, report } on stdout, nothing on stderr.
    const json = await rcp(['from-openapi', petstore, '--base-url', 'http://127.0.0.1:9/api', '--json']);
    expect([json.code, json.stderr]).toEqual([0, '']);
    const both = JSON.parse(json.stdout) as { manifest: { tools: { url: string }[] }; report: { summary: unknown } };
    expect(both.manifest.tools[0]!.url).toBe('http://127.0.0.1:9/api/pets');
    expect(both.report.summary).toEqual({ operations: 3, imported: 3, groups: 1, skipped: {} });
    // With -o the manifest goes to the file and stdout is the report alone.
    const out = join(dir, 'petstore.json');
    const written = await rcp(['from-openapi', petstore, '--json', '-o', out]);
    expect((JSON.parse(written.stdout) as { summary: unknown }).summary).toEqual({ operations: 3, imported: 3, groups: 1, skipped: {} });
    expect((JSON.parse(readFileSync(out, 'utf8')) as { tools: unknown[] }).tools).toHaveLength(3);
  });

  it('--include-deprecated imports the operations a document marks deprecated, which are skipped by default (issue 41)', async () => {
    const document = join(dir, 'deprecated.json');
    writeFileSync(
      document,
      JSON.stringify({
        openapi: '3.0.3',
        info: { title: 'Old and new', version: '1' },
        servers: [{ url: 'http://127.0.0.1:9' }],
        paths: {
          '/items': { get: { operationId: 'listItems', responses: { '200': { description: 'ok' } } } },
          '/legacy': { get: { operationId: 'listLegacy', deprecated: true, responses: { '200': { description: 'ok' } } } },
        },
      }),
    );
    const names = async (...flags: string[]) => {
      const result = await rcp(['from-openapi', document, ...flags]);
      expect(result.code).toBe(0);
      return (JSON.parse(result.stdout) as { tools: { name: string }[] }).tools.map((tool) => tool.name);
    };
    expect(await names()).toEqual(['listItems']);
    expect(await names('--include-deprecated')).toEqual(['listItems', 'listLegacy']);
  });

  it('one-line errors: a missing file (1), bad selector syntax (2), a file that is not OpenAPI (1)', async () => {
    const missing = await rcp(['from-openapi', join(dir, 'nope.yaml')]);
    expect([missing.code, missing.stderr.trim().split('\n').length]).toEqual([1, 1]);
    const selector = await rcp(['from-openapi', petstore, '--include', 'pets']);
    expect(selector.code).toBe(2);
    writeFileSync(join(dir, 'x.yaml'), 'hello: world\n');
    const notOpenApi = await rcp(['from-openapi', join(dir, 'x.yaml')]);
    expect(notOpenApi.code).toBe(1);
    expect(notOpenApi.stderr).toMatch(/^rcp: RCP_INVALID_OPTIONS: Not an OpenAPI document/);
  });
});

describe('colours', () => {
  it('on a terminal the lint report is painted, never with NO_COLOR, never off a terminal', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ rcpVersion: '0.1', tools: [{ name: 'a', description: 'd', method: 'GET', url: '/x/{{id}}' }] }));
    const painted = await rcp(['lint', bad], { terminal: true });
    expect(painted.stdout).toContain('\x1b[31merror  \x1b[39m /tools/0/url');
    expect((await rcp(['lint', bad], { terminal: true, env: { NO_COLOR: '' } })).stdout).not.toMatch(/\x1b\[/);
    expect((await rcp(['lint', bad])).stdout).not.toMatch(/\x1b\[/);
  });
});

/**
 * The packaging: the committed bin shim runs the built CLI in a process of its own (the one spawn
 * of the `rcp` bin: it starts, answers and exits 0, without loading the commands); exit codes,
 * `rcp mcp` and `rcp inspect` stopped by its signal, in this process.
 */
describe('the built bin, end to end', () => {
  it('bin/rcp.js answers --version in its own process, without loading the commands (the client, OAuth)', { timeout: SPAWN_TIMEOUT }, async () => {
    const version = await runNode(['--import', RECORD_LOADS, shim, '--version']);
    expect([version.code, version.stdout]).toEqual([0, '0.1.0\n']);
    // What it loads: the bin, its entry and the small runCli chunk.
    const modules = version.stderr
      .split('\n')
      .filter((line) => line.startsWith('LOAD '))
      .map((line) => line.slice(5));
    expect(modules.some((url) => url.endsWith('/rcp-cli/dist/cli.js'))).toBe(true);
    expect(modules.filter((url) => /rcp-(client|oauth|mcp|manifest)\/|\/commands-/.test(url))).toEqual([]);
    const help = await rcp(['--help']);
    expect([help.code, help.stdout]).toEqual([0, expect.stringContaining('Usage: rcp <command>')]);
  });

  it('exit codes: 1 on errors, 2 on usage errors, each failure one line on stderr', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ rcpVersion: '0.1', tools: [{ name: 'a', description: 'd', method: 'GET', url: '/x/{{id}}' }] }));
    const errors = await rcp(['lint', bad]);
    expect([errors.code, errors.stdout]).toEqual([1, expect.stringContaining('error   /tools/0/url  uses {{id}}')]);
    const usage = await rcp(['frobnicate']);
    expect([usage.code, usage.stderr]).toEqual([2, 'rcp: unknown command "frobnicate" (see rcp --help)\n']);
  });

  it('rcp mcp: its help has the one vocabulary; a usage error is one line, exit 2', async () => {
    const { code, stdout } = await rcp(['mcp', '--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('Usage: rcp mcp <url|file>');
    for (const line of [
      '--ctx param=value       a trusted value for the param, filled by the client',
      '--resolve a,b           params your application fills',
      '--model-filled a,b',
      '--allow-private-network',
      '--trusted-origin ORIGIN',
    ]) {
      expect(stdout).toContain(line);
    }
    expect(stdout).not.toContain('counts as public');
    const bogus = await rcp(['mcp', manifestUrl, '--bogus']);
    expect([bogus.code, bogus.stderr.trim()]).toEqual([2, 'rcp mcp: unknown option --bogus (see rcp mcp --help)']);
  });

  it('rcp inspect serves until its signal aborts, then exits 0', async () => {
    const inspect = await startInspect([manifestUrl, '--resolve', 'userId']);
    expect((await fetch(inspect.url)).status).toBe(200);
    expect((await inspect.stop()).code).toBe(0);
  });
});

// A module hook (in Node's loader thread) that names every file an import loads, on stderr.
const RECORD_LOADS = `data:text/javascript,${encodeURIComponent(
  "import { register } from 'node:module'; register('data:text/javascript,' + encodeURIComponent(\"export async function load(url, context, next) { if (url.startsWith('file:')) process.stderr.write('LOAD ' + url + '\\\\n'); return next(url, context); }\"));",
)}`;
