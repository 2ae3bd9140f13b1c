import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NOTES_TOKEN, notesManifest, sendJson, startNotesApi, toolRequestLines, type TestServer } from 'rcp-test-utils';
import { runRcp, startInspect, type InspectRun } from './fixtures/run-rcp';

/**
 * Issue 20, item 5: one CLI vocabulary. The built `rcp` (in this process, its output captured)
 * against the notes API on 127.0.0.1 whose log says what reached it. `rcp mcp`'s flags and
 * usage errors: cli.test.ts (the gateway runs in its own process).
 */
const rcp = (args: string[], env: Record<string, string> = {}) => runRcp(args, { env });

let notes: TestServer;
let manifestUrl: string;
let dir: string;
const inspectors: InspectRun[] = [];
beforeEach(async () => {
  ({ server: notes, manifestUrl } = await startNotesApi());
  dir = mkdtempSync(join(tmpdir(), 'rcp-vocabulary-'));
});
afterEach(async () => {
  await Promise.all(inspectors.splice(0).map((inspector) => inspector.stop()));
  await notes.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The notes manifest as a local file, its tools on the notes API's own (absolute) URLs. */
function notesFile(): string {
  const file = join(dir, 'notes.rcp.json');
  const tools = notesManifest.tools.map((tool) => ({ ...tool, url: `${notes.origin}${tool.url}` }));
  writeFileSync(file, JSON.stringify({ ...notesManifest, tools }));
  return file;
}

/** The notes manifest as a file exactly as the URL serves it (relative tool URLs). */
function sameManifestFile(): string {
  const file = join(dir, 'same.rcp.json');
  writeFileSync(file, JSON.stringify(notesManifest));
  return file;
}

const env = { NOTES_TOKEN };

describe('a manifest file is a local source', () => {
  it('describe: a tool on 127.0.0.1 is not refused, and nothing says the file came from a public address', async () => {
    const file = notesFile();
    const described = await rcp(['describe', file, '--json', '--ctx', 'userId=u-1']);
    expect(described.code).toBe(0);
    const { warnings } = JSON.parse(described.stdout) as { warnings: { message: string }[] };
    // Not the boundary: only trust speaks (the file has no origin of its own to trust).
    expect(warnings.map((warning) => warning.message)).toEqual(
      notesManifest.tools.map((tool) => expect.stringContaining(`Tool "${tool.name}" would send a credential and resolver values to ${notes.origin}`)),
    );
    expect(described.stdout).not.toContain('public address');
    expect(described.stdout).not.toContain('loopback');
    const text = await rcp(['describe', file, '--ctx', 'userId=u-1']);
    expect(text.stderr).toContain(`(pass --trusted-origin ${notes.origin} if it should be)`);
    expect(text.stderr).not.toContain('trustedOrigins');
    expect(toolRequestLines(notes)).toEqual([]);
  });

  it('call: with --trusted-origin the 127.0.0.1 API gets the call, its --ctx value and its credential; without, nothing is sent', async () => {
    const file = notesFile();
    const refused = await rcp(['call', file, 'get_note', '--arg', 'noteId=n-1', '--ctx', 'userId=u-1', '--token-env', 'NOTES_TOKEN'], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toMatch(/^rcp: RCP_ORIGIN_NOT_ALLOWED: .*pass --trusted-origin http:\/\/127\.0\.0\.1:\d+ if it should be/);
    expect(toolRequestLines(notes)).toEqual([]);
    const sent = await rcp(
      ['call', file, 'get_note', '--arg', 'noteId=n-1', '--ctx', 'userId=u-1', '--token-env', 'NOTES_TOKEN', '--trusted-origin', notes.origin],
      env,
    );
    expect([sent.code, JSON.parse(sent.stdout)]).toEqual([0, { status: 200, data: { id: 'n-1', title: 'Groceries', text: 'eggs' } }]);
    expect(toolRequestLines(notes)).toEqual(['GET /users/u-1/notes/n-1']);
    expect(notes.requests.at(-1)!.headers.authorization).toBe(`Bearer ${NOTES_TOKEN}`);
  });

  it('--allow-private-network and --trusted-origin are on every command that discovers or calls', async () => {
    for (const command of ['describe', 'lint', 'call', 'inspect']) {
      const { stdout } = await rcp([command, '--help']);
      expect(stdout).toContain('--allow-private-network');
      expect(stdout).toContain('--trusted-origin ORIGIN');
      expect(stdout).not.toContain('counts as public');
    }
  });
});

describe('rcp lint judges a file as its URL', () => {
  it('the same warnings for the same manifest by URL and by file; --resolve binds params as describe does', async () => {
    const file = sameManifestFile();
    const byUrl = await rcp(['lint', manifestUrl, '--json']);
    const byFile = await rcp(['lint', file, '--json']);
    const urlReport = JSON.parse(byUrl.stdout) as { ok: boolean; warnings: { path: string; message: string }[] };
    expect(urlReport.warnings.map((warning) => warning.path)).toEqual(['/tools/0/params/0', '/tools/1/params/0', '/tools/2/params/0', '/tools/3/params/0']);
    expect(JSON.parse(byFile.stdout)).toEqual(urlReport);
    for (const source of [manifestUrl, file]) {
      const resolved = await rcp(['lint', source, '--json', '--resolve', 'userId']);
      expect([resolved.code, JSON.parse(resolved.stdout)]).toEqual([0, { ok: true, errors: [], warnings: [] }]);
    }
    const text = await rcp(['lint', file]);
    expect(text.stdout).toContain(`${file}: 0 error(s), 4 warning(s)`);
    expect(text.stderr).toContain(
      'hint: bind "userId" with --ctx userId=VALUE (or --resolve userId), or pass --model-filled userId if the model may choose it',
    );
    expect(toolRequestLines(notes)).toEqual([]);
  });

  it('a near-miss --resolve is an error at its param (exit 1); a name that fills no param is a usage error (exit 2)', async () => {
    const near = await rcp(['lint', manifestUrl, '--resolve', 'userID', '--json']);
    expect(near.code).toBe(1);
    expect(JSON.parse(near.stdout)).toEqual({
      ok: false,
      errors: [{ path: '/tools/0/params/0', message: expect.stringContaining('"userID" (--ctx / --resolve) nearly matches param "userId"') }],
      warnings: [],
    });
    const none = await rcp(['lint', manifestUrl, '--resolve', 'user']);
    expect(none.code).toBe(2);
    expect(none.stderr.trim()).toBe(
      'rcp: --resolve "user" fills no param of the tools; their params are "userId", "tag", "noteId", "title", "text", "pinned" (see rcp lint --help)',
    );
  });
});

describe('one meaning of --ctx and --resolve', () => {
  const ctxLine = '--ctx param=value       a trusted value for the param, filled by the client';
  const resolveLine = '--resolve a,b           params your application fills';

  it('every command documents the same flags', async () => {
    for (const command of ['describe', 'lint', 'call', 'inspect']) {
      const { stdout } = await rcp([command, '--help']);
      expect(stdout).toContain(ctxLine);
      expect(stdout).toContain(resolveLine);
      expect(stdout).toContain('--model-filled a,b');
    }
  });

  it('call: --ctx userId=u-1 fills the param userId; --resolve userId alone has no value and sends nothing; the old param=ctxKey form is refused', async () => {
    const sent = await rcp(['call', manifestUrl, 'get_note', '--arg', 'noteId=n-1', '--ctx', 'userId=u-1', '--token-env', 'NOTES_TOKEN'], env);
    expect(sent.code).toBe(0);
    expect(toolRequestLines(notes)).toEqual(['GET /users/u-1/notes/n-1']);
    notes.reset();
    const unresolved = await rcp(['call', manifestUrl, 'get_note', '--arg', 'noteId=n-1', '--resolve', 'userId', '--token-env', 'NOTES_TOKEN'], env);
    expect(unresolved.code).toBe(1);
    expect(unresolved.stderr.trim()).toMatch(/^rcp: RCP_UNRESOLVED: .*\(give its value with --ctx userId=VALUE\)$/);
    const old = await rcp(['call', manifestUrl, 'get_note', '--resolve', 'userId=user', '--ctx', 'user=u-1'], env);
    expect([old.code, old.stderr.trim()]).toEqual([
      2,
      "rcp: --resolve takes param names (--resolve userId); give the param's value with --ctx userId=VALUE (see rcp call --help)",
    ]);
    const unrelated = await rcp(['call', manifestUrl, 'get_note', '--arg', 'noteId=n-1', '--ctx', 'user=u-1'], env);
    expect(unrelated.code).toBe(2);
    expect(unrelated.stderr).toContain('rcp: --ctx "user" fills no param of the tools');
    expect(toolRequestLines(notes)).toEqual([]);
  });

  it('describe: --ctx hides the param exactly as --resolve does', async () => {
    const byCtx = await rcp(['describe', manifestUrl, '--ctx', 'userId=u-1']);
    const byResolve = await rcp(['describe', manifestUrl, '--resolve', 'userId']);
    expect(byCtx.stdout).toContain('userId: string, required [resolved by client, hidden from model]');
    expect(byCtx).toEqual(byResolve);
    expect(byCtx.stdout).not.toContain('u-1');
  });

  it('inspect: --ctx binds the param in the process: the page sees it hidden, and its call carries the value', async () => {
    const inspector = await startInspect([manifestUrl, '--ctx', 'userId=u-1', '--token-env', 'NOTES_TOKEN'], { env });
    inspectors.push(inspector);
    const pageUrl = inspector.url;
    const page = await (await fetch(pageUrl)).text();
    const session = /name="rcp-session" content="([^"]+)"/.exec(page)![1]!;
    const headers = { 'x-rcp-session': session, 'content-type': 'application/json' };
    const manifest = (await (await fetch(new URL('/api/manifest', pageUrl), { headers })).json()) as {
      tools: { name: string; params: { name: string; resolved: boolean }[]; inputSchema: { properties: object } }[];
      warnings: unknown[];
    };
    expect(manifest.tools[1]!.params.find((param) => param.name === 'userId')!.resolved).toBe(true);
    expect(Object.keys(manifest.tools[1]!.inputSchema.properties)).toEqual(['noteId']);
    expect(manifest.warnings).toEqual([]);
    expect(JSON.stringify(manifest)).not.toContain('u-1');
    const call = (await (
      await fetch(new URL('/api/call', pageUrl), { method: 'POST', headers, body: JSON.stringify({ tool: 'get_note', args: { noteId: 'n-1' } }) })
    ).json()) as { result: { status: number } };
    expect(call.result.status).toBe(200);
    expect(toolRequestLines(notes)).toEqual(['GET /users/u-1/notes/n-1']);
  });

  it('inspect refuses a flag that fills no param before the page starts', async () => {
    const { code, stderr } = await rcp(['inspect', manifestUrl, '--ctx', 'user=u-1']);
    expect(code).toBe(2);
    expect(stderr.trim()).toMatch(/^rcp: --ctx "user" fills no param of the tools; .* \(see rcp inspect --help\)$/);
  });
});

describe("usage errors in the CLI's own words", () => {
  it("an unknown option, a missing value, a value given to a switch: one line pointing at the command's --help", async () => {
    const cases: [string[], string][] = [
      [['lint', manifestUrl, '--jsn'], 'rcp: unknown option --jsn (see rcp lint --help)'],
      [['describe', manifestUrl, '-x'], 'rcp: unknown option -x (see rcp describe --help)'],
      [['call', manifestUrl, 'get_note', '--ctx'], 'rcp: --ctx needs a value (see rcp call --help)'],
      [['inspect', manifestUrl, '--port'], 'rcp: --port needs a value (see rcp inspect --help)'],
      [['lint', manifestUrl, '--json=yes'], 'rcp: --json takes no value (see rcp lint --help)'],
      [['from-openapi', 'x.yaml', '--bogus'], 'rcp: unknown option --bogus (see rcp from-openapi --help)'],
      [['init', '--frobnicate'], 'rcp: unknown option --frobnicate (see rcp init --help)'],
      [['describe'], 'rcp: describe takes one <url|file> (see rcp describe --help)'],
      [['frobnicate'], 'rcp: unknown command "frobnicate" (see rcp --help)'],
    ];
    for (const [args, line] of cases) {
      const { code, stderr } = await rcp(args);
      expect([code, stderr.trim()]).toEqual([2, line]);
      expect(stderr).not.toContain('To specify a positional argument');
    }
    expect(toolRequestLines(notes)).toEqual([]);
  });

  it('--args with broken JSON says it is not valid JSON, and where; a JSON non-object says what it got; nothing is sent', async () => {
    const broken = await rcp(['call', manifestUrl, 'get_note', '--args', '{"noteId": n-1}', '--ctx', 'userId=u-1']);
    expect(broken.code).toBe(2);
    expect(broken.stderr.trim()).toMatch(/^rcp: --args is not valid JSON: .* at position 12 \(see rcp call --help\)$/);
    expect(broken.stderr).not.toContain('must be a JSON object');
    const array = await rcp(['call', manifestUrl, 'get_note', '--args', '["n-1"]', '--ctx', 'userId=u-1']);
    expect([array.code, array.stderr.trim()]).toEqual([2, 'rcp: --args must be a JSON object ({"key": value}), got array (see rcp call --help)']);
    expect(toolRequestLines(notes)).toEqual([]);
  });

  it('--arg values take the param\'s type: a string param keeps "007" as written, a boolean takes JSON', async () => {
    notes.route('POST /users/u-1/notes', (request, res) => sendJson(res, 201, request.json));
    const { code, stdout } = await rcp(
      ['call', manifestUrl, 'create_note', '--arg', 'title=007', '--arg', 'pinned=true', '--ctx', 'userId=u-1', '--token-env', 'NOTES_TOKEN', '--yes'],
      env,
    );
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ status: 201, data: { title: '007', pinned: true } });
    expect(notes.requests.at(-1)!.json).toEqual({ title: '007', pinned: true });
  });
});

