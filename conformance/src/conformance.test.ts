import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRcpClient, isRcpError, type RcpClientTool, type RcpExecuteResult } from 'rcp-client';
import { sendJson, startTestServer, type TestServer } from 'rcp-test-utils';
import { CONFORMANCE_DIR, loadCases, substitute, type ConformanceCase } from './cases';

const cases = loadCases();
let server: TestServer;
let other: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  other = await startTestServer();
});
afterAll(async () => {
  await server.close();
  await other.close();
});

/** The message, issues and causes of an error, as text (what must never hold a secret). */
function everything(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current instanceof Error; depth++) {
    parts.push(current.message, current.stack ?? '', JSON.stringify(current));
    current = current.cause;
  }
  return parts.join('\n');
}

/** Runs one case; returns what it observed, for the assertions. */
async function run(raw: ConformanceCase) {
  server.reset();
  other.reset();
  const c = substitute(raw, { origin: server.origin, other: other.origin });
  let answered = 0;
  const answer = (res: Parameters<Parameters<TestServer['route']>[1]>[1]) => {
    const response = c.responses?.[answered++] ?? c.response ?? {};
    const headers = response.headers ?? {};
    if (response.text !== undefined || response.base64 !== undefined) {
      const bytes = response.base64 !== undefined ? Buffer.from(response.base64, 'base64') : Buffer.from(response.text!, 'utf8');
      const type =
        response.contentType === undefined ? { 'content-type': 'text/plain' } : response.contentType === null ? {} : { 'content-type': response.contentType };
      res.writeHead(response.status ?? 200, { ...type, 'content-length': bytes.byteLength, ...headers });
      res.end(bytes);
    } else sendJson(res, response.status ?? 200, response.body ?? {}, headers);
  };
  // Every path answers the case's tool response; the manifest path answers the manifest.
  for (const target of [server, other]) target.route('*', (_request, res) => answer(res));
  server.route('GET /rcp/manifest', (_request, res) => {
    const text = c.manifestResponse;
    if (text !== undefined) {
      res.writeHead(text.status ?? 200, { 'content-type': text.contentType ?? 'application/json' });
      res.end(text.text);
    } else sendJson(res, 200, c.manifest);
  });
  const resolvers = Object.fromEntries(Object.entries(c.client?.resolvers ?? {}).map(([name, value]) => [name, () => value]));
  const client = createRcpClient({
    resolvers,
    retry: c.client?.retry ?? 0,
    ...(c.client?.credential !== undefined && { credentials: () => c.client!.credential }),
    ...(c.client?.trustedOrigins !== undefined && { trustedOrigins: c.client.trustedOrigins }),
    ...(c.client?.allowPrivateNetwork !== undefined && { allowPrivateNetwork: c.client.allowPrivateNetwork }),
    ...(c.client?.maxResponseBytes !== undefined && { maxResponseBytes: c.client.maxResponseBytes }),
    ...(c.client?.maxMediaBytes !== undefined && { maxMediaBytes: c.client.maxMediaBytes }),
    ...(c.client?.mediaTypes !== undefined && { mediaTypes: c.client.mediaTypes }),
    ...(c.client?.timeout !== undefined && { timeout: c.client.timeout }),
    ...(c.client?.maxUploadBytes !== undefined && { maxUploadBytes: c.client.maxUploadBytes }),
    files: (reference: string) => {
      const file = c.client?.files?.[reference];
      return file && { bytes: new Uint8Array(Buffer.from(file.base64, 'base64')), mediaType: file.mediaType, filename: file.filename };
    },
  });
  let tools: readonly RcpClientTool[] = [];
  let warnings: readonly { path: string }[] = [];
  let error: unknown;
  let data: unknown;
  let result: RcpExecuteResult | undefined;
  let preparedBody: unknown;
  try {
    const discovery = await client.discover(c.manifestUrl ?? server.url('/rcp/manifest'));
    tools = discovery.tools;
    warnings = discovery.warnings;
    if (c.call !== undefined) {
      const tool = discovery.tool(c.call.tool);
      if (c.expect.preparedBody !== undefined) preparedBody = (await client.prepare(tool, c.call.args ?? {})).body;
      result = await client.execute(tool, c.call.args ?? {});
      data = result.data;
    }
    if (c.resume !== undefined) {
      result = await client.resume(discovery, c.resume);
      data = result.data;
    }
  } catch (caught) {
    error = caught;
  }
  const requests = [...server.requests, ...other.requests];
  const manifestRequests = server.requests.filter((request) => request.path === '/rcp/manifest');
  const toolRequests = requests.filter((request) => !(request.path === '/rcp/manifest' && server.requests.includes(request)));
  return { c, tools, warnings, error, data, result, preparedBody, manifestRequests, toolRequests };
}

