import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_DNS_PRELOAD, SPAWN_TIMEOUT, sendJson, serveManifest, startTestServer, type TestServer } from 'rcp-test-utils';
import { startInspect, type InspectRun } from './fixtures/run-rcp';

/**
 * Issue 27, item 1: the inspector went around the client (its own recording `fetch` switched the
 * client to the fetch transport, so the connect-time boundary check was gone, and the raw
 * response showed an echoed credential). Now it observes through the client's seam. The built
 * `rcp inspect`, driven in real Chromium: spawned where names ending in `.rcp-test` must resolve
 * to 127.0.0.1 (a preload, in that process only, so nothing leaves this machine), else in this
 * process.
 */
const bin = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const TOKEN = 'tok_inspect/ECHOED+1';

let browser: Browser;
const children: ChildProcess[] = [];
const inspectors: InspectRun[] = [];
const servers: TestServer[] = [];
let dir: string;

/** Starts `rcp inspect` on a source in its own process (the .rcp-test names) and resolves with the page URL it prints. */
function spawnInspect(source: string, env: Record<string, string> = {}): Promise<string> {
  const child = spawn(process.execPath, ['--import', FAKE_DNS_PRELOAD, bin, 'inspect', source, '--token-env', 'INSPECT_TOKEN'], {
    env: { ...process.env, INSPECT_TOKEN: TOKEN, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /RCP inspector: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`rcp inspect exited (${code}): ${out}`)));
  });
}

/** Starts `rcp inspect` on a source in this process and resolves with its page URL. */
async function inspect(source: string): Promise<string> {
  const inspector = await startInspect([source, '--token-env', 'INSPECT_TOKEN'], { env: { INSPECT_TOKEN: TOKEN } });
  inspectors.push(inspector);
  return inspector.url;
}

/** Opens the page, picks a tool and presses Send; returns the page once an answer is shown. */
async function send(pageUrl: string, tool: string): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(pageUrl);
  await page.waitForSelector(`[data-tool="${tool}"]`);
  await page.click(`[data-tool="${tool}"]`);
  await page.fill('#args', '{}');
  await page.click('#send');
  await page.waitForSelector('#data, #call-error');
  return page;
}

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
  dir = mkdtempSync(join(tmpdir(), 'rcp-inspect-'));
}, SPAWN_TIMEOUT);

afterAll(async () => {
  await browser?.close();
  for (const child of children) child.kill('SIGTERM');
  await Promise.all(inspectors.map((inspector) => inspector.stop()));
  await Promise.all(servers.map((server) => server.close()));
  rmSync(dir, { recursive: true, force: true });
});

describe('rcp inspect goes through the client', { timeout: SPAWN_TIMEOUT }, () => {
  it('a public manifest whose tool name resolves to loopback: Send is refused as `rcp call` refuses it; nothing reaches the target', async () => {
    const manifestHost = await startTestServer();
    const target = await startTestServer();
    servers.push(manifestHost, target);
    target.route('GET /admin', (_request, res) => sendJson(res, 200, { secret: 'internal' }));
    const manifestUrl = serveManifest(manifestHost, {
      rcpVersion: '0.1',
      tools: [{ name: 'read_admin', description: 'Reads.', method: 'GET', url: `http://rebind.rcp-test:${new URL(target.origin).port}/admin` }],
    }).replace('127.0.0.1', 'public.rcp-test');
    const page = await send(await spawnInspect(manifestUrl), 'read_admin');
    expect(await page.textContent('#call-error')).toContain('RCP_ORIGIN_NOT_ALLOWED');
    expect(target.count).toBe(0);
    await page.close();
  });

  it('a credential the server echoes is redacted in the raw response and the result the page shows', async () => {
    const api = await startTestServer();
    servers.push(api);
    api.route('GET /whoami', (request, res) => sendJson(res, 200, { youSent: request.headers.authorization, escaped: TOKEN.replace('/', '\\/') }));
    const manifestUrl = serveManifest(api, {
      rcpVersion: '0.1',
      auth: { type: 'header', name: 'Authorization', scheme: 'Bearer' },
      tools: [{ name: 'whoami', description: 'Echoes.', method: 'GET', url: '/whoami' }],
    });
    const page = await send(await inspect(manifestUrl), 'whoami');
    expect(await page.textContent('#data')).toContain('Bearer [redacted]');
    expect(await page.textContent('#response')).toContain('[redacted]');
    expect(await page.content()).not.toContain('ECHOED');
    expect(api.requests.filter((request) => request.path === '/whoami').map((request) => request.headers.authorization)).toEqual([`Bearer ${TOKEN}`]);
    await page.close();
  });

  it('a manifest file is judged as a local source: its tool on loopback may be called (a public source could not)', async () => {
    const api = await startTestServer();
    servers.push(api);
    api.route('GET /whoami', (_request, res) => sendJson(res, 200, { called: true }));
    const file = join(dir, 'local.rcp.json');
    writeFileSync(
      file,
      JSON.stringify({
        rcpVersion: '0.1',
        tools: [{ name: 'whoami', description: 'Echoes.', method: 'GET', url: `${api.origin}/whoami` }],
      }),
    );
    const page = await send(await inspect(file), 'whoami');
    expect(await page.textContent('#data')).toContain('called');
    expect(api.count).toBe(1);
    await page.close();
  });
});
