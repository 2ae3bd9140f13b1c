import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRcpClient, isRcpError } from 'rcp-client';
import { safeParseManifest, type RcpAuth, type RcpTool, type RcpVersion } from 'rcp-manifest';
import { createRcpServer, defineTool, type ReceivedFile, type RcpServer, type ServerGroup, type ServerTool } from 'rcp-server';
import { toNodeListener } from 'rcp-server/node';
import { loadCases, substitute, type ConformanceCase } from './cases';

/**
 * The server side of the conformance cases: each case's manifest declared with rcp-server (tool
 * URLs on the case's origin become paths; its groups, RCP 0.4, the server's `groups`), then
 * - a manifest the client accepts is built, served and passes `parseManifest` with no error,
 *   rcp-client discovers each tool's group as the case expects, and the case's call, if it has
 *   one, made by rcp-client against that server, is accepted by the server's validation and
 *   reaches the handler;
 * - a manifest the client refuses at a tool's or a group's pointer is refused by
 *   `createRcpServer` at the same pointers (`RCP_INVALID_MANIFEST`): the server can never serve it;
 * - a manifest the client reads without what its author declared (REFUSED_BY_THE_SERVER) is
 *   refused by `createRcpServer` (`RCP_INVALID_OPTIONS`);
 * - a streamed call the client fails (RCP 0.4, SPEC §20.6) fails the same against the server's
 *   answer: the case's error code, problem and event;
 * - a multipart call (RCP 0.4 files, SPEC §20.7) reaches the handler with each file as the
 *   case's resolver gave it (name, media type, bytes) and the text fields as the arguments meant;
 *   a file the client refuses for its media type or size (M27.17), sent to the server by hand,
 *   is refused there too (400 or 413, `RCP_INVALID_ARGUMENTS`, at the same param) and never
 *   reaches the handler.
 */
const cases = loadCases().map((entry) => entry.case);
let http: Server;
let origin: string;
let current: RcpServer | undefined;

