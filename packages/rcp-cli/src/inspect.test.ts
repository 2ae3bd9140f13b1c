import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOTES_TOKEN, sendJson, serveManifest, startNotesApi, startTestServer, type TestServer } from 'rcp-test-utils';
import { startInspect, type InspectRun } from './fixtures/run-rcp';

/**
 * `rcp inspect` (the built package, in this process, where names ending in .rcp-test resolve to
 * 127.0.0.1: vitest.config.ts), driven in real Chromium (Debian's, headless; `.ci/run` installs it when
 * absent): the page tries a call and the notes server says what it got. One browser for the
 * file (its start is most of its cost).
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/**
 * Outside CI, a machine without Chromium skips the tests that drive the page and says so, never silently (docs/behaviour.md
 * names the prerequisite); the HTTP-level tests still run. With CI=true nothing is skipped: a missing Chromium fails.
 */
const NO_CHROMIUM = !existsSync(CHROMIUM) && process.env.CI !== 'true';
if (NO_CHROMIUM) {
  console.warn(
    `rcp-cli: SKIPPED the rcp inspect tests that drive the page in Chromium — no Chromium at ${CHROMIUM}. Install it (Debian/Ubuntu: sudo apt-get install chromium) or set CHROMIUM_PATH; CI always runs them.`,
  );
}
/** A test that drives the inspector's page in Chromium. */
const itInChromium = it.skipIf(NO_CHROMIUM);
const outputDir = fileURLToPath(new URL('../test-output/', import.meta.url));

let notes: TestServer;
let manifestUrl: string;
let inspector: InspectRun;
let pageUrl: string;
let browser: Browser;

beforeAll(async () => {
  ({ server: notes, manifestUrl } = await startNotesApi());
  inspector = await startInspect([manifestUrl, '--token-env', 'NOTES_API_TOKEN'], { env: { NOTES_API_TOKEN: NOTES_TOKEN } });
  pageUrl = inspector.url;
  if (NO_CHROMIUM) return;
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
});

afterAll(async () => {
  await browser?.close();
  await inspector?.stop();
  await notes?.close();
});

/** Starts another `rcp inspect` with these arguments in this process and returns its page URL (stopped after the tests). */
const started: InspectRun[] = [];
afterAll(async () => {
  await Promise.all(started.map((run) => run.stop()));
});
async function inspectAnother(args: string[], env: Record<string, string> = {}): Promise<string> {
  const run = await startInspect(args, { env });
  started.push(run);
  return run.url;
}

/** A raw request to the inspector with a chosen Host header (what a rebinding page would send). */
function rawResponse(path: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const url = new URL(path, pageUrl);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: url.port, path: url.pathname + url.search, headers }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}
const raw = async (path: string, headers: Record<string, string>) => (await rawResponse(path, headers)).status;

