/**
 * The upstream API: a keep-alive node:http server on 127.0.0.1:0, in its own process, answering the
 * seed tools' JSON, the RCP manifest (`/manifest`) and the UTCP manual (`/utcp`) for the same endpoints.
 */
import http from 'node:http';
import { profileResponse, searchResponse, seedManifest, utcpManual } from '../lib/seed.js';
import { serveAsChild } from './ipc.js';

const cache = new Map<string, Buffer>();
let origin = '';

function body(key: string, make: () => unknown): Buffer {
  let buffer = cache.get(key);
  if (buffer === undefined) {
    buffer = Buffer.from(JSON.stringify(make()));
    if (cache.size < 1_000) cache.set(key, buffer);
  }
  return buffer;
}

function send(res: http.ServerResponse, status: number, payload: Buffer): void {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': payload.length });
  res.end(payload);
}

const profilePath = /^\/learners\/([^/]+)\/profile$/;

const server = http.createServer((req, res) => {
  const url = req.url ?? '/';
  const queryStart = url.indexOf('?');
  const path = queryStart === -1 ? url : url.slice(0, queryStart);
  if (req.method !== 'GET') {
    send(
      res,
      405,
      body('405', () => ({ error: 'method not allowed' })),
    );
    return;
  }
  const profile = profilePath.exec(path);
  if (profile !== null) {
    const id = decodeURIComponent(profile[1]!);
    send(
      res,
      200,
      body(`p:${id}`, () => profileResponse(id)),
    );
    return;
  }
  if (path === '/courses/search') {
    const q = new URLSearchParams(url.slice(queryStart + 1)).get('q') ?? '';
    send(
      res,
      200,
      body(`s:${q}`, () => searchResponse(q)),
    );
    return;
  }
  if (path === '/manifest') {
    send(
      res,
      200,
      body('manifest', () => seedManifest),
    );
    return;
  }
  if (path === '/utcp') {
    send(
      res,
      200,
      body('utcp', () => utcpManual(origin)),
    );
    return;
  }
  send(
    res,
    404,
    body('404', () => ({ error: 'not found' })),
  );
});
// Keep idle connections open across segments (MCP segments can take several seconds).
server.keepAliveTimeout = 60_000;
server.headersTimeout = 65_000;
server.maxRequestsPerSocket = 0;

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  origin = `http://127.0.0.1:${address.port}`;
  serveAsChild(address.port);
});
