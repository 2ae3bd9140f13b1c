import { RcpError } from 'rcp-errors';
import type { RcpClientTool } from '../client-tool';
import { RcpInvalidArgumentsError } from '../invalid-arguments-error';
import { RcpResolverError } from '../resolver-error';
import type { SendRequest } from './send';
import type { CompiledTool, ResolvedParam } from './tool-registry';
import { expectedType, kindOf } from './value-types';

/** Steps 1–4 done: the request to send, and the credential it carries (for redaction). */
export interface BuiltRequest {
  request: SendRequest;
  /** The JSON body before serialisation (for `prepare`). */
  body: unknown;
  credential: string | undefined;
  /** Strings the transport must redact from its errors: the credential and resolver values. */
  secrets: string[] | undefined;
}

// What a credential may contain to be sent in a header value: no CR, LF, NUL or other control.
const CREDENTIAL_TEXT = /^[\x20-\x7e\x80-\xff]+$/;

/** RFC 3986 unreserved-only percent-encoding, as rcp-template encodes path and query values. */
function percentEncode(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The forms in which a resolver value can appear in a URL, a header or an echoed body. */
function addSecretForms(value: unknown, secrets: string[]): void {
  if (Array.isArray(value)) {
    for (const element of value) addSecretForms(element, secrets);
    return;
  }
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return;
  const text = String(value);
  if (text === '') return;
  secrets.push(text);
  const encoded = percentEncode(text);
  if (encoded !== text) secrets.push(encoded);
}

type Settled = { ok: true; value: unknown } | { ok: false; error: unknown };

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

function resolverFailed(tool: RcpClientTool, entry: ResolvedParam, cause: unknown): RcpResolverError {
  return new RcpResolverError('RCP_RESOLVER_FAILED', `The resolver for param "${entry.name}" of tool "${tool.name}" threw`, {
    tool: tool.name,
    param: entry.name,
    cause,
  });
}

function accept(
  tool: RcpClientTool,
  entry: ResolvedParam,
  value: unknown,
  values: Record<string, unknown>,
  secrets: string[],
): void {
  if (value === undefined || value === null) {
    throw new RcpResolverError(
      'RCP_UNRESOLVED',
      `Param "${entry.name}" of tool "${tool.name}" could not be resolved: its resolver returned no value`,
      { tool: tool.name, param: entry.name },
    );
  }
  if (!entry.check(value)) {
    throw new RcpResolverError(
      'RCP_RESOLVER_FAILED',
      `The resolver for param "${entry.name}" of tool "${tool.name}" returned ${kindOf(value)}, ` +
        `but the param must be ${expectedType(entry.type)}`,
      { tool: tool.name, param: entry.name },
    );
  }
  values[entry.name] = value;
  addSecretForms(value, secrets);
}

/**
 * Step 2: calls each resolver the tool needs, once, all started before any is awaited; sync
 * resolvers cost no await. Problems are reported in param order.
 */
async function resolveValues(
  compiled: CompiledTool,
  tool: RcpClientTool,
  values: Record<string, unknown>,
  ctx: unknown,
  secrets: string[],
): Promise<void> {
  let pending: { entry: ResolvedParam; settled: Promise<Settled> }[] | undefined;
  for (const entry of compiled.resolved) {
    let result: unknown;
    try {
      result = entry.resolver(ctx, entry.info);
    } catch (error) {
      throw resolverFailed(tool, entry, error);
    }
    if (isThenable(result)) {
      const settled = Promise.resolve(result).then(
        (value): Settled => ({ ok: true, value }),
        (error: unknown): Settled => ({ ok: false, error }),
      );
      (pending ??= []).push({ entry, settled });
    } else if (pending === undefined) {
      accept(tool, entry, result, values, secrets);
    } else {
      pending.push({ entry, settled: Promise.resolve({ ok: true, value: result }) });
    }
  }
  if (pending === undefined) return;
  const outcomes = await Promise.all(pending.map((item) => item.settled));
  outcomes.forEach((outcome, i) => {
    const { entry } = pending[i]!;
    if (!outcome.ok) throw resolverFailed(tool, entry, outcome.error);
    accept(tool, entry, outcome.value, values, secrets);
  });
}

function missingCredentials(message: string, cause?: unknown): RcpError<'RCP_MISSING_CREDENTIALS'> {
  return new RcpError('RCP_MISSING_CREDENTIALS', message, cause === undefined ? {} : { cause });
}

/** Step 3: the credential for a tool whose effective auth is `header`. */
async function credentialFor(compiled: CompiledTool, tool: RcpClientTool, ctx: unknown): Promise<string> {
  const { auth, credentials } = compiled.auth!;
  const what = `Tool "${tool.name}" needs a credential (header "${auth.name}")`;
  if (credentials === undefined) throw missingCredentials(`${what} but the client has no "credentials" option`);
  let value: unknown;
  try {
    value = credentials({ manifestUrl: tool.manifestUrl, origin: tool.origin, tool, auth, ctx });
    if (isThenable(value)) value = await value;
  } catch (error) {
    throw missingCredentials(`${what} and the credentials provider threw`, error);
  }
  if (value === undefined || value === null || value === '') {
    throw missingCredentials(`${what} and the credentials provider returned none`);
  }
  if (typeof value !== 'string') throw missingCredentials(`${what}; the credentials provider must return a string`);
  if (!CREDENTIAL_TEXT.test(value) || value.trim() === '') {
    throw missingCredentials(`${what}; the credential returned is not a valid header value (control characters?)`);
  }
  return value;
}

function originRefused(message: string): RcpError<'RCP_ORIGIN_NOT_ALLOWED'> {
  return new RcpError('RCP_ORIGIN_NOT_ALLOWED', message);
}

/**
 * Steps 1–4 of a call: validate the arguments, run the resolvers, get the credential, render
 * the request and check its origin. Sends nothing.
 */
export async function buildRequest(
  compiled: CompiledTool,
  tool: RcpClientTool,
  args: unknown,
  ctx: unknown,
): Promise<BuiltRequest> {
  // 1. Arguments: own keys only, declared params only, types checked; a fresh null-prototype copy.
  const values = compiled.checkArguments(args);
  // The destination is fixed at discovery: refuse before any secret is even fetched.
  if (compiled.untrustedMessage !== undefined) throw originRefused(compiled.untrustedMessage);
  // 2. Resolvers.
  let secrets: string[] | undefined;
  if (compiled.resolved.length > 0) await resolveValues(compiled, tool, values, ctx, (secrets = []));
  // 3. Credential.
  const credential = compiled.auth === undefined ? undefined : await credentialFor(compiled, tool, ctx);
  if (credential !== undefined) (secrets ??= []).unshift(credential);
  // 4. Render (rcp-template errors pass through) and check the origin policy.
  const rendered = compiled.request.render(values);
  // Defence in depth: rcp-template never lets a value reach the scheme, host or port.
  if (!rendered.url.startsWith(compiled.urlPrefix)) {
    throw originRefused(`Tool "${tool.name}" rendered a URL outside its origin ${tool.origin}`);
  }
  if (compiled.isAllowed !== undefined && !compiled.isAllowed(rendered.url)) {
    throw originRefused(`The client's "allowOrigin" policy refuses ${tool.origin} (tool "${tool.name}")`);
  }

  let headers = rendered.headers;
  let body: string | undefined;
  if (rendered.body !== undefined) {
    try {
      body = JSON.stringify(rendered.body);
    } catch (error) {
      throw new RcpInvalidArgumentsError(tool.name, [{ path: '', message: 'cannot be serialised as a JSON body' }], {
        cause: error,
      });
    }
    if (compiled.contentTypeHeader === undefined || headers[compiled.contentTypeHeader] === undefined) {
      headers = { ...headers, 'content-type': 'application/json' };
    }
  }
  if (credential !== undefined) {
    const { auth, prefix, shadowedHeaders } = compiled.auth!;
    headers = { ...headers };
    for (const name of shadowedHeaders) delete headers[name];
    headers[auth.name] = prefix + credential;
  }
  const request: SendRequest =
    body === undefined
      ? { method: rendered.method, url: rendered.url, headers }
      : { method: rendered.method, url: rendered.url, headers, body };
  return { request, body: rendered.body, credential, secrets };
}
