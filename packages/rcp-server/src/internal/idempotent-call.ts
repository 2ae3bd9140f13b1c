/**
 * Idempotent writes (RCP 0.4, SPEC §20.1 and §17): a call of a tool that declares `idempotency` carries a
 * key; its first response is stored and replayed for the same key and the same request, never run
 * twice. The key is scoped to its caller, and nothing a store holds is a secret in clear:
 *
 * - the record's key is a hash of (subject, client key);
 * - the fingerprint is an HMAC of the request (method, path and query, the tool's header values,
 *   the body bytes) under a key derived from (subject, client key);
 * - the response is sealed with AES-GCM under another key derived from the same.
 *
 * Whoever reads the store learns neither the keys, nor the requests, nor the responses.
 */
import type { RcpIdempotencyStore } from '../idempotency-store';
import { problemResponse } from '../problem';
import { parseIdempotencyKey } from './idempotency-key';

/** What every idempotent call of one server shares. */
export interface IdempotencyContext<Principal> {
  readonly store: RcpIdempotencyStore;
  /** How long an unfinished first request holds its key, in milliseconds. */
  readonly inFlightTtl: number;
  readonly subject: (principal: Principal) => string;
}

/** What one tool declares: the header, how long a key is kept (ms), the template headers that carry arguments. */
export interface IdempotentTool {
  readonly header: string;
  readonly ttl: number;
  readonly argumentHeaders: readonly string[];
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (let index = 0; index < bytes.length; index += 0x8000) binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

function fromBase64url(text: string): Uint8Array {
  const binary = atob(text.replaceAll('-', '+').replaceAll('_', '/'));
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((size, part) => size + part.byteLength, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
}

/** Web Crypto's key type, named from the global `crypto` (the core has no DOM library). */
type CryptoKey = Awaited<ReturnType<typeof crypto.subtle.deriveKey>>;
type DerivedAlgorithm = Parameters<typeof crypto.subtle.deriveKey>[2];
type KeyUsages = Parameters<typeof crypto.subtle.deriveKey>[4];

/** The keys one (subject, client key) pair gives: where its record is, how its requests are fingerprinted, how its response is sealed. */
interface KeySchedule {
  readonly recordKey: string;
  readonly fingerprintKey: CryptoKey;
  readonly sealKey: CryptoKey;
}

async function keySchedule(subject: string, clientKey: string): Promise<KeySchedule> {
  const material = encoder.encode(JSON.stringify([subject, clientKey]));
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', concat([encoder.encode('rcp idempotency record\0'), material])));
  const base = await crypto.subtle.importKey('raw', material, 'HKDF', false, ['deriveKey']);
  const derive = (info: string, algorithm: DerivedAlgorithm, usages: KeyUsages) =>
    crypto.subtle.deriveKey({ name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: encoder.encode(info) }, base, algorithm, false, usages);
  const [fingerprintKey, sealKey] = await Promise.all([
    derive('rcp idempotency fingerprint', { name: 'HMAC', hash: 'SHA-256', length: 256 }, ['sign']),
    derive('rcp idempotency response', { name: 'AES-GCM', length: 256 }, ['encrypt', 'decrypt']),
  ]);
  return { recordKey: base64url(digest), fingerprintKey, sealKey };
}

/** The request's fingerprint: method, path and query, the tool's argument headers, then the body bytes. */
async function fingerprint(schedule: KeySchedule, tool: IdempotentTool, request: Request, body: Uint8Array): Promise<string> {
  const url = new URL(request.url);
  const head = JSON.stringify([request.method, url.pathname + url.search, tool.argumentHeaders.map((name) => request.headers.get(name))]);
  const signature = await crypto.subtle.sign('HMAC', schedule.fingerprintKey, concat([encoder.encode(head), new Uint8Array([0]), body]));
  return base64url(new Uint8Array(signature));
}

/** Headers a replay does not repeat: the connection's own, and the length of a body sent anew. */
const NOT_STORED = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'date']);

