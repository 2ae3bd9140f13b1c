import { sendJson, serveManifest, startTestServer, type TestServer } from 'rcp-test-utils';
import type { AuthorizationServer } from './authorization-server';

/** The notes API's manifest: bearer auth, a read and a write tool. */
export function notesManifest(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    rcpVersion: '0.1',
    auth: { type: 'header', name: 'Authorization', scheme: 'Bearer' },
    tools: [
      { name: 'list_notes', description: 'Lists the notes.', method: 'GET', url: '/notes', params: [] },
      {
        name: 'create_note',
        description: 'Creates a note.',
        method: 'POST',
        url: '/notes',
        body: { title: '{{title}}' },
        params: [{ name: 'title', required: true }],
      },
    ],
    ...extra,
  };
}

export interface ToolApi {
  readonly server: TestServer;
  readonly manifestUrl: string;
  /** The bearer token of every tool request, in order (`undefined`: none). */
  readonly tokens: (string | undefined)[];
  /** The challenge of its 401s. */
  challenge: string;
  /** Puts the validating routes back (after a test replaced one). */
  restore(): void;
}

/**
 * A loopback RCP API that validates each bearer token with the authorization server (its
 * token store, as introspection would) and answers 401 with a Bearer challenge when the token
 * is unknown, expired or revoked.
 */
export async function startToolApi(as: AuthorizationServer, manifest = notesManifest()): Promise<ToolApi> {
  const server = await startTestServer();
  const manifestUrl = serveManifest(server, manifest);
  const tokens: (string | undefined)[] = [];
  const api: ToolApi = {
    server,
    manifestUrl,
    tokens,
    challenge: 'Bearer error="invalid_token", error_description="The access token is not valid"',
    restore: () => {
      server.route('GET /notes', handler);
      server.route('POST /notes', handler);
    },
  };
  const handler = async (request: { headers: Record<string, unknown>; method: string; json: unknown }, res: import('node:http').ServerResponse) => {
    const header = request.headers.authorization;
    const token = typeof header === 'string' && header.startsWith('Bearer ') ? header.slice(7) : undefined;
    tokens.push(token);
    const claims = token === undefined ? undefined : await as.introspect(token);
    if (claims === undefined) {
      sendJson(res, 401, { error: 'invalid_token' }, { 'www-authenticate': api.challenge });
      return;
    }
    if (request.method === 'POST') sendJson(res, 201, { id: 'n-2', ...(request.json as object), client: claims.clientId });
    else sendJson(res, 200, { notes: [{ id: 'n-1' }], client: claims.clientId, scope: claims.scope, aud: claims.aud });
  };
  api.restore();
  return api;
}