describe('rcp inspect', () => {
  it('answers only its own host, and its API only with the page session key', async () => {
    expect(await raw('/', { host: 'evil.example' })).toBe(403);
    expect(await raw('/api/manifest', { host: new URL(pageUrl).host })).toBe(403);
    expect(await raw('/', { host: new URL(pageUrl).host })).toBe(200);
  });

  it("--allow-private-network: a public manifest's loopback tool is listed as refused without it, not with it", async () => {
    // public.rcp-test resolves to 127.0.0.1 in this test process only: a manifest from a public name.
    const manifestUrl = serveManifest(
      notes,
      { rcpVersion: '0.1', tools: [{ name: 'ping', description: 'Pings.', method: 'GET', url: `${notes.origin}/ping` }] },
      '/public/manifest',
    ).replace('127.0.0.1', 'public.rcp-test');
    const warningsOf = async (url: string) => {
      const page = await (await fetch(url)).text();
      const session = /name="rcp-session" content="([^"]+)"/.exec(page)![1]!;
      const answer = await fetch(new URL('/api/manifest', url), { headers: { 'x-rcp-session': session } });
      return ((await answer.json()) as { warnings: { message: string }[] }).warnings.map((warning) => warning.message);
    };
    expect(await warningsOf(await inspectAnother([manifestUrl]))).toEqual([expect.stringContaining('is a loopback address')]);
    expect(await warningsOf(await inspectAnother([manifestUrl, '--allow-private-network']))).toEqual([]);
  });

  it('sends its security headers on every response, page and API, refusals included', async () => {
    const host = new URL(pageUrl).host;
    const page = await rawResponse('/', { host });
    const session = /name="rcp-session" content="([^"]+)"/.exec(page.body)![1]!;
    const script = /src="\.\/(assets\/[^"]+\.js)"/.exec(page.body)![1]!;
    const responses = [
      page,
      await rawResponse(`/${script}`, { host }),
      await rawResponse('/api/manifest', { host, 'x-rcp-session': session }),
      await rawResponse('/api/manifest', { host }), // 403: no session
      await rawResponse('/', { host: 'evil.example' }), // 403: wrong host
      await rawResponse('/nope', { host }), // 404
    ];
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 403, 403, 404]);
    for (const response of responses) {
      expect(response.headers).toMatchObject({
        'content-security-policy': "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
        'x-frame-options': 'DENY',
        'referrer-policy': 'no-referrer',
        'x-content-type-options': 'nosniff',
      });
    }
  });

  itInChromium('shows tools, hidden params and schemas, prepares without sending, then sends and shows the result and history', async () => {
    const page = await browser.newPage();
    const outside: string[] = [];
    const violations: string[] = []; // the page runs under its CSP: nothing it needs is blocked
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    page.on('request', (req) => {
      if (!req.url().startsWith(pageUrl)) outside.push(req.url());
    });
    await page.goto(pageUrl);
    await page.waitForSelector('[data-tool="get_note"]');
    expect(await page.textContent('body')).not.toContain('Loading…');
    expect(await page.textContent('#warnings')).toContain('looks like');

    // The Context box, as --ctx: userId filled by the client, marked hidden, gone from the schema.
    await page.fill('#ctx', 'userId=u-1');
    await page.click('#apply-ctx');
    await page.click('[data-tool="get_note"]');
    await page.waitForSelector('[data-param="userId"] .hidden');
    expect(await page.textContent('#schema')).not.toContain('userId');

    await page.fill('#args', '{"noteId": "n-1"}');
    notes.reset();
    await page.click('#prepare');
    await page.waitForSelector('#prepared');
    const prepared = await page.textContent('#prepared');
    expect(prepared).toContain('/users/u-1/notes/n-1');
    expect(prepared).toContain('Bearer [redacted]');
    expect(prepared).not.toContain(NOTES_TOKEN);
    expect(notes.requests.filter((r) => r.path !== '/rcp/manifest')).toEqual([]);

    await page.click('#send');
    await page.waitForSelector('#data');
    expect(await page.textContent('#data')).toContain('eggs');
    expect(await page.textContent('#response')).toContain('"text":"eggs"');
    const calls = notes.requests.filter((r) => r.path !== '/rcp/manifest');
    expect(calls.map((r) => `${r.method} ${r.url} ${String(r.headers.authorization)}`)).toEqual([`GET /users/u-1/notes/n-1 Bearer ${NOTES_TOKEN}`]);
    expect(await page.textContent('#history')).toMatch(/call get_note: HTTP 200[\s\S]*prepare get_note: prepared/);

    // A spoofed hidden param is refused, nothing sent.
    notes.reset();
    await page.fill('#args', '{"noteId": "n-1", "userId": "u-2"}');
    await page.click('#send');
    await page.waitForSelector('#call-error');
    expect(await page.textContent('#call-error')).toContain('RCP_INVALID_ARGUMENTS');
    expect(notes.requests.filter((r) => r.path !== '/rcp/manifest')).toEqual([]);
    expect(await page.content()).not.toContain(NOTES_TOKEN);

    mkdirSync(outputDir, { recursive: true });
    await page.screenshot({ path: `${outputDir}inspector.png`, fullPage: true });
    expect(outside).toEqual([]);
    expect(violations).toEqual([]);
    await page.close();
  });

  itInChromium('Send on a call that changes data shows the exact request and asks; nothing is sent before Yes, and Yes sends it once', async () => {
    const page = await browser.newPage();
    const apiCalls: unknown[] = [];
    page.on('request', (req) => {
      if (req.url().endsWith('/api/call')) apiCalls.push(req.postDataJSON());
    });
    await page.goto(pageUrl);
    await page.waitForSelector('[data-tool="create_note"]');
    await page.fill('#ctx', 'userId=u-1');
    await page.click('#apply-ctx');
    await page.click('[data-tool="create_note"]');
    await page.waitForSelector('[data-param="userId"] .hidden');
    await page.fill('#args', '{"title": "Plan", "text": "eggs"}');
    notes.reset();
    const toolCalls = () => notes.requests.filter((r) => r.path !== '/rcp/manifest');

    // Send: the confirm step with the exact request — resolver value in, credential redacted — and nothing sent.
    await page.click('#send');
    await page.waitForSelector('#confirm');
    const shown = JSON.parse((await page.textContent('#confirm-request'))!) as Record<string, unknown>;
    expect(shown).toEqual({
      method: 'POST',
      url: notes.url('/users/u-1/notes'),
      headers: expect.objectContaining({ Authorization: 'Bearer [redacted]' }),
      body: { title: 'Plan', text: 'eggs' },
    });
    expect(await page.textContent('#confirm-reason')).toContain('Nothing has been sent');
    expect(toolCalls()).toEqual([]);
    expect(await page.content()).not.toContain(NOTES_TOKEN);

    // No: still nothing sent, the confirm step is gone.
    await page.click('#confirm-no');
    await page.waitForSelector('#confirm', { state: 'detached' });
    expect(await page.textContent('#history')).toContain('confirm create_note: not sent');
    expect(toolCalls()).toEqual([]);

    // Send again, then Yes: exactly the reviewed request reaches the server, once.
    await page.click('#send');
    await page.waitForSelector('#confirm');
    expect(toolCalls()).toEqual([]);
    await page.click('#confirm-yes');
    await page.waitForSelector('#data');
    expect(await page.textContent('#data')).toContain('"id": "n-2"');
    const sent = toolCalls();
    expect(sent.map((r) => `${r.method} ${r.url} ${String(r.headers.authorization)}`)).toEqual([`POST /users/u-1/notes Bearer ${NOTES_TOKEN}`]);
    expect(sent[0]!.json).toEqual({ title: 'Plan', text: 'eggs' });
    expect(await page.textContent('#history')).toMatch(/confirm create_note: HTTP 201[\s\S]*call create_note: waiting for your approval/);

    // The approval the page held is good for one call: replayed, it is refused and nothing is sent.
    const approved = apiCalls.at(-1) as Record<string, unknown>;
    expect(approved['approval']).toMatchObject({ tool: 'create_note', digest: expect.any(String), id: expect.any(String) });
    const session = /name="rcp-session" content="([^"]+)"/.exec(await (await fetch(pageUrl)).text())![1]!;
    const replayed = await fetch(new URL('/api/call', pageUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-rcp-session': session },
      body: JSON.stringify(approved),
    });
    const replay = (await replayed.json()) as { error?: { code: string } };
    expect(replay.error?.code).toBe('RCP_APPROVAL_MISMATCH');
    expect(toolCalls()).toHaveLength(1);
    await page.close();
  });
});