describe('failures the person reads', () => {
  it("an HTTP error shows the server's reason, escaped", async () => {
    notes.route('GET /users/u-1/notes/n-9', (_request, res) => {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('no note n-9 for this user\u001b[2J');
    });
    const { code, stderr } = await rcp(['call', manifestUrl, 'get_note', '--arg', 'noteId=n-9', '--ctx', 'userId=u-1', '--token-env', 'NOTES_TOKEN'], env);
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toEqual([
      // The client redacts the --ctx value from the URL; the server's text is shown, its ESC escaped.
      `rcp: RCP_HTTP_ERROR: Request failed with status 404 Not Found: GET ${notes.origin}/users/[redacted]/notes/n-9 — the server said: no note n-9 for this user\\x1b[2J`,
    ]);
    expect(stderr).not.toContain('\u001b');
  });

  it('a missing credential names --token-env and --oauth-env, not a library option; nothing is sent', async () => {
    for (const extra of [[], ['--dry-run']]) {
      const { code, stderr } = await rcp(['call', manifestUrl, 'get_note', '--arg', 'noteId=n-1', '--ctx', 'userId=u-1', ...extra]);
      expect(code).toBe(1);
      expect(stderr.trim()).toBe(
        'rcp: RCP_MISSING_CREDENTIALS: Tool "get_note" needs a credential (header "Authorization"): give it with --token-env NAME (the environment variable that holds it) or --oauth-env PREFIX (OAuth 2 client credentials)',
      );
    }
    expect(toolRequestLines(notes)).toEqual([]);
  });
});
