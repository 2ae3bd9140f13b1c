import { spawn } from 'node:child_process';
import { Writable } from 'node:stream';
import { SPAWN_TIMEOUT, readmeBlock } from 'rcp-test-utils';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ServerLogEntry } from './learning-platform';
import { runDemo } from './run-demo';

/**
 * End-to-end: the demo's command line (`runDemo`, what the bin runs) in this process, its output
 * captured, as `pnpm demo` runs it; the BUILT bin (`dist/cli.js`, built by `pnpm test` / the global
 * setup) is spawned once, for `--serve` and SIGTERM. Only loopback servers are contacted.
 */

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A stream that keeps what is written to it. */
function sink(): Writable & { text: string } {
  const stream = Object.assign(
    new Writable({
      write(chunk: Buffer | string, _encoding, done) {
        stream.text += chunk.toString();
        done();
      },
    }),
    { text: '' },
  );
  return stream;
}

/** Runs the demo's command line in this process with only the given environment (no colour unless asked). */
async function runCli(args: string[], env: Record<string, string | undefined> = {}): Promise<Run> {
  const stdout = sink();
  const stderr = sink();
  const code = await runDemo(args, { stdout, stderr, env: { NO_COLOR: '1', ...env } });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

/** The --json output carries the server log entries as the server records them. */
type LogEntry = ServerLogEntry;

interface CallRecord {
  call: { name: string; arguments: string };
  stage: string;
  requests?: LogEntry[];
  prepared?: { method: string; url: string; headers: Record<string, string>; body?: unknown };
  result: { ok: true; data: unknown } | { ok: false; error: { code: string; message: string } };
}

type Section = { id: string; [key: string]: any };

function section(report: { sections: Section[] }, id: string): Section {
  const found = report.sections.find((candidate) => candidate.id === id);
  if (!found) throw new Error(`no ${id} section`);
  return found;
}

describe('pnpm demo (embedded)', () => {
  // One run for the two tests that read the plain output (it used to run once for each). The whole demo runs in this
  // hook (a server, 4 calls, 7 attacks): a few seconds alone, past the 60 s hook limit once at load 24 on 2 cores.
  let plain: Run;
  beforeAll(async () => {
    plain = await runCli([]);
  }, SPAWN_TIMEOUT);

  it("prints exactly what the root README shows (the server's port shown as 40123)", () => {
    const { code, stdout } = plain;
    expect(code).toBe(0);
    const shown = readmeBlock(fileURLToPath(new URL('../../../README.md', import.meta.url)), 'output:demo');
    expect(stdout.replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:40123')).toBe(shown);
  });

  it('prints every section, the summary, and exits 0', () => {
    const { code, stdout, stderr } = plain;
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).not.toMatch(/\u001b\[/);
    const headings = [...stdout.matchAll(/^── (\d\. .+?) ─+$/gm)].map((match) => match[1]);
    expect(headings).toEqual([
      '1. Discovery: what the server declares',
      '2. What the model sees: one catalog per stage',
      '3. A verified learner’s turn',
      '4. The trust rules under attack',
      '5. Everything the server received (its own log)',
    ]);
    expect(stdout).toContain('RCP manifest v0.1 — auth: header "Authorization" (scheme: Bearer)');
    expect(stdout).toContain('learnerId: string, required [resolved by client, hidden from model]');
    expect(stdout).toContain('GET /api/courses/search?q=algebra  Authorization: Bearer [redacted] → 200');
    expect(stdout).toContain('POST /api/enrollments  Authorization: Bearer [redacted] → 201');
    expect(stdout).toContain('GET /api/courses/..%2Fadmin  Authorization: Bearer [redacted] → 404');
    for (const code of ['RCP_INVALID_ARGUMENTS', 'RCP_UNRESOLVED', 'RCP_TOOL_NOT_IN_STAGE', 'RCP_TEMPLATE_VALUE']) {
      expect(stdout).toMatch(new RegExp(`^ {3}error +${code} — `, 'm'));
    }
    expect(stdout.trimEnd().split('\n').at(-1)).toBe('✓ 4 calls made, 7 attacks stopped, 0 unexpected requests');
    expect(stdout).not.toMatch(/Bearer [0-9a-f]{32}/);
  });

  it('--json: the server log shows exactly the requests the demo claims', async () => {
    const { code, stdout, stderr } = await runCli(['--json']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as { mode: string; ok: boolean; manifestUrl: string; sections: Section[] };
    expect(report).toMatchObject({ mode: 'embedded', ok: true });
    expect(new URL(report.manifestUrl).hostname).toBe('127.0.0.1');
    expect(report.sections.map((candidate) => candidate.id)).toEqual(['describe', 'catalogs', 'turn', 'attacks', 'server-log', 'summary']);

    // Catalogs: browse offers search only; act offers the rest; learnerId is nowhere.
    const catalogs = section(report, 'catalogs');
    expect(catalogs.stages.map((stage: any) => [stage.stage, stage.tools.map((tool: any) => tool.name)])).toEqual([
      ['browse', ['search_courses']],
      ['act', ['get_learner_profile', 'search_courses', 'enroll_in_course', 'list_learner_courses', 'get_course']],
    ]);
    expect(JSON.stringify(catalogs.stages)).not.toContain('learnerId');
    expect(catalogs.hiddenParams).toEqual(['learnerId']);

    // The learner's turn: four calls, each exactly one authorised request, each a success.
    const turn = section(report, 'turn');
    const calls = turn.calls as CallRecord[];
    expect(calls.map((record) => record.call.name)).toEqual(['search_courses', 'enroll_in_course', 'get_learner_profile', 'list_learner_courses']);
    for (const record of calls) {
      expect(typeof record.call.arguments).toBe('string');
      expect(record.call.arguments).not.toContain('learner');
      expect(record.result.ok).toBe(true);
      expect(record.requests).toHaveLength(1);
      expect(record.requests?.[0]).toMatchObject({ authorization: 'Bearer [redacted]', authorized: true });
    }
    expect(calls.map((record) => `${record.requests?.[0]?.method} ${record.requests?.[0]?.path}`)).toEqual([
      'GET /api/courses/search',
      'POST /api/enrollments',
      'GET /api/learners/learner-42/profile',
      'GET /api/learners/learner-42/courses',
    ]);
    // The resolver, not the model, put the learner's id in the body.
    expect(calls[1]?.requests?.[0]?.body).toEqual({
      learnerId: 'learner-42',
      courseId: 'alg-101',
      note: 'First algebra course for me',
    });
    expect(calls[2]?.result).toEqual({ ok: true, data: { name: 'Ada Lovelace', progress: 62 } });
    expect(calls[3]?.result).toEqual({
      ok: true,
      data: { titles: ['Geometry Foundations', 'Algebra I: Equations and Inequalities'] },
    });

    // The attacks: every one stopped; only the rogue client (its discovery and its call, refused
    // by the server's bound param before any handler) and the encoded traversal reached the server.
    const attacks = section(report, 'attacks').attacks as (CallRecord & {
      id: string;
      stopped: boolean;
      requestCountBefore: number;
      requestCountAfter: number;
    })[];
    expect(attacks.map((attack) => [attack.id, attack.result.ok ? 'ok' : attack.result.error.code, attack.requests?.length])).toEqual([
      ['spoofed-learner-id', 'RCP_INVALID_ARGUMENTS', 0],
      ['spoofed-learner-id-rogue-client', 'RCP_HTTP_ERROR', 2],
      ['no-verified-caller', 'RCP_UNRESOLVED', 0],
      ['out-of-stage', 'RCP_TOOL_NOT_IN_STAGE', 0],
      ['path-traversal-slash', 'RCP_HTTP_ERROR', 1],
      ['cloud-metadata', 'RCP_ORIGIN_NOT_ALLOWED', 0],
      ['path-traversal-dot-segment', 'RCP_TEMPLATE_VALUE', 0],
    ]);
    for (const attack of attacks) {
      expect(attack.stopped).toBe(true);
      expect(attack.requestCountAfter - attack.requestCountBefore).toBe(attack.requests?.length);
    }
    expect(attacks.map((attack) => (attack as { stoppedBy?: string }).stoppedBy)).toEqual([
      'client',
      'server',
      'client',
      'client',
      'client',
      'client',
      'client',
    ]);
    expect(attacks[1]?.requests?.map((entry) => [entry.path, entry.status, (entry as { handledBy?: string }).handledBy])).toEqual([
      ['/rcp/manifest', 200, undefined],
      ['/api/learners/learner-7/profile', 403, undefined],
    ]);
    expect(attacks[4]?.requests?.[0]?.path).toBe('/api/courses/..%2Fadmin');

    // The server's own log is exactly: the manifest, the four calls, the rogue client's two, the encoded traversal.
    const log = section(report, 'server-log').requests as LogEntry[];
    const claimed = [...calls, ...attacks].flatMap((record) => record.requests ?? []);
    expect(log.map((entry) => `${entry.method} ${entry.path}`)).toEqual(['GET /rcp/manifest', ...claimed.map((entry) => `${entry.method} ${entry.path}`)]);
    expect(log.slice(1)).toEqual(claimed);
    expect(log.map((entry) => entry.seq)).toEqual(log.map((_, index) => index + 1));

    expect(section(report, 'summary')).toMatchObject({
      ok: true,
      callsMade: 4,
      callsFailed: 0,
      attacks: 7,
      attacksStopped: 7,
      unexpectedRequests: 0,
    });
    expect(stdout).not.toMatch(/Bearer [0-9a-f]{32}/);
  });

  it('colours only when asked (FORCE_COLOR), and NO_COLOR wins', async () => {
    const forced = await runCli([], { NO_COLOR: undefined, FORCE_COLOR: '1' });
    expect(forced.code).toBe(0);
    expect(forced.stdout).toMatch(/\u001b\[/);
    const both = await runCli([], { NO_COLOR: '1', FORCE_COLOR: '1' });
    expect(both.stdout).not.toMatch(/\u001b\[/);
  });
});

describe('rcp-demo flags', () => {
  it('--help prints usage and exits 0', async () => {
    const { code, stdout, stderr } = await runCli(['--help']);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toMatch(/^rcp-demo/);
    for (const flag of ['--json', '--serve', '--port', '--token', 'RCP_TOKEN', 'rcp describe', 'rcp inspect']) {
      expect(stdout).toContain(flag);
    }
  });

  it('a bad flag exits 2 with one line on stderr', async () => {
    const { code, stdout, stderr } = await runCli(['--frobnicate']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe("rcp-demo: unknown option '--frobnicate' (see --help)\n");
  });

  it('--manifest says where exploring went (the rcp CLI), exit 2', async () => {
    const { code, stderr } = await runCli(['--manifest', 'http://127.0.0.1:1/x']);
    expect(code).toBe(2);
    expect(stderr).toBe('rcp-demo: exploring a server moved to the rcp CLI: rcp describe <url>, rcp call <url> <tool>, rcp inspect <url>\n');
  });
});

describe('rcp-demo --serve', () => {
  // The one spawn of the bin: it starts, serves until SIGTERM, and exits 0.
  it('keeps the learning platform up on 127.0.0.1, prints its manifest URL and the rcp commands, stops on SIGTERM', { timeout: SPAWN_TIMEOUT }, async () => {
    const child = spawn(process.execPath, [CLI, '--serve', '--token', 'demo-token-1'], {
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk;
        const match = /serving its RCP manifest at (http:\/\/127\.0\.0\.1:\d+\/rcp\/manifest)/.exec(out);
        if (match && out.includes('Ctrl-C')) resolve(match[1]!);
      });
      child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
    });
    expect(out).toContain(`pnpm rcp describe ${url} --resolve learnerId`);
    expect(out).toContain(`pnpm rcp inspect ${url} --token-env RCP_TOKEN`);
    const manifest = (await (await fetch(url)).json()) as { rcpVersion: string; tools: unknown[] };
    expect(manifest.rcpVersion).toBe('0.1');
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
