/**
 * Answering one routed call, in the order docs/behaviour.md gives: auth, arguments, bound params, then
 * the handler, whose result becomes the response.
 */
import type { VerifyHook } from '../create-rcp-server';
import { escapePointerToken } from 'rcp-internal';
import { problemResponse } from '../problem';
import { readBody } from './collect-arguments';
import type { CompiledRoute } from './compile-route';
import type { AnyServerTool } from '../define-tool';
import { type IdempotencyContext, runIdempotent } from './idempotent-call';
import { isEventSource, streamResponse } from './stream-response';

/** What every call of one server shares. */
export interface CallContext<Principal> {
  readonly verify: VerifyHook<Principal> | undefined;
  /** The `Link` header value added to tool responses, or `undefined` when turned off. */
  readonly describedBy: string | undefined;
  /** Where idempotency keys are kept, when a tool declares idempotency (RCP 0.4). */
  readonly idempotency: IdempotencyContext<Principal> | undefined;
}

/**
 * Runs the call's steps; the first that refuses answers (401, 400/413/415, 403, then for a tool
 * with idempotency 400/409/422 or the stored response), else the handler does.
 */
export async function answerCall<Principal>(
  context: CallContext<Principal>,
  route: CompiledRoute<Principal>,
  request: Request,
  pathValues: Map<string, string>,
): Promise<Response> {
  let principal = undefined as Principal;
  if (route.needsAuth) {
    const verified = await context.verify!(request);
    if (verified instanceof Response) return verified;
    if (verified === undefined || verified === null) {
      return problemResponse(401, 'RCP_MISSING_CREDENTIALS', 'This tool needs a valid credential');
    }
    principal = verified;
  }
  // An idempotent call's fingerprint covers its body bytes: read them once, hand on a request that still has them.
  let body: Uint8Array | undefined;
  if (route.idempotent !== undefined) {
    const bytes = await readBody(request, route.maxBodyBytes);
    if (bytes instanceof Response) return bytes;
    body = bytes;
    request = new Request(request, { body: bytes });
  }
  const values = await route.read(request, pathValues);
  if (values instanceof Response) return values;
  for (const { name, value } of route.bound) {
    const expected = value(principal);
    if (expected === undefined || expected === null || values[name] !== expected) {
      return problemResponse(403, 'RCP_FORBIDDEN_PARAM', `"${name}" is not the caller's`, {
        errors: [{ pointer: `/${escapePointerToken(name)}`, detail: "is not the caller's" }],
      });
    }
  }
  const handle = async () => {
    const result = await route.handler({ values, principal, request, tool: route.tool.name });
    return withLink(handlerResponse(result, route.tool), context.describedBy);
  };
  if (route.idempotent === undefined || context.idempotency === undefined || body === undefined) return handle();
  return runIdempotent(context.idempotency, route.idempotent, request, body, principal, handle);
}

/**
 * The response for what a handler returned: a `Response` as it is; for a tool with a `stream`
 * (RCP 0.4), an iterable or async iterable of events streamed in its format (anything else is a
 * `TypeError`: the tool's manifest promised a stream); `undefined` as 204; bytes (an
 * `ArrayBuffer`, a typed array or `DataView` — Node's `Buffer` is one — or a `Blob`) as
 * themselves, typed with the tool's one declared media type (a `Blob`'s own type first) or
 * `application/octet-stream`; any other value as 200 JSON.
 */
export function handlerResponse(result: unknown, tool: Pick<AnyServerTool<never>, 'name' | 'responseMediaTypes' | 'stream'>): Response {
  if (result instanceof Response) return result;
  if (tool.stream !== undefined) {
    if (isEventSource(result)) return streamResponse(tool.stream.format, result);
    throw new TypeError(`Tool "${tool.name}" declares a stream, so its handler must return an iterable or async iterable of events, or a Response`);
  }
  const responseMediaTypes = tool.responseMediaTypes;
  if (result === undefined) return new Response(null, { status: 204 });
  if (result instanceof Blob) {
    return new Response(result, { headers: { 'content-type': result.type === '' ? bytesType(responseMediaTypes) : result.type } });
  }
  if (result instanceof ArrayBuffer || ArrayBuffer.isView(result)) {
    const bytes = result instanceof ArrayBuffer ? new Uint8Array(result) : new Uint8Array(result.buffer, result.byteOffset, result.byteLength);
    return new Response(bytes, { headers: { 'content-type': bytesType(responseMediaTypes) } });
  }
  return Response.json(result);
}

/** The type of a bytes answer: the tool's declared media type when it declares exactly one and it is not a range. */
function bytesType(responseMediaTypes: readonly string[] | undefined): string {
  const only = responseMediaTypes?.length === 1 ? responseMediaTypes[0]! : undefined;
  return only === undefined || only.endsWith('/*') ? 'application/octet-stream' : only;
}

function withLink(response: Response, describedBy: string | undefined): Response {
  if (describedBy === undefined || response.headers.has('link')) return response;
  const copy = new Response(response.body, response);
  copy.headers.set('link', describedBy);
  return copy;
}
