import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sendJson, startTestServer, type TestServer } from 'rcp-test-utils';
import { runRcp, runRcpMcp, startRcpMcp } from './fixtures/run-rcp';

/**
 * Issue 41, done when "a Stripe-sized import served by rcp mcp prints at most a handful of warning
 * lines, each naming its fix", and "the gateway refuses to start when a credential is configured
 * and no served tool may receive it". A manifest file of 447 tools in Stripe's shape (one API
 * origin, a Bearer key, identity-looking params in some tools), whose tools' origin a file cannot
 * vouch for; the API on 127.0.0.1, started here, and a second origin for three file tools.
 */
let api: TestServer;
let dir: string;
beforeEach(async () => {
  api = await startTestServer({ '* /v1/files/0': (_request, res) => sendJson(res, 200, { id: 'file_0' }) });
  dir = mkdtempSync(join(tmpdir(), 'rcp-large-import-'));
});
afterEach(async () => {
  await api.close();
  rmSync(dir, { recursive: true, force: true });
});

const KEY = 'sk_test_large';
const env = { STRIPE_KEY: KEY };
const API_TOOLS = 447;

/** 447 tools on the API's origin, and `files` more on `filesOrigin` (Stripe's files.stripe.com). */
function stripeSizedFile(options: { files?: number; filesOrigin?: string } = {}): string {
  const tools: Record<string, unknown>[] = [];
  for (let index = 0; index < API_TOOLS; index++) {
    // Every 40th tool takes a customer's email, every 60th a customer_email: params that look like an identity.
    const param = index % 40 === 0 ? 'email' : index % 60 === 1 ? 'customer_email' : undefined;
    tools.push({
      name: `Op${index}`,
      description: 'An operation.',
      method: index % 3 === 0 ? 'POST' : 'GET',
      url: `${api.origin}/v1/op/${index}`,
      ...(param !== undefined && { params: [{ name: param, type: 'string' }], queryParams: { [param]: `{{${param}}}` } }),
    });
  }
  for (let index = 0; index < (options.files ?? 0); index++) {
    tools.push({ name: `File${index}`, description: 'A file.', method: 'GET', url: `${options.filesOrigin}/v1/files/${index}` });
  }
  const file = join(dir, 'stripe-sized.json');
  writeFileSync(file, JSON.stringify({ rcpVersion: '0.1', auth: { type: 'header', name: 'Authorization', scheme: 'Bearer' }, tools }));
  return file;
}

const IDENTITY = ['--model-filled', 'email,customer_email'];
/** Each line names the flag that fixes it. */
const NAMES_ITS_FIX = /--trusted-origin http|--dynamic|--only|--ctx \w+=VALUE|--model-filled \w+/;

describe('the gateway refuses a credential no served tool may receive (issue 41)', () => {
  it('447 tools on an untrusted origin and --token-env: a usage error naming --trusted-origin with the origin, once; nothing sent', async () => {
    const file = stripeSizedFile();
    const { code, stdout, stderr } = await runRcpMcp([file, '--token-env', 'STRIPE_KEY', ...IDENTITY], { env });
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      `rcp-mcp: not serving: the credential (--token-env STRIPE_KEY) may reach none of the 447 tools that take it, so every call would fail with RCP_ORIGIN_NOT_ALLOWED: ` +
        `pass --trusted-origin ${api.origin} (447 tools) if that origin should receive it (see rcp-mcp --help)\n`,
    );
    expect(api.requests).toEqual([]);
    // `rcp mcp` runs the same command line: the same refusal and exit code.
    const viaRcp = await runRcp(['mcp', file, '--token-env', 'STRIPE_KEY', ...IDENTITY], { env });
    expect([viaRcp.code, viaRcp.stderr]).toEqual([2, stderr.replace(/^rcp-mcp:/, 'rcp mcp:').replace('(see rcp-mcp --help)', '(see rcp mcp --help)')]);
    expect(api.requests).toEqual([]);
  });

  it('two untrusted origins: the fix names each origin once, with its count', async () => {
    const filesOrigin = api.origin.replace('127.0.0.1', 'localhost');
    const { code, stderr } = await runRcpMcp([stripeSizedFile({ files: 3, filesOrigin }), '--token-env', 'STRIPE_KEY', ...IDENTITY], { env });
    expect(code).toBe(2);
    expect(stderr).toContain(
      `may reach none of the 450 tools that take it, so every call would fail with RCP_ORIGIN_NOT_ALLOWED: ` +
        `pass --trusted-origin ${api.origin} (447 tools) and --trusted-origin ${filesOrigin} (3 tools) if those origins should receive it`,
    );
    expect(stderr.split(`--trusted-origin ${api.origin}`)).toHaveLength(2);
    expect(api.requests).toEqual([]);
  });

  it('without a credential there is nothing to refuse: it serves, and the warning names the fix', async () => {
    // --dynamic: serving lists three tools, not 447 (what is asked here is the warning).
    const { code, stderr } = await runRcpMcp([stripeSizedFile(), ...IDENTITY, '--dynamic'], { env });
    expect(code).toBe(0);
    expect(stderr).toContain(`(pass --trusted-origin ${api.origin} if it should be)`);
    expect(api.requests).toEqual([]);
  });
});