beforeAll(async () => {
  http = createServer((request, response) => {
    if (current === undefined) return void response.writeHead(503).end();
    toNodeListener(current)(request, response);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => http.close(() => resolve())));

interface Declared {
  readonly tools: ServerTool[];
  readonly calls: { tool: string; values: Record<string, unknown> }[];
}

/** The case's tools as rcp-server definitions, or why they cannot be (a tool on another origin). */
function declare(c: ConformanceCase, response: ConformanceCase['response']): Declared | string {
  const manifest = c.manifest as { tools?: RcpTool[] } | undefined;
  const calls: Declared['calls'] = [];
  const tools: ServerTool[] = [];
  for (const tool of manifest?.tools ?? []) {
    if (typeof tool?.url !== 'string') return 'a tool without a url';
    const path = tool.url.startsWith(origin) ? tool.url.slice(origin.length) || '/' : tool.url;
    if (/^https?:/.test(path)) return 'a tool on another origin';
    const { url: _url, bodyEncoding, ...rest } = tool;
    tools.push(
      defineTool({
        ...rest,
        ...(bodyEncoding !== undefined && { bodyEncoding }),
        path,
        handler: ({ values }) => {
          calls.push({ tool: tool.name, values: { ...values } });
          const headers = response?.headers ?? {};
          if (response?.text !== undefined || response?.base64 !== undefined) {
            const bytes = response.base64 !== undefined ? Buffer.from(response.base64, 'base64') : Buffer.from(response.text!, 'utf8');
            const type: Record<string, string> = response.contentType === null ? {} : { 'content-type': response.contentType ?? 'text/plain' };
            return new Response(bytes, { status: response.status ?? 200, headers: { ...type, ...headers } });
          }
          return Response.json(response?.body ?? {}, { status: response?.status ?? 200, headers });
        },
      }),
    );
  }
  return { tools, calls };
}

function createFor(c: ConformanceCase, tools: ServerTool[]): RcpServer {
  const manifest = c.manifest as { rcpVersion?: RcpVersion; auth?: RcpAuth; groups?: readonly ServerGroup[] };
  return createRcpServer({
    tools,
    ...(manifest.rcpVersion !== undefined && { rcpVersion: manifest.rcpVersion }),
    ...(manifest.auth !== undefined && { auth: manifest.auth }),
    ...(manifest.groups !== undefined && { groups: manifest.groups }),
    // Auth is not what these cases test on the server side: any caller is the principal {}.
    verify: () => ({}),
  });
}

/** Calls whose values the wire cannot carry exactly, so the handler gets what was sent, not what was meant. */
const LOSSY: Record<string, string> = {
  'form-typed-object': 'a form field is text: a nested value with no declared type arrives as a string',
  'form-object-array': 'a form field is text: a nested value with no declared type arrives as a string',
  'form-null-inside-object': 'a null inside an object is no form field at all',
  'query-array-empty': 'an empty array is no query entry at all',
  'query-style-comma-empty': 'an empty array is no query entry at all',
  'query-style-deep-object-empty': 'an empty object is no query entry at all',
};

/**
 * Manifests a client reads but rcp-server refuses to publish, with why: the server's author
 * declared something the manifest would lose, and is told so when the server is created
 * (`RCP_INVALID_OPTIONS`) instead of serving it without.
 */
const REFUSED_BY_THE_SERVER: Record<string, string> = {
  'groups-0-3-ignored': 'an older version ignores groups (M27.8): rcp-server will not publish declared groups that no client reads',
  'stream-0-3-ignored': "an older version ignores a tool's stream (M27.9): rcp-server will not publish a declared stream that no client reads",
  'stream-0-3-invalid-ignored': "an older version ignores a tool's stream (M27.9): rcp-server will not publish a declared stream that no client reads",
};

/** A case whose RCP 0.4 manifest declares a tool's stream (SPEC §20.6). */
function declaresStream(c: ConformanceCase): boolean {
  const manifest = c.manifest as { rcpVersion?: string; tools?: { stream?: unknown }[] } | undefined;
  return manifest?.rcpVersion === '0.4' && (manifest.tools ?? []).some((tool) => tool?.stream !== undefined);
}

/**
 * Nor a long-running operation (RCP 0.4 `operation`, SPEC §20.8): the client follows a 202 to a
 * status URL, which an rcp-server handler does not declare; those cases are the client's.
 */
const NO_OPERATIONS = "rcp-server does not declare a tool's operation (SPEC §20.8)";
function declaresOperation(c: ConformanceCase): boolean {
  const manifest = c.manifest as { rcpVersion?: string; tools?: { operation?: unknown }[] } | undefined;
  return c.resume !== undefined || (manifest?.rcpVersion === '0.4' && (manifest.tools ?? []).some((tool) => tool?.operation !== undefined));
}
const operations = cases.filter(declaresOperation);

/** The file params of a case's tool (RCP 0.4, SPEC §20.7): the handler receives a file for each, not the reference. */
function fileParams(c: ConformanceCase, toolName: string): Set<string> {
  const manifest = c.manifest as { tools?: { name?: string; params?: { name: string; type?: unknown }[] }[] } | undefined;
  const tool = (manifest?.tools ?? []).find((entry) => entry?.name === toolName);
  return new Set((tool?.params ?? []).flatMap((param) => (param?.type === 'file' ? [param.name] : [])));
}

/** A file as the handler received it, in the case's terms: what its resolver gave for the reference. */
function asCaseFile(value: unknown): unknown {
  const file = value as ReceivedFile;
  return { base64: Buffer.from(file.bytes).toString('base64'), mediaType: file.mediaType, filename: file.filename };
}

/** Every case a manifest is served for (not a text answer, not another URL) that discovers without error. */
const accepted = cases.filter(
  (c) =>
    c.expect.error === undefined &&
    c.manifestUrl === undefined &&
    c.manifestResponse === undefined &&
    !Object.hasOwn(REFUSED_BY_THE_SERVER, c.id) &&
    !declaresOperation(c),
);
const refusedByTheServer = cases.filter((c) => Object.hasOwn(REFUSED_BY_THE_SERVER, c.id));
/** Manifests refused at the pointers of what rcp-server declares: a tool's field, or a group (RCP 0.4). */
const refusedAtTools = cases.filter(
  (c) =>
    c.expect.error?.code === 'RCP_INVALID_MANIFEST' &&
    (c.expect.error.pointers ?? []).length > 0 &&
    (c.expect.error.pointers ?? []).every((pointer) => pointer.startsWith('/tools/') || pointer.startsWith('/groups/')) &&
    c.manifestResponse === undefined &&
    !declaresOperation(c),
);

describe(`conformance, the server side: skipped, ${NO_OPERATIONS}`, () => {
  it.skip.each(operations.map((c) => [c.id] as const))('%s', () => {});
});
/**
 * Streamed calls the client fails (SPEC §20.6: not a stream, an error event, a malformed event, an
 * HTTP error): the server serves the tool and its answer, and the client's error is the case's.
 */
const failingStreams = cases.filter(
  (c) => declaresStream(c) && !declaresOperation(c) && c.call !== undefined && c.expect.error !== undefined && c.expect.error.code !== 'RCP_INVALID_MANIFEST',
);

/** rcp-client with the case's settings, trusting the server's origin. */
function clientFor(c: ConformanceCase) {
  const resolvers = Object.fromEntries(Object.entries(c.client?.resolvers ?? {}).map(([name, value]) => [name, () => value]));
  return createRcpClient({
    resolvers,
    retry: 0,
    ...(c.client?.credential !== undefined && { credentials: () => c.client!.credential }),
    trustedOrigins: [origin],
    ...(c.client?.allowPrivateNetwork !== undefined && { allowPrivateNetwork: c.client.allowPrivateNetwork }),
    ...(c.client?.maxResponseBytes !== undefined && { maxResponseBytes: c.client.maxResponseBytes }),
    ...(c.client?.maxMediaBytes !== undefined && { maxMediaBytes: c.client.maxMediaBytes }),
    ...(c.client?.mediaTypes !== undefined && { mediaTypes: c.client.mediaTypes }),
    ...(c.client?.maxUploadBytes !== undefined && { maxUploadBytes: c.client.maxUploadBytes }),
    files: (reference: string) => {
      const file = c.client?.files?.[reference];
      return file && { bytes: new Uint8Array(Buffer.from(file.base64, 'base64')), mediaType: file.mediaType, filename: file.filename };
    },
  });
}

describe('conformance, the server side: a manifest rcp-server serves, and the calls it accepts', () => {
  const skipped: string[] = [];
  afterAll(() => {
    // Only cases whose tools rcp-server cannot read back (a second token in one value, a tool on
    // another origin) are left out; they stay a minority.
    expect(skipped.length, skipped.join('\n')).toBeLessThanOrEqual(4);
  });

  it.each(accepted.map((c) => [c.id, c] as const))('%s', async (_id, raw) => {
    const c = substitute(raw, { origin, other: 'http://127.0.0.2:9' });
    const declared = declare(c, c.response);
    if (typeof declared === 'string') return void skipped.push(`${c.id}: ${declared}`);
    try {
      current = createFor(c, declared.tools);
    } catch (error) {
      if (isRcpError(error, 'RCP_INVALID_OPTIONS')) return void skipped.push(`${c.id}: ${(error as Error).message}`);
      throw error;
    }
    const served = await fetch(`${origin}/rcp/manifest`);
    const parsed = safeParseManifest(await served.text());
    // No warning but those the case expects (a group no tool names) and params no template uses.
    const expectedWarnings = new Set(c.expect.warnings ?? []);
    expect(parsed.ok && parsed.warnings.filter((warning) => !expectedWarnings.has(warning.path) && !/unused|not used/i.test(warning.message))).toEqual([]);

    const client = clientFor(c);
    const discovery = await client.discover(`${origin}/rcp/manifest`);
    if (c.expect.groups !== undefined) expect(discovery.tools.map((tool) => tool.group ?? null)).toEqual(c.expect.groups);
    if (c.call === undefined) return;
    const result = await client.execute(discovery.tool(c.call.tool), c.call.args ?? {});
    expect(declared.calls.map((call) => call.tool)).toEqual([c.call.tool]);
    // What the handler was given is what the caller meant: the arguments and the resolved values
    // (except where the wire itself cannot carry it: see LOSSY).
    if (Object.hasOwn(LOSSY, c.id)) return;
    const args = typeof c.call.args === 'string' ? (JSON.parse(c.call.args) as object) : (c.call.args as object | undefined);
    // A file param's handler value is the file its reference resolved to (RCP 0.4): compared as the case's resolver gave it.
    const files = fileParams(c, c.call.tool);
    const given = Object.entries({ ...args, ...(c.client?.resolvers ?? {}) })
      .filter(([, value]) => value !== null && value !== undefined)
      .map(([name, value]) => [name, files.has(name) ? c.client?.files?.[value as string] : value]);
    const received = Object.entries(declared.calls[0]!.values).map(([name, value]) => [name, files.has(name) ? asCaseFile(value) : value]);
    expect(Object.fromEntries(received)).toEqual(Object.fromEntries(given));
    if ('data' in c.expect) expect(result.data).toEqual(c.expect.data);
    // A stream cut by the case's maxEvents or byte cap (SPEC §20.6, M27.13).
    if ((c.expect as { truncated?: boolean }).truncated === true) expect(result.truncated).toBe(true);
    if (c.expect.media !== undefined) {
      expect(result.media === undefined ? null : { mediaType: result.media.mediaType, base64: Buffer.from(result.media.bytes).toString('base64') }).toEqual(
        c.expect.media,
      );
    }
  });
});

describe('conformance, the server side: a manifest a client reads, but without what its author declared', () => {
  it.each(refusedByTheServer.map((c) => [c.id, c] as const))('%s: rcp-server refuses to create it', (id, raw) => {
    const c = substitute(raw, { origin, other: 'http://127.0.0.2:9' });
    const declared = declare(c, undefined);
    expect(typeof declared, REFUSED_BY_THE_SERVER[id]).not.toBe('string');
    let error: unknown;
    try {
      createFor(c, (declared as Declared).tools);
    } catch (caught) {
      error = caught;
    }
    expect(isRcpError(error, 'RCP_INVALID_OPTIONS'), REFUSED_BY_THE_SERVER[id]).toBe(true);
  });
});

describe('conformance, the server side: a manifest the client refuses, rcp-server refuses to create', () => {
  it.each(refusedAtTools.map((c) => [c.id, c] as const))('%s', (_id, raw) => {
    const c = substitute(raw, { origin, other: 'http://127.0.0.2:9' });
    const declared = declare(c, undefined);
    if (typeof declared === 'string') return;
    let error: unknown;
    try {
      createFor(c, declared.tools);
    } catch (caught) {
      error = caught;
    }
    expect(isRcpError(error, 'RCP_INVALID_MANIFEST') || isRcpError(error, 'RCP_INVALID_OPTIONS')).toBe(true);
    if (isRcpError(error, 'RCP_INVALID_MANIFEST')) {
      expect(error.issues.map((issue) => issue.path)).toEqual(c.expect.error!.pointers);
    }
  });
});

/** Calls the client refuses for the resolved file itself (M27.17: its media type, its size, the upload limit). */
const refusedFiles = cases.filter(
  (c) =>
    c.call !== undefined && c.expect.error?.code === 'RCP_INVALID_ARGUMENTS' && (c.expect.error.issues ?? []).some((issue) => /^\/\S+ the file/.test(issue)),
);

describe('conformance, the server side: a file the client refuses, sent by hand, rcp-server refuses too', () => {
  it.each(refusedFiles.map((c) => [c.id, c] as const))('%s', async (_id, raw) => {
    const c = substitute(raw, { origin, other: 'http://127.0.0.2:9' });
    const declared = declare(c, c.response) as Declared;
    const manifest = c.manifest as { rcpVersion?: RcpVersion };
    current = createRcpServer({
      tools: declared.tools,
      ...(manifest.rcpVersion !== undefined && { rcpVersion: manifest.rcpVersion }),
      ...(c.client?.maxUploadBytes !== undefined && { maxUploadBytes: c.client.maxUploadBytes }),
    });
    // The body the client would have sent had it not checked the file: the platform's FormData, by hand.
    const files = fileParams(c, c.call!.tool);
    const form = new FormData();
    for (const [name, value] of Object.entries(c.call!.args as Record<string, unknown>)) {
      const file = files.has(name) ? c.client!.files![value as string]! : undefined;
      if (file !== undefined) form.append(name, new File([Buffer.from(file.base64, 'base64')], file.filename, { type: file.mediaType }));
      else form.append(name, typeof value === 'string' ? value : JSON.stringify(value));
    }
    const url = (c.manifest as { tools: { name: string; url: string }[] }).tools.find((tool) => tool.name === c.call!.tool)!.url;
    const response = await fetch(new URL(url, origin), { method: 'POST', body: form });
    const problem = (await response.json()) as { code: string; errors?: { pointer: string }[] };
    expect([400, 413]).toContain(response.status);
    expect(problem.code).toBe('RCP_INVALID_ARGUMENTS');
    // At the param the client names, when the server names one (the body's own limit is the whole body's).
    const pointers = (c.expect.error!.issues ?? []).map((issue) => issue.split(' ')[0]);
    if (problem.errors !== undefined) expect(problem.errors.map((error) => error.pointer)).toEqual(pointers);
    expect(declared.calls).toEqual([]);
  });
});

describe('conformance, the server side: a streamed answer the client fails, served by rcp-server', () => {
  it.each(failingStreams.map((c) => [c.id, c] as const))('%s', async (_id, raw) => {
    const c = substitute(raw, { origin, other: 'http://127.0.0.2:9' });
    const declared = declare(c, c.response) as Declared;
    current = createFor(c, declared.tools);
    const client = clientFor(c);
    const discovery = await client.discover(`${origin}/rcp/manifest`);
    let error: unknown;
    try {
      await client.execute(discovery.tool(c.call!.tool), c.call!.args ?? {});
    } catch (caught) {
      error = caught;
    }
    expect(declared.calls.map((call) => call.tool)).toEqual([c.call!.tool]);
    const expected = c.expect.error!;
    expect(isRcpError(error) && error.code).toBe(expected.code);
    if (expected.problem !== undefined) expect((error as { problem?: string }).problem).toBe(expected.problem);
    if (expected.event !== undefined) expect((error as { event?: number }).event).toBe(expected.event);
    for (const text of (expected as { notContaining?: string[] }).notContaining ?? []) expect(String((error as Error).message)).not.toContain(text);
  });
});
