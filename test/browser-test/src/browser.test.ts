import { existsSync, readFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { NOTES_TOKEN, startNotesApi, toolRequestLines, type TestServer } from 'rcp-test-utils';
import { bundleClient, type ClientBundle } from './bundle';

/** Debian's chromium (`.ci/run` installs it with apt when absent); CHROMIUM_PATH overrides. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/**
 * Outside CI, a machine without Chromium skips this file and says so, never silently (the README names the
 * prerequisite); with CI=true it must run, and a missing Chromium fails it.
 */
const SKIP = !existsSync(CHROMIUM) && process.env.CI !== 'true';
if (SKIP) {
  console.warn(
    `rcp-browser-test: SKIPPED the run in Chromium — no Chromium at ${CHROMIUM}. Install it (Debian/Ubuntu: sudo apt-get install chromium) or set CHROMIUM_PATH; CI always runs it.`,
  );
}
const outputDir = fileURLToPath(new URL('../test-output/', import.meta.url));

const PAGE = `<!doctype html>
<meta charset="utf-8">
<title>rcp-client in a browser</title>
<link rel="icon" href="data:,">
<pre id="out">loading…</pre>
<script type="module">
  import { createRcpClient, isRcpError, toModelResult } from './rcp-client.js';
  const client = createRcpClient({
    resolvers: { userId: (ctx) => ctx.userId },
    credentials: () => '${NOTES_TOKEN}',
  });
  // A response path with a filter selector needs the JSONPath filter engine, a lazy chunk here:
  // discovery loads it before validating (a browser has no synchronous load).
  const filtered = async (discovery) => {
    const list = discovery.manifest.tools.find((tool) => tool.name === 'list_notes');
    const manifest = { ...discovery.manifest, tools: [{ ...list, responseMappings: { titles: "@[?@.id == 'n-1'].title" } }] };
    const loaded = await client.load(manifest, { manifestUrl: discovery.manifestUrl });
    return (await client.execute(loaded.tools[0], {}, { userId: 'u-1' })).data;
  };
  window.runScenario = async () => {
    const discovery = await client.discover(new URL('/rcp/manifest', location.href).href);
    const { tools } = discovery;
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    const listed = await client.execute(byName.list_notes, { tag: 'a b&c' }, { userId: 'u-1' });
    const created = await client.execute(byName.create_note, { title: 'From Chromium', pinned: true }, { userId: 'u-1' });
    let refused;
    try {
      await client.execute(byName.get_note, { noteId: 'n-1' }, {});
    } catch (error) {
      refused = isRcpError(error) ? error.code : String(error);
    }
    const result = {
      schema: byName.list_notes.inputSchema,
      listed: listed.data,
      created: { status: created.status, data: created.data },
      refused,
      modelResult: toModelResult(await client.call(discovery, { name: 'nope', arguments: {} }, { userId: 'u-1' })),
      filtered: await filtered(discovery),
    };
    document.getElementById('out').textContent = JSON.stringify(result, null, 2);
    return result;
  };
</script>`;

let bundle: ClientBundle;
let api: { server: TestServer; manifestUrl: string };
let browser: Browser;

beforeAll(async () => {
  if (SKIP) return;
  bundle = await bundleClient();
  api = await startNotesApi();
  // The page and the bundle come from the API's own origin: no CORS in the way, as when an app
  // serves its client from the same site as its API.
  api.server.route('GET /', (_request, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(PAGE);
  });
  for (const chunk of bundle.chunks) {
    api.server.route(`GET /${chunk.file}`, (_request, res) => {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
      res.end(readFileSync(join(bundle.dir, chunk.file)));
    });
  }
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
});

afterAll(async () => {
  await browser?.close();
  await api?.server.close();
});

describe.skipIf(SKIP)('the bundled rcp-client in real Chromium', () => {
  it('discovers and executes against a local server: resolver values, the credential and encoding reach it; a missing ctx value sends nothing', async () => {
    const page = await browser.newPage();
    const outside: string[] = [];
    // Nothing may leave for another address: every request the page makes is checked.
    page.on('request', (request) => {
      if (!request.url().startsWith(api.server.origin)) outside.push(request.url());
    });
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') pageErrors.push(message.text());
    });
    await page.goto(`${api.server.origin}/`);
    await page.waitForFunction(() => 'runScenario' in window);
    // Errors thrown in the page are reported as text (their stacks point at page URLs).
    const result = await page
      .evaluate(() => (window as unknown as { runScenario(): Promise<unknown> }).runScenario())
      .catch((error: unknown) => ({ failed: String((error as Error).message).split('\n')[0], pageErrors }));
    mkdirSync(outputDir, { recursive: true });
    await page.screenshot({ path: join(outputDir, 'browser-client.png') });
    await page.close();

    expect(outside).toEqual([]);
    expect(result).toMatchObject({
      listed: [{ id: 'n-1', title: 'Groceries' }],
      created: { status: 201, data: { id: 'n-2', title: 'From Chromium', pinned: true } },
      refused: 'RCP_UNRESOLVED',
      modelResult: { ok: false, error: { code: 'RCP_UNKNOWN_TOOL' } },
      filtered: { titles: ['Groceries'] },
    });
    // userId is resolver-bound: the model-facing schema does not show it.
    expect(Object.keys((result as { schema: { properties: object } }).schema.properties)).toEqual(['tag']);

    const calls = api.server.requests.filter((request) => !['/', '/rcp/manifest'].includes(request.path) && !request.path.endsWith('.js'));
    expect(calls.map((request) => `${request.method} ${request.url}`)).toEqual([
      'GET /users/u-1/notes?tag=a%20b%26c',
      'POST /users/u-1/notes',
      'GET /users/u-1/notes',
    ]);
    expect(calls.map((request) => request.headers.authorization)).toEqual(Array(3).fill(`Bearer ${NOTES_TOKEN}`));
    expect(calls[1]!.json).toEqual({ title: 'From Chromium', pinned: true });
    expect(toolRequestLines(api.server)).not.toContain('GET /users//notes/n-1');
  });
});