interface StoredResponse {
  readonly status: number;
  readonly headers: readonly (readonly [string, string])[];
  readonly body: string;
}

async function seal(schedule: KeySchedule, response: StoredResponse): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, schedule.sealKey, encoder.encode(JSON.stringify(response)));
  return base64url(concat([iv, new Uint8Array(sealed)]));
}

async function unseal(schedule: KeySchedule, text: string): Promise<StoredResponse> {
  const bytes = fromBase64url(text);
  const opened = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: bytes.subarray(0, 12) }, schedule.sealKey, bytes.subarray(12));
  return JSON.parse(decoder.decode(opened)) as StoredResponse;
}

/** The first response, read whole: what is stored, and a copy to send (the original's body is consumed). */
async function capture(response: Response): Promise<{ stored: StoredResponse; sent: Response }> {
  const bytes = new Uint8Array(await response.arrayBuffer());
  const headers: [string, string][] = [];
  response.headers.forEach((value, name) => {
    if (!NOT_STORED.has(name) && name !== 'set-cookie') headers.push([name, value]);
  });
  for (const cookie of response.headers.getSetCookie()) headers.push(['set-cookie', cookie]);
  const stored = { status: response.status, headers, body: base64url(bytes) };
  return { stored, sent: replay(stored, false) };
}

function replay(stored: StoredResponse, replayed: boolean): Response {
  const headers = new Headers();
  for (const [name, value] of stored.headers) headers.append(name, value);
  if (replayed) headers.set('idempotent-replayed', 'true');
  const nullBody = stored.status === 204 || stored.status === 205 || stored.status === 304;
  return new Response(nullBody ? null : fromBase64url(stored.body), { status: stored.status, headers });
}

/**
 * Runs `handle` at most once per (caller, key, request): the key's first response is stored and
 * replayed; the same key with another request is a 422; a duplicate while the first runs is a
 * 409 (the draft's answer: the client retries later); a missing or malformed key is a 400. A
 * `handle` that throws gives the key back, so a retry can run.
 */
export async function runIdempotent<Principal>(
  context: IdempotencyContext<Principal>,
  tool: IdempotentTool,
  request: Request,
  body: Uint8Array,
  principal: Principal,
  handle: () => Promise<Response>,
): Promise<Response> {
  const parsed = parseIdempotencyKey(request.headers.get(tool.header));
  if (!parsed.ok) return problemResponse(400, 'RCP_IDEMPOTENCY_KEY_INVALID', `The ${tool.header} header ${parsed.problem}`);
  const schedule = await keySchedule(context.subject(principal), parsed.key);
  const print = await fingerprint(schedule, tool, request, body);
  const lease = crypto.randomUUID();
  const existing = await context.store.begin(schedule.recordKey, { fingerprint: print, lease }, context.inFlightTtl);
  if (existing !== undefined) {
    if (existing.fingerprint !== print) {
      return problemResponse(422, 'RCP_IDEMPOTENCY_KEY_REUSED', `This ${tool.header} was used for a different request; use a new key for a new request`);
    }
    if (existing.state === 'in-flight') {
      return problemResponse(409, 'RCP_IDEMPOTENCY_KEY_IN_USE', `A request with this ${tool.header} is still being processed; retry once it is done`);
    }
    return replay(await unseal(schedule, existing.response), true);
  }
  let response: Response;
  try {
    response = await handle();
  } catch (error) {
    // The handler's error is what the caller must see; a store that cannot release the key
    // leaves it held until its in-flight time to live ends.
    await context.store.release(schedule.recordKey, lease).catch(() => false);
    throw error;
  }
  const { stored, sent } = await capture(response);
  await context.store.complete(schedule.recordKey, lease, { fingerprint: print, response: await seal(schedule, stored) }, tool.ttl);
  return sent;
}
