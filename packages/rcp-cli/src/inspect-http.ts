import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isRecord } from 'rcp-internal';

/** Where the built inspector page is (copied into dist/inspector by the build). */
const PAGE_DIR = fileURLToPath(new URL('./inspector/', import.meta.url));
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};
const MAX_REQUEST_BYTES = 256 * 1024;
/**
 * On every response, page and API. The page is one module script, one stylesheet and fetches to
 * this server, all same-origin ('self'); its icon is `data:`. Nothing may frame it, post a form
 * from it, change its base URL or embed a plugin; no referrer leaves it; no type is sniffed.
 */
const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
};

export type Json = Record<string, unknown>;

/** A JSON answer, with the security headers. */
export function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(text);
}

/** A file of the built page (`/` is its index.html, which is given the session key); 404 outside it. */
export async function sendPage(path: string, session: string, res: ServerResponse): Promise<void> {
  const file = normalize(join(PAGE_DIR, path === '/' ? 'index.html' : path.slice(1)));
  if (!file.startsWith(PAGE_DIR)) return send(res, 404, { error: 'not found' });
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch {
    return send(res, 404, { error: 'not found' });
  }
  const type = TYPES[extname(file)] ?? 'application/octet-stream';
  const body = file.endsWith('index.html') ? Buffer.from(bytes.toString('utf8').replace('%RCP_SESSION%', session)) : bytes;
  res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': type, 'cache-control': 'no-store' });
  res.end(body);
}

/** A request's JSON object body, at most {@link MAX_REQUEST_BYTES}. */
export async function readJson(req: IncomingMessage): Promise<Json> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > MAX_REQUEST_BYTES) throw new Error('request too large');
    chunks.push(chunk);
  }
  const value = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  if (!isRecord(value)) throw new Error('expected a JSON object');
  return value;
}

/** The string entries of a value (the page's `resolve` and `ctx` maps); `{}` for anything else. */
export function stringMap(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null) return {};
  return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}
