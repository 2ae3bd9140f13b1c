/**
 * Token answers that give no usable token (issue 38): a token the client cannot send, a 3xx or
 * 5xx answer, and an OAuth error that echoes the client secret in another spelling. A loopback
 * token endpoint plays each answer; a loopback tool API shows that nothing reached the tool.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRcpClient, isRcpError, toModelResult } from 'rcp-client';
import { sendJson, serveManifest, startTestServer, type TestRouteHandler, type TestServer } from 'rcp-test-utils';
import { notesManifest } from 'rcp-test-utils/oauth';
import { clientCredentials, RcpTokenError, refreshTokenGrant } from './index';

let api: TestServer;
let tokenServer: TestServer;
let manifestUrl: string;
/** What the token endpoint answers next. */
let answer: TestRouteHandler;

beforeAll(async () => {
  api = await startTestServer({ 'GET /notes': (_request, res) => sendJson(res, 200, []) });
  manifestUrl = serveManifest(api, notesManifest() as never, '/rcp/manifest');
  tokenServer = await startTestServer({ 'POST /token': (request, res, req) => answer(request, res, req) });
});
afterEach(() => {
  api.reset();
  tokenServer.reset();
});
afterAll(async () => {
  await api.close();
  await tokenServer.close();
});

const SECRET = 'p@ss word+x/y!~';
const provider = (clientAuthentication: 'client_secret_basic' | 'client_secret_post' = 'client_secret_basic') =>
  clientCredentials({ tokenEndpoint: tokenServer.url('/token'), clientId: 'notes agent', clientSecret: SECRET, clientAuthentication });
const toolRequests = () => api.requests.filter((request) => request.path !== '/rcp/manifest');

/** One call of `list_notes`: its error, the token error that caused it, and everything either shows, as text. */
async function failedCall(client: ReturnType<typeof createRcpClient>) {
  const outcome = await client.call(await client.discover(manifestUrl), { name: 'list_notes', arguments: {} });
  if (outcome.ok) throw new Error('the call succeeded');
  const { error } = outcome;
  expect(isRcpError(error, 'RCP_MISSING_CREDENTIALS')).toBe(true);
  const cause = error.cause as RcpTokenError;
  expect(cause).toBeInstanceOf(RcpTokenError);
  const shown = JSON.stringify([error, cause, error.message, cause.message, String(error.stack), String(cause.stack), toModelResult(outcome)]);
  return { error, cause, shown };
}

describe('a token the client cannot send is a token error, and nothing is cached', () => {
  // Before: such a token was cached for its whole lifetime and every call failed with the client's
  // "not a valid header value" until it expired; now each call asks again and reads why.
  const unsendable: [string, string][] = [
    ['CR/LF (a header split)', 'tok-1\r\nX-Admin: yes'],
    ['a character outside Latin-1', 'tok-\u0100-2'],
    ['only blanks', '\u00a0\u00a0'],
    ['a space at an end', 'tok-3 '],
  ];
  it.each(unsendable)('%s: RcpTokenError with the status, the token never shown; the next call asks the endpoint again', async (_what, token) => {
    answer = (_request, res) => sendJson(res, 200, { access_token: token, token_type: 'Bearer', expires_in: 3600 });
    const client = createRcpClient({ ...provider() });
    const first = await failedCall(client);
    expect(first.cause).toMatchObject({ status: 200, grant: 'client_credentials', error: undefined });
    expect(first.cause.message).toContain('the access token cannot be sent in a header');
    expect(first.shown).not.toContain(JSON.stringify(token).slice(1, -1));
    await failedCall(client);
    expect(tokenServer.count).toBe(2);
    expect(toolRequests()).toEqual([]);
  });

  it('the refresh-token grant refuses it the same way', async () => {
    answer = (_request, res) => sendJson(res, 200, { access_token: 'tok\nX: 1', token_type: 'Bearer', refresh_token: 'r-2' });
    const grant = refreshTokenGrant({ tokenEndpoint: tokenServer.url('/token'), clientId: 'notes agent', clientSecret: SECRET });
    await expect(grant('r-1')).rejects.toMatchObject({ code: 'RCP_MISSING_CREDENTIALS', status: 200, grant: 'refresh_token' });
  });
});

describe('RcpTokenError.status is the status of every token answer', () => {
  const answers: [number, TestRouteHandler][] = [
    [
      500,
      (_request, res) => {
        res.writeHead(500, { 'content-type': 'text/html' });
        res.end('<h1>Internal error</h1>');
      },
    ],
    [503, (_request, res) => sendJson(res, 503, { message: 'down for maintenance' })],
    [
      302,
      (_request, res) => {
        res.writeHead(302, { location: 'https://login.example/elsewhere' });
        res.end();
      },
    ],
    [200, (_request, res) => sendJson(res, 200, { token_type: 'Bearer' })],
    [401, (_request, res) => sendJson(res, 401, { error: 'invalid_client' })],
  ];
  it.each(answers)('HTTP %i', async (status, play) => {
    answer = play;
    const { cause } = await failedCall(createRcpClient({ ...provider() }));
    expect(cause.status).toBe(status);
    expect(cause.message).toContain(`(status ${status})`);
    expect(tokenServer.count).toBe(1);
    expect(toolRequests()).toEqual([]);
  });

  it('no status when no answer came (the endpoint is down)', async () => {
    const down = await startTestServer();
    const endpoint = down.url('/token');
    await down.close();
    const client = createRcpClient({ ...clientCredentials({ tokenEndpoint: endpoint, clientId: 'notes agent', clientSecret: SECRET }) });
    const { cause } = await failedCall(client);
    expect(cause.status).toBeUndefined();
  });
});

describe('the client secret is taken out of a token error in every spelling it may come back in', () => {
  // Before: only the secret as written and percent-encoded (%20 for a space) were taken out; a
  // server quoting the form-encoded body or the Basic credentials showed it.
  const spellings: [string, string][] = [
    ['as written', SECRET],
    ['percent-encoded', encodeURIComponent(SECRET)],
    ['form-encoded (URLSearchParams: + for a space)', new URLSearchParams([['', SECRET]]).toString().slice(1)],
    ['form-encoded as in Basic credentials (RFC 6749 §2.3.1)', 'p%40ss+word%2Bx%2Fy%21%7E'],
    ['percent-encoded in lower case', 'p%40ss+word%2bx%2fy%21%7e'],
    ['the Basic credentials', Buffer.from('notes+agent:p%40ss+word%2Bx%2Fy%21%7E').toString('base64')],
  ];
  it.each(spellings)('%s', async (_what, echoed) => {
    answer = (_request, res) => sendJson(res, 401, { error: 'invalid_client', error_description: `secret ${echoed} is not valid` });
    for (const method of ['client_secret_basic', 'client_secret_post'] as const) {
      const { cause, shown } = await failedCall(createRcpClient({ ...provider(method) }));
      expect(cause).toMatchObject({ status: 401, error: 'invalid_client' });
      expect(cause.errorDescription).toBe('secret [redacted] is not valid');
      expect(shown).not.toContain(echoed);
    }
  });

  it('what the token endpoint received is what those spellings name', async () => {
    answer = (_request, res) => sendJson(res, 401, { error: 'invalid_client' });
    await failedCall(createRcpClient({ ...provider('client_secret_basic') }));
    await failedCall(createRcpClient({ ...provider('client_secret_post') }));
    const [basic, post] = tokenServer.requests;
    expect(basic!.headers.authorization).toBe(`Basic ${spellings[5]![1]}`);
    expect(post!.body).toContain(`client_secret=${spellings[2]![1]}`);
  });
});
