import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serveManifest, startTestServer, type TestServer } from 'rcp-test-utils';
import { runRcpMcp } from './fixtures/run-rcp';

/**
 * Issue 27, item 3, for the gateway's own CLI: what it prints from a manifest (discovery
 * warnings, error messages) goes through rcp-client's terminal sanitiser, so a hostile manifest
 * can neither drive the host's terminal nor forge a log line. The built command line in this
 * process, a loopback server.
 */

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await server.close();
});

describe('rcp-mcp prints server text escaped', () => {
  it('an unknown field name with ESC, OSC, BEL, C1 and a newline is one escaped warning line', async () => {
    const hostile = 'x\u001b]0;owned\u0007\u009b2J\nrcp-mcp: serving 99 tool(s)';
    const manifestUrl = serveManifest(server, {
      rcpVersion: '0.1',
      tools: [{ name: 'ping', description: 'Pings.', method: 'GET', url: '/ping', [hostile]: true }],
    });
    // No token env, so it stops after discovery with a one-line error; the warnings come first.
    const { stderr } = await runRcpMcp([manifestUrl, '--http']);
    expect(stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    const warnings = stderr.split('\n').filter((line) => line.includes('warning'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('x\\x1b]0;owned\\x07\\x9b2J\\x0arcp-mcp: serving 99 tool(s)');
    expect(stderr.split('\n').filter((line) => line.startsWith('rcp-mcp: serving'))).toEqual([]);
  });

  it('an error message quoting server text is escaped too', async () => {
    server.route('GET /rcp/manifest', (_request, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ rcpVersion: '9\u001b[2J' }));
    });
    const { code, stderr } = await runRcpMcp([server.url('/rcp/manifest')]);
    expect(code).toBe(1);
    expect(stderr).not.toMatch(/\u001b/);
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
  });
});
