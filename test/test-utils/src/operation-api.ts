import { sendJson, serveManifest, startTestServer, type TestServer } from './test-server';

/** What `render_video` answers once its job is done: the `output` of the finished status. */
export const OPERATION_RESULT = { url: '/videos/v-1.mp4', seconds: 12 } as const;

/**
 * The manifest {@link startOperationApi} serves (RCP 0.4): `render_video`, a long-running tool
 * (SPEC §20.8: a `202` with a `Location`, polled every 60 seconds — longer than any call's
 * deadline, so a call answers `pending` at once), its `userId` filled by the client (bind a
 * resolver: it is what ties a handle to its user), and `get_status`, a plain JSON answer.
 */
export const operationManifest = {
  rcpVersion: '0.4',
  tools: [
    {
      name: 'render_video',
      description: 'Renders a video from a prompt.',
      method: 'POST',
      url: '/renders',
      headers: { 'X-User': '{{userId}}' },
      params: [
        { name: 'userId', required: true },
        { name: 'prompt', required: true, description: 'What the video shows' },
      ],
      body: { prompt: '{{prompt}}' },
      operation: { statusUrl: 'header:Location', state: '@status', done: ['succeeded'], failed: ['failed'], result: '@output', pollSeconds: 60 },
    },
    { name: 'get_status', description: 'Gets the status.', method: 'GET', url: '/status' },
  ],
} as const;

/**
 * Starts the long-running operation API on loopback: `POST /renders` (the user in `X-User`) answers `202`
 * with `Location: /jobs/j-1` and `{ "id": "j-1", "status": "queued" }`; `GET /jobs/j-1` answers
 * `{ "status": "running" }` until `finish()` is called, then `{ "status": "succeeded", "output":
 * OPERATION_RESULT }`; `GET /status` answers `{ "status": "ok" }`. Every adapter's operations test
 * uses it, so each stack checks the same pending job.
 */
export async function startOperationApi(): Promise<{ server: TestServer; manifestUrl: string; finish: () => void }> {
  const server = await startTestServer();
  const manifestUrl = serveManifest(server, operationManifest);
  let done = false;
  server.route('POST /renders', (_request, res) => sendJson(res, 202, { id: 'j-1', status: 'queued' }, { location: '/jobs/j-1' }));
  server.route('GET /jobs/j-1', (_request, res) => sendJson(res, 200, done ? { status: 'succeeded', output: OPERATION_RESULT } : { status: 'running' }));
  server.route('GET /status', (_request, res) => sendJson(res, 200, { status: 'ok' }));
  return {
    server,
    manifestUrl,
    finish: () => {
      done = true;
    },
  };
}