/** A multipart body's parts, parsed by undici's multipart parser (not the client's encoder), as a case lists them. */
async function partsOf(bytes: Uint8Array, contentType: string): Promise<unknown[]> {
  const form = await new Response(bytes, { headers: { 'content-type': contentType } }).formData();
  const parts: unknown[] = [];
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') parts.push({ name, value });
    else {
      const sha256 = createHash('sha256')
        .update(new Uint8Array(await value.arrayBuffer()))
        .digest('hex');
      parts.push({ name, filename: value.name, contentType: value.type, sha256 });
    }
  }
  return parts;
}

describe(`conformance: ${cases.length} cases from /conformance/cases`, () => {
  it('has at least 150 cases, each with a unique id, a SPEC section and a description', () => {
    expect(cases.length).toBeGreaterThanOrEqual(150);
    const ids = cases.map((entry) => entry.case.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { case: c } of cases) {
      expect(c.spec, c.id).toMatch(/^§\d+/);
      expect(c.description.length, c.id).toBeGreaterThan(0);
    }
  });

  it("covers every MUST of SPEC.md: each mark has a case, each case's mark is in SPEC", () => {
    const spec = readFileSync(`${CONFORMANCE_DIR}../SPEC.md`, 'utf8');
    const body = spec.slice(0, spec.indexOf('## Appendix B'));
    const marks = new Set([...body.matchAll(/\*\*\[(M[0-9.]+[a-z]?)\]\*\*/g)].map((match) => match[1]!));
    const covered = new Set(cases.flatMap((entry) => entry.case.must ?? []));
    expect(
      [...marks].filter((mark) => !covered.has(mark)),
      'marks without a case',
    ).toEqual([]);
    expect(
      [...covered].filter((mark) => !marks.has(mark)),
      'case marks SPEC does not have',
    ).toEqual([]);
  });

  it.each(cases.map((entry) => [`${entry.file} ${entry.case.id}`, entry.case] as const))('%s', async (_name, raw) => {
    const { c, tools, warnings, error, data, result, preparedBody, manifestRequests, toolRequests } = await run(raw);
    const expected = c.expect;
    if (expected.error !== undefined) {
      expect(error, 'expected an error').toBeDefined();
      expect(isRcpError(error) ? error.code : String(error)).toBe(expected.error.code);
      if (expected.error.pointers !== undefined) {
        const issues = (error as { issues?: { path: string }[] }).issues ?? [];
        expect(issues.map((issue) => issue.path)).toEqual(expected.error.pointers);
      }
      if (expected.error.issues !== undefined) {
        const issues = (error as { issues?: { path: string; message: string }[] }).issues ?? [];
        expect(issues.map((issue) => `${issue.path} ${issue.message}`)).toEqual(expected.error.issues);
      }
      for (const secret of expected.error.notContaining ?? []) expect(everything(error)).not.toContain(secret);
      if (expected.error.retryAfterSeconds !== undefined) {
        expect((error as { retryAfterSeconds?: number }).retryAfterSeconds ?? null).toBe(expected.error.retryAfterSeconds);
      }
      if (expected.error.problem !== undefined) expect((error as { problem?: string }).problem).toBe(expected.error.problem);
      if (expected.error.event !== undefined) expect((error as { event?: number }).event).toBe(expected.error.event);
      // An error before sending: nothing but the manifest reached any server.
      if (expected.request === undefined) expect(toolRequests.map((request) => `${request.method} ${request.url}`)).toEqual([]);
    } else {
      if (error !== undefined) throw error;
    }
    if (expected.manifestRequest !== undefined) {
      expect(manifestRequests).toHaveLength(1);
      expect(manifestRequests[0]!.method).toBe(expected.manifestRequest.method);
      for (const [name, value] of Object.entries(expected.manifestRequest.headers ?? {})) {
        expect(manifestRequests[0]!.headers[name]).toBe(value);
      }
    }
    if (expected.requests !== undefined) {
      expect(toolRequests).toHaveLength(expected.requests.count);
      for (const name of expected.requests.sameHeaders ?? []) {
        expect(toolRequests[0]!.headers[name], name).toBeDefined();
        for (const received of toolRequests) expect(received.headers[name], name).toBe(toolRequests[0]!.headers[name]);
      }
    }
    if (expected.request !== undefined) {
      if (expected.requests === undefined) expect(toolRequests).toHaveLength(1);
      const received = toolRequests[0]!;
      const origin = other.requests.includes(received) ? other.origin : server.origin;
      expect(`${received.method} ${origin}${received.url}`).toBe(`${expected.request.method} ${expected.request.url}`);
      for (const [name, value] of Object.entries(expected.request.headers ?? {})) expect(received.headers[name], name).toBe(value);
      for (const name of expected.request.absentHeaders ?? []) expect(received.headers[name], name).toBeUndefined();
      for (const [name, pattern] of Object.entries(expected.request.headerPatterns ?? {}))
        expect(String(received.headers[name]), name).toMatch(new RegExp(pattern));
      if (expected.request.body !== undefined) expect(received.body).toBe(expected.request.body);
      if (expected.request.parts !== undefined) {
        expect(await partsOf(received.bytes, String(received.headers['content-type']))).toEqual(expected.request.parts);
      }
    }
    if (expected.preparedBody !== undefined) expect(preparedBody).toEqual(expected.preparedBody);
    if ('data' in expected) expect(data).toEqual(expected.data);
    if (expected.schema !== undefined) expect(tools[0]?.inputSchema).toEqual(expected.schema);
    if (expected.warnings !== undefined) expect(warnings.map((warning) => warning.path)).toEqual(expected.warnings);
    if (expected.effects !== undefined) expect(tools[0]?.effects).toEqual(expected.effects);
    if (expected.auth !== undefined) expect(tools[0]?.auth).toEqual(expected.auth);
    if (expected.media !== undefined) {
      const media = result?.media;
      expect(media === undefined ? null : { mediaType: media.mediaType, base64: Buffer.from(media.bytes).toString('base64') }).toEqual(expected.media);
    }
    if (expected.page !== undefined) expect(result?.page ?? null).toEqual(expected.page);
    if (expected.truncated !== undefined) expect(result?.truncated === true).toBe(expected.truncated);
    if (expected.outputSchema !== undefined) expect(tools[0]?.outputSchema ?? null).toEqual(expected.outputSchema);
    if (expected.groups !== undefined) expect(tools.map((tool) => tool.group ?? null)).toEqual(expected.groups);
    if (expected.pending !== undefined) {
      const pending = result?.pending;
      expect(pending === undefined ? null : { checkAfterSeconds: pending.checkAfterSeconds }).toEqual(expected.pending);
      if (pending !== undefined) expect(pending.handle).toMatch(/^rcp1\.[A-Za-z0-9_-]+$/);
    }
  });
});