describe('a Stripe-sized import prints a handful of warning lines, each naming its fix (issue 41)', () => {
  // Raised from rcp-cli's 30 s: serving lists 450 tools, whose MCP schemas the SDK compiles one by one (about a second
  // on an idle machine, 10 s and more with the whole suite on two shared cores).
  it('rcp mcp, when some tools may receive the credential: serves them, two warning lines, and only the trusted origin gets the key', {
    timeout: 120_000,
  }, async () => {
    const filesOrigin = api.origin.replace('127.0.0.1', 'localhost');
    const file = stripeSizedFile({ files: 3, filesOrigin });
    const run = await startRcpMcp([file, '--token-env', 'STRIPE_KEY', '--trusted-origin', filesOrigin, ...IDENTITY], { env });
    try {
      const warnings = run
        .stderr()
        .split('\n')
        .filter((line) => line.startsWith('rcp-mcp: warning:'));
      expect(warnings).toEqual([
        `rcp-mcp: warning: /tools/0 …/tools/446: 447 tools (Op0, Op1, Op2, …) would send a credential to ${api.origin}, which is not a trusted origin ` +
          `(pass --trusted-origin ${api.origin} if it should be); executing them will fail with RCP_ORIGIN_NOT_ALLOWED`,
        expect.stringMatching(
          /^rcp-mcp: warning: An MCP host such as Cursor accepts at most 40 tools; this set has 450: select fewer \(--only a,b\); or serve them in dynamic mode \(--dynamic: /,
        ),
      ]);
      for (const line of warnings) expect(line).toMatch(NAMES_ITS_FIX);
      // The same lines, and no more, in the instructions the host's model reads.
      expect(run.client.getInstructions()!.split('\n')).toHaveLength(1 + warnings.length);

      const trusted = await run.client.callTool({ name: 'File0', arguments: {} });
      expect(trusted.isError).toBeFalsy();
      const refused = await run.client.callTool({ name: 'Op1', arguments: {} });
      expect([refused.isError, JSON.stringify(refused.content)]).toEqual([true, expect.stringContaining('RCP_ORIGIN_NOT_ALLOWED')]);
      expect(api.requests.map((request) => [request.method, request.url, request.headers.authorization])).toEqual([['GET', '/v1/files/0', `Bearer ${KEY}`]]);
    } finally {
      await run.stop();
    }
  });

  it('rcp lint: three warning lines (one per cause and origin or param) and two hints, each naming its fix; --json keeps every warning', async () => {
    const file = stripeSizedFile();
    const { code, stdout, stderr } = await runRcp(['lint', file]);
    expect(code).toBe(0);
    const warnings = stdout.split('\n').filter((line) => line.startsWith('warning'));
    expect(warnings).toEqual([
      // In the order of first appearance: Op0's param, then Op0 itself.
      'warning /tools/0/params/0 …/tools/440/params/0  No resolver fills param "email" of 12 tools (Op0, Op40, Op80, …): its name looks like an identity, ' +
        'and the model will choose its value. Give its value with --ctx email=VALUE, or pass --model-filled email if the model may choose it',
      `warning /tools/0 …/tools/446  447 tools (Op0, Op1, Op2, …) would send a credential to ${api.origin}, which is not a trusted origin ` +
        `(pass --trusted-origin ${api.origin} if it should be); executing them will fail with RCP_ORIGIN_NOT_ALLOWED`,
      'warning /tools/1/params/0 …/tools/421/params/0  No resolver fills param "customer_email" of 8 tools (Op1, Op61, Op121, …): its name looks like an identity, ' +
        'and the model will choose its value. Give its value with --ctx customer_email=VALUE, or pass --model-filled customer_email if the model may choose it',
    ]);
    const hints = stderr.split('\n').filter(Boolean);
    expect(hints).toHaveLength(2);
    for (const line of [...warnings, ...hints]) expect(line).toMatch(NAMES_ITS_FIX);
    expect(stdout).toContain('0 error(s), 467 warning(s)');

    const json = await runRcp(['lint', file, '--json']);
    expect((JSON.parse(json.stdout) as { warnings: unknown[] }).warnings).toHaveLength(467);
    expect(api.requests).toEqual([]);
  });

  it('rcp lint --format github: one annotation per cause', async () => {
    const { stdout } = await runRcp(['lint', stripeSizedFile(), '--format', 'github']);
    const annotations = stdout.split('\n').filter((line) => line.startsWith('::warning'));
    expect(annotations).toHaveLength(3);
    expect(annotations.filter((line) => line.includes(`pass --trusted-origin ${api.origin} if it should be`))).toHaveLength(1);
  });

  it('rcp describe: the same three warning lines and two hints on stderr, each naming its fix', async () => {
    const { code, stderr } = await runRcp(['describe', stripeSizedFile()]);
    expect(code).toBe(0);
    const lines = stderr.split('\n').filter(Boolean);
    expect(lines.filter((line) => line.startsWith('warning'))).toHaveLength(3);
    expect(lines.length).toBeLessThanOrEqual(5);
    for (const line of lines) expect(line).toMatch(NAMES_ITS_FIX);
    expect(api.requests).toEqual([]);
  });
});
