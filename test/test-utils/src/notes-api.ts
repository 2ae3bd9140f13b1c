import { sendJson, startTestServer, type TestServer } from './test-server';

/** The bearer token the notes API expects. */
export const NOTES_TOKEN = 'notes-token-123';

/**
 * A small notes API's manifest (what a new user wires into an agent): list, get, create with a
 * JSON body, delete; bearer auth; a `userId` only the app may fill (bind a resolver to it).
 */
export const notesManifest = {
  rcpVersion: '0.1',
  auth: { type: 'header', name: 'Authorization', scheme: 'Bearer' },
  tools: [
    {
      name: 'list_notes',
      description: "Lists the user's notes.",
      method: 'GET',
      url: '/users/{{userId}}/notes',
      queryParams: { tag: '{{tag}}' },
      params: [
        { name: 'userId', required: true, description: 'Whose notes' },
        { name: 'tag', description: 'Only notes with this tag' },
      ],
    },
    {
      name: 'get_note',
      description: 'Gets one note.',
      method: 'GET',
      url: '/users/{{userId}}/notes/{{noteId}}',
      params: [
        { name: 'userId', required: true },
        { name: 'noteId', required: true, description: 'A note id from list_notes' },
      ],
    },
    {
      name: 'create_note',
      description: 'Creates a note.',
      method: 'POST',
      url: '/users/{{userId}}/notes',
      body: { title: '{{title}}', text: '{{text}}', pinned: '{{pinned}}' },
      params: [
        { name: 'userId', required: true },
        { name: 'title', required: true, description: 'The title' },
        { name: 'text', description: 'The body text' },
        { name: 'pinned', type: 'boolean', description: 'Keep it on top' },
      ],
    },
    {
      name: 'delete_note',
      description: 'Deletes a note.',
      method: 'DELETE',
      url: '/users/{{userId}}/notes/{{noteId}}',
      params: [
        { name: 'userId', required: true },
        { name: 'noteId', required: true },
      ],
    },
  ],
} as const;

/**
 * Starts the notes API on 127.0.0.1: it serves {@link notesManifest} at `/rcp/manifest` and
 * answers for user `u-1` (note `n-1` exists); every request is recorded. Returns the server
 * and the manifest URL.
 */
export async function startNotesApi(): Promise<{ server: TestServer; manifestUrl: string }> {
  const server = await startTestServer();
  server.route('GET /rcp/manifest', (_request, res) => sendJson(res, 200, notesManifest));
  const authorised = (headers: Record<string, unknown>) => headers.authorization === `Bearer ${NOTES_TOKEN}`;
  server.route('GET /users/u-1/notes', (request, res) =>
    authorised(request.headers) ? sendJson(res, 200, [{ id: 'n-1', title: 'Groceries' }]) : sendJson(res, 401, { error: 'unauthorised' }),
  );
  server.route('GET /users/u-1/notes/n-1', (request, res) =>
    authorised(request.headers) ? sendJson(res, 200, { id: 'n-1', title: 'Groceries', text: 'eggs' }) : sendJson(res, 401, {}),
  );
  server.route('POST /users/u-1/notes', (request, res) => sendJson(res, 201, { id: 'n-2', ...(request.json as object) }));
  server.route('DELETE /users/u-1/notes/n-1', (_request, res) => {
    res.writeHead(204);
    res.end();
  });
  return { server, manifestUrl: server.url('/rcp/manifest') };
}

/** What a server received besides its manifest, as `METHOD /path` lines: the tool calls that reached it. */
export function toolRequestLines(server: TestServer): string[] {
  return server.requests.filter((request) => request.path !== '/rcp/manifest').map((request) => `${request.method} ${request.path}`);
}