describe('rcp inspect shows what an OAuth login needs and what a call does (RCP 0.3)', () => {
  itInChromium('a manifest file with an OAuth hint and declared effects: the page shows both, as text', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rcp-inspect-hint-'));
    const file = join(dir, 'hint.rcp.json');
    writeFileSync(
      file,
      JSON.stringify({
        rcpVersion: '0.3',
        auth: { type: 'header', name: 'Authorization', scheme: 'Bearer', oauth: { scopes: ['notes.read', '<b>x</b>'], issuer: 'https://login.example.com' } },
        tools: [
          { name: 'wipe', description: 'Wipes the cache.', method: 'POST', url: 'https://api.example.com/wipe', body: {}, effects: { destructive: true } },
        ],
      }),
    );
    const page = await browser.newPage();
    const hinted = await startInspect([file]);
    await page.goto(hinted.url);
    await page.waitForSelector('[data-tool="wipe"]');
    expect(await page.textContent('#auth')).toBe(
      'Auth: header "Authorization" (scheme: Bearer), OAuth 2 (scopes notes.read <b>x</b>; issuer https://login.example.com)',
    );
    expect(await page.locator('#auth b').count()).toBe(0); // manifest text is text, never markup
    expect(await page.textContent('#effects')).toBe('Effects: writes, destructive');
    await page.close();
    await hinted.stop();
    rmSync(dir, { recursive: true, force: true });
  });
});

/**
 * Issue 27, item 1: the inspector went around the client (its own recording `fetch` switched the
 * client to the fetch transport, so the connect-time boundary check was gone, and the raw
 * response showed an echoed credential). Now it observes through the client's seam. In this
 * process, where names ending in `.rcp-test` resolve to 127.0.0.1 (vitest.config.ts), so
 * nothing leaves this machine.
 */
const TOKEN = 'tok_inspect/ECHOED+1';
const inspectors: InspectRun[] = [];
const servers: TestServer[] = [];
let boundaryDir: string;
beforeAll(() => {
  boundaryDir = mkdtempSync(join(tmpdir(), 'rcp-inspect-'));
});
afterAll(async () => {
  await Promise.all(inspectors.map((started) => started.stop()));
  await Promise.all(servers.map((server) => server.close()));
  rmSync(boundaryDir, { recursive: true, force: true });
});

/** Starts `rcp inspect` on a source in this process, with the credential, and resolves with its page URL. */
async function inspectHere(source: string): Promise<string> {
  const started = await startInspect([source, '--token-env', 'INSPECT_TOKEN'], { env: { INSPECT_TOKEN: TOKEN } });
  inspectors.push(started);
  return started.url;
}

/** Opens the page, picks a tool and presses Send; returns the page once an answer is shown. */
async function send(url: string, tool: string): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(url);
  await page.waitForSelector(`[data-tool="${tool}"]`);
  await page.click(`[data-tool="${tool}"]`);
  await page.fill('#args', '{}');
  await page.click('#send');
  await page.waitForSelector('#data, #call-error');
  return page;
}

describe('rcp inspect goes through the client', () => {
  itInChromium('a manifest with tool groups (RCP 0.4): the list and the tool show its group, the description as text', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rcp-inspect-groups-'));
    const file = join(dir, 'groups.rcp.json');
    writeFileSync(
      file,
      JSON.stringify({
        rcpVersion: '0.4',
        groups: [{ name: 'invoices', description: 'Invoices <b>and</b> payments.' }],
        tools: [
          { name: 'list_invoices', description: 'Lists invoices.', method: 'GET', url: 'https://api.example.com/invoices', group: 'invoices' },
          { name: 'ping', description: 'Pings.', method: 'GET', url: 'https://api.example.com/ping' },
        ],
      }),
    );
    const page = await browser.newPage();
    const grouped = await startInspect([file]);
    await page.goto(grouped.url);
    await page.waitForSelector('[data-tool="list_invoices"]');
    expect(await page.textContent('[data-tool="list_invoices"] .group')).toBe('invoices');
    expect(await page.locator('[data-tool="ping"] .group').count()).toBe(0);
    expect(await page.textContent('#group')).toBe('Group: invoices — Invoices <b>and</b> payments.');
    expect(await page.locator('#group b').count()).toBe(0); // manifest text is text, never markup
    await page.click('[data-tool="ping"]');
    expect(await page.locator('#group').count()).toBe(0);
    await page.close();
    await grouped.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  itInChromium('a public manifest whose tool name resolves to loopback: Send is refused as `rcp call` refuses it; nothing reaches the target', async () => {
    const manifestHost = await startTestServer();
    const target = await startTestServer();
    servers.push(manifestHost, target);
    target.route('GET /admin', (_request, res) => sendJson(res, 200, { secret: 'internal' }));
    const manifestUrl = serveManifest(manifestHost, {
      rcpVersion: '0.1',
      tools: [{ name: 'read_admin', description: 'Reads.', method: 'GET', url: `http://rebind.rcp-test:${new URL(target.origin).port}/admin` }],
    }).replace('127.0.0.1', 'public.rcp-test');
    const page = await send(await inspectAnother([manifestUrl, '--token-env', 'INSPECT_TOKEN'], { INSPECT_TOKEN: TOKEN }), 'read_admin');
    expect(await page.textContent('#call-error')).toContain('RCP_ORIGIN_NOT_ALLOWED');
    expect(target.count).toBe(0);
    await page.close();
  });

  itInChromium('a credential the server echoes is redacted in the raw response and the result the page shows', async () => {
    const api = await startTestServer();
    servers.push(api);
    api.route('GET /whoami', (request, res) => sendJson(res, 200, { youSent: request.headers.authorization, escaped: TOKEN.replace('/', '\\/') }));
    const manifestUrl = serveManifest(api, {
      rcpVersion: '0.1',
      auth: { type: 'header', name: 'Authorization', scheme: 'Bearer' },
      tools: [{ name: 'whoami', description: 'Echoes.', method: 'GET', url: '/whoami' }],
    });
    const page = await send(await inspectHere(manifestUrl), 'whoami');
    expect(await page.textContent('#data')).toContain('Bearer [redacted]');
    expect(await page.textContent('#response')).toContain('[redacted]');
    expect(await page.content()).not.toContain('ECHOED');
    expect(api.requests.filter((request) => request.path === '/whoami').map((request) => request.headers.authorization)).toEqual([`Bearer ${TOKEN}`]);
    await page.close();
  });

  itInChromium('a manifest file is judged as a local source: its tool on loopback may be called (a public source could not)', async () => {
    const api = await startTestServer();
    servers.push(api);
    api.route('GET /whoami', (_request, res) => sendJson(res, 200, { called: true }));
    const file = join(boundaryDir, 'local.rcp.json');
    writeFileSync(
      file,
      JSON.stringify({
        rcpVersion: '0.1',
        tools: [{ name: 'whoami', description: 'Echoes.', method: 'GET', url: `${api.origin}/whoami` }],
      }),
    );
    const page = await send(await inspectHere(file), 'whoami');
    expect(await page.textContent('#data')).toContain('called');
    expect(api.count).toBe(1);
    await page.close();
  });
});
