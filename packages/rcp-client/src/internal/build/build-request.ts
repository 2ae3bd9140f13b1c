/**
 * Build, the first step of a call (SPEC §11 steps 1–4): the model's arguments validated once,
 * the resolvers' values filled in (typed, checked), the credential asked for, the request
 * rendered and its origin checked again. Nothing is sent here, and a build that needs no wait
 * stays synchronous; the call's deadline bounds it from outside (`execution/run-call.ts`).
 */
import { RcpError } from 'rcp-errors';
import { expectedType } from 'rcp-manifest';
import { kindOf } from 'rcp-internal';
import type { RcpClientTool } from '../../client-tool';
import { RcpInvalidArgumentsError } from '../../invalid-arguments-error';
import { RcpResolverError } from '../../resolver-error';
import { encodeFormBody, percentEncode } from 'rcp-template';
import { isHeaderValue } from 'rcp-internal';

const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';
import { REDACTED } from '../redaction/redact';
import type { SendRequest } from '../send/send';
import type { RequestBody } from '../send/transport-types';
import { buildMultipart } from './multipart';
import { checkArguments, requestOf, type CompiledTool, type ResolvedParam } from '../discovery/tool-registry';

/** Steps 1–4 done: the request to send, and the credential it carries (for redaction). */
export interface BuiltRequest {
  request: SendRequest;
  /** The URL as `prepare` shows it: a query credential replaced by `[redacted]`. */
  shownUrl: string;
  /**
   * The JSON body before serialisation, a form body's encoded text, or a multipart body's parts as a person is shown
   * them (`{ multipart: [...] }`: text values; each file's name, media type, size and SHA-256) — for `prepare`.
   */
  body: unknown;
  credential: string | undefined;
  /** The model's validated arguments (declared params only, before any resolver value). */
  args?: Readonly<Record<string, unknown>>;
  /** Every value the request was rendered with: the model's arguments and the resolvers' (for the next page's check). */
  values: Readonly<Record<string, unknown>>;
  /**
   * The strings the transport must redact from its errors — the credential, and each resolver
   * value as written and percent-encoded — computed only when an error needs them.
   */
  secrets: (() => string[]) | undefined;
}

/** What a call carries that must never show in an error: the credential and the resolver values. */
class CallSecrets {
  credential: string | undefined = undefined;
  readonly values: unknown[] = [];

  /** The strings to redact, credential first, then each resolver value's forms in param order. */
  readonly list = (): string[] => {
    const secrets: string[] = [];
    if (this.credential !== undefined) secrets.push(this.credential);
    for (const value of this.values) addSecretForms(value, secrets);
    return secrets;
  };
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
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

function resolverFailed(tool: RcpClientTool, entry: ResolvedParam, cause: unknown, ctx: unknown): RcpResolverError {
  if (ctx === undefined || ctx === null) {
    // A resolver reading a context the call did not pass: nothing to resolve from.
    return new RcpResolverError(
      'RCP_UNRESOLVED',
      `Param "${entry.name}" of tool "${tool.name}" could not be resolved: the call was given no context (pass ctx to execute, prepare or call)`,
      { tool: tool.name, param: entry.name, cause },
    );
  }
  return new RcpResolverError('RCP_RESOLVER_FAILED', `The resolver for param "${entry.name}" of tool "${tool.name}" threw`, {
    tool: tool.name,
    param: entry.name,
    cause,
  });
}

function accept(tool: RcpClientTool, entry: ResolvedParam, value: unknown, values: Record<string, unknown>, secrets: CallSecrets): void {
  if (value === undefined || value === null) {
    throw new RcpResolverError('RCP_UNRESOLVED', `Param "${entry.name}" of tool "${tool.name}" could not be resolved: its resolver returned no value`, {
      tool: tool.name,
      param: entry.name,
    });
  }
  if (!entry.check(value)) {
    throw new RcpResolverError(
      'RCP_RESOLVER_FAILED',
      `The resolver for param "${entry.name}" of tool "${tool.name}" returned ${kindOf(value)}, ` + `but the param must be ${expectedType(entry.type)}`,
      { tool: tool.name, param: entry.name },
    );
  }
  values[entry.name] = value;
  secrets.values.push(value);
}

/**
 * Step 2: calls each resolver the tool needs, once, all started before any is awaited.
 * Returns `undefined` when every resolver answered synchronously (no promise, no await), else
 * a promise of the same outcome. Problems are reported in param order.
 */
function resolveValues(
  compiled: CompiledTool,
  tool: RcpClientTool,
  values: Record<string, unknown>,
  ctx: unknown,
  secrets: CallSecrets,
): Promise<void> | undefined {
  let pending: { entry: ResolvedParam; settled: Promise<Settled> }[] | undefined;
  for (const entry of compiled.resolved) {
    let result: unknown;
    try {
      result = entry.resolver(ctx, entry.info);
    } catch (error) {
      throw resolverFailed(tool, entry, error, ctx);
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
  if (pending === undefined) return undefined;
  const waiting = pending;
  return Promise.all(waiting.map((item) => item.settled)).then((outcomes) => {
    outcomes.forEach((outcome, i) => {
      const { entry } = waiting[i]!;
      if (!outcome.ok) throw resolverFailed(tool, entry, outcome.error, ctx);
      accept(tool, entry, outcome.value, values, secrets);
    });
  });
}

function missingCredentials(message: string, cause?: unknown): RcpError<'RCP_MISSING_CREDENTIALS'> {
  return new RcpError('RCP_MISSING_CREDENTIALS', message, cause === undefined ? {} : { cause });
}

/** The credential a provider returned, or `RCP_MISSING_CREDENTIALS` when it is not a usable one. */
function checkedCredential(value: unknown, what: string, prefix: string): string {
  if (value === undefined || value === null || value === '') {
    throw missingCredentials(`${what} and the credentials provider returned none`);
  }
  if (typeof value !== 'string') throw missingCredentials(`${what}; the credentials provider must return a string`);
  if (!isHeaderValue(value) || value.trim() === '') {
    throw missingCredentials(`${what}; the credential returned is not a valid header value (control characters?)`);
  }
  if (prefix !== '' && value.slice(0, prefix.length).toLowerCase() === prefix.toLowerCase()) {
    // Sending it would double the scheme ("Bearer Bearer ..."): refused, never guessed at.
    throw missingCredentials(
      `${what}; the credentials provider returned a value that already starts with "${prefix.trim()}": return the bare token, the client adds the scheme`,
    );
  }
  return value;
}

/**
 * Step 3: the credential for a tool whose effective auth is `header` — directly when the
 * provider answers synchronously, else a promise of it.
 */
function credentialFor(compiled: CompiledTool, tool: RcpClientTool, ctx: unknown): string | Promise<string> {
  const { auth, credentials, prefix } = compiled.auth!;
  const what = `Tool "${tool.name}" needs a credential (${auth.type} "${auth.name}")`;
  if (credentials === undefined) throw missingCredentials(`${what} but the client has no "credentials" option`);
  let value: unknown;
  try {
    value = credentials({ manifestUrl: tool.manifestUrl, origin: tool.origin, tool, auth, ctx });
  } catch (error) {
    throw missingCredentials(`${what} and the credentials provider threw`, error);
  }
  if (!isThenable(value)) return checkedCredential(value, what, prefix);
  return Promise.resolve(value).then(
    (resolved) => checkedCredential(resolved, what, prefix),
    (error: unknown) => {
      throw missingCredentials(`${what} and the credentials provider threw`, error);
    },
  );
}

function originRefused(message: string): RcpError<'RCP_ORIGIN_NOT_ALLOWED'> {
  return new RcpError('RCP_ORIGIN_NOT_ALLOWED', message);
}

/**
 * Steps 1–4 of a call: validate the arguments, run the resolvers, get the credential, render
 * the request and check its origin. Sends nothing. When every resolver and the credentials
 * provider answer synchronously, so does this (no promise is created); otherwise it returns a
 * promise. Either way a problem is thrown (or rejected) at the same step.
 */
export function buildRequest(compiled: CompiledTool, tool: RcpClientTool, args: unknown, ctx: unknown): BuiltRequest | Promise<BuiltRequest> {
  // 1. Arguments: own keys only, declared params only, types checked; a fresh null-prototype copy.
  const values = checkArguments(compiled, args);
  // The destination is fixed at discovery: refuse before any secret is even fetched.
  if (compiled.untrustedMessage !== undefined) throw originRefused(compiled.untrustedMessage);
  // 2. Resolvers (into the same object: the model's arguments are kept apart first, for the approval policy).
  let secrets: CallSecrets | undefined;
  if (compiled.resolved.length > 0) {
    const modelArgs: Readonly<Record<string, unknown>> = { ...values };
    secrets = new CallSecrets();
    const resolving = resolveValues(compiled, tool, values, ctx, secrets);
    const held = secrets;
    const finish = (): BuiltRequest | Promise<BuiltRequest> => withArgs(withCredential(compiled, tool, values, ctx, held), modelArgs);
    return resolving === undefined ? finish() : resolving.then(finish);
  }
  return withArgs(withCredential(compiled, tool, values, ctx, secrets), values);
}

/** The built request with the model's validated arguments attached. */
function withArgs(built: BuiltRequest | Promise<BuiltRequest>, args: Readonly<Record<string, unknown>>): BuiltRequest | Promise<BuiltRequest> {
  if (built instanceof Promise) return built.then((done) => Object.assign(done, { args }));
  return Object.assign(built, { args });
}

/** Step 3, then step 4. */
function withCredential(
  compiled: CompiledTool,
  tool: RcpClientTool,
  values: Record<string, unknown>,
  ctx: unknown,
  secrets: CallSecrets | undefined,
): BuiltRequest | Promise<BuiltRequest> {
  if (compiled.auth === undefined) return renderChecked(compiled, tool, values, undefined, secrets, ctx);
  const credential = credentialFor(compiled, tool, ctx);
  if (typeof credential === 'string') return renderChecked(compiled, tool, values, credential, secrets, ctx);
  return credential.then((resolved) => renderChecked(compiled, tool, values, resolved, secrets, ctx));
}

/**
 * Step 4: render (rcp-template errors pass through) and check the origin policy; a multipart body's files are resolved
 * then (a promise: the resolver and the SHA-256 are asynchronous).
 */
function renderChecked(
  compiled: CompiledTool,
  tool: RcpClientTool,
  values: Record<string, unknown>,
  credential: string | undefined,
  secrets: CallSecrets | undefined,
  ctx: unknown,
): BuiltRequest | Promise<BuiltRequest> {
  if (credential !== undefined) (secrets ??= new CallSecrets()).credential = credential;
  const rendered = requestOf(compiled).render(values);
  // Defence in depth: rcp-template never lets a value reach the scheme, host or port.
  if (!rendered.url.startsWith(compiled.urlPrefix)) {
    throw originRefused(`Tool "${tool.name}" rendered a URL outside its origin ${tool.origin}`);
  }
  if (compiled.isAllowed !== undefined && !compiled.isAllowed(rendered.url)) {
    throw originRefused(`The client's "allowOrigin" policy refuses ${tool.origin} (tool "${tool.name}")`);
  }

  let headers = rendered.headers;
  let body: string | undefined;
  if (compiled.upload !== undefined && rendered.body !== undefined) {
    const upload = compiled.upload;
    return buildMultipart(upload, tool, rendered.body, ctx).then((multipart) =>
      finishBuilt(
        compiled,
        tool,
        rendered.method,
        rendered.url,
        { ...headers, 'content-type': multipart.contentType },
        multipart.body,
        multipart.shown,
        values,
        credential,
        secrets,
      ),
    );
  }
  if (rendered.body !== undefined) {
    const form = compiled.bodyEncoding === 'form';
    if (form) body = encodeFormBody(rendered.body);
    else {
      try {
        body = JSON.stringify(rendered.body);
      } catch (error) {
        throw new RcpInvalidArgumentsError(tool.name, [{ path: '', message: 'cannot be serialised as a JSON body' }], {
          cause: error,
        });
      }
    }
    if (compiled.contentTypeHeader === undefined || headers[compiled.contentTypeHeader] === undefined) {
      headers = { ...headers, 'content-type': form ? FORM_CONTENT_TYPE : 'application/json' };
    }
  }
  return finishBuilt(
    compiled,
    tool,
    rendered.method,
    rendered.url,
    headers,
    body,
    compiled.bodyEncoding === 'form' ? body : rendered.body,
    values,
    credential,
    secrets,
  );
}

/** The credential placed (header or query), and the built request with what `prepare` shows of it. */
function finishBuilt(
  compiled: CompiledTool,
  tool: RcpClientTool,
  method: string,
  renderedUrl: string,
  headers: Record<string, string>,
  body: RequestBody | undefined,
  shownBody: unknown,
  values: Record<string, unknown>,
  credential: string | undefined,
  secrets: CallSecrets | undefined,
): BuiltRequest {
  let url = renderedUrl;
  let shownUrl = url;
  if (credential !== undefined) {
    const { auth, prefix, shadowedHeaders } = compiled.auth!;
    if (auth.type === 'query') {
      // Appended last, so no entry of the tool's can stand between it and the key.
      const entry = `${url.includes('?') ? '&' : '?'}${percentEncode(auth.name)}=`;
      url += entry + percentEncode(credential);
      shownUrl += `${entry}${REDACTED}`;
    } else {
      headers = { ...headers };
      for (const name of shadowedHeaders) delete headers[name];
      headers[auth.name] = prefix + credential;
    }
  }
  const request: SendRequest = body === undefined ? { method, url, headers, origin: tool.origin } : { method, url, headers, body, origin: tool.origin };
  return {
    request,
    shownUrl,
    body: shownBody,
    credential,
    secrets: secrets?.list,
    values,
  };
}

/**
 * The resolver values (in param order) and the credential a call made for `ctx` would carry,
 * without arguments and without rendering: what a resumed operation is checked against and
 * polled with (SPEC §20.8). The same resolvers and provider as a call, with the same errors.
 */
export async function callerValues(
  compiled: CompiledTool,
  tool: RcpClientTool,
  ctx: unknown,
): Promise<{ readonly resolved: readonly unknown[]; readonly credential: string | undefined; readonly secrets: () => string[] }> {
  if (compiled.untrustedMessage !== undefined) throw originRefused(compiled.untrustedMessage);
  const values: Record<string, unknown> = Object.create(null);
  const secrets = new CallSecrets();
  await resolveValues(compiled, tool, values, ctx, secrets);
  const credential = compiled.auth === undefined ? undefined : await credentialFor(compiled, tool, ctx);
  if (credential !== undefined) secrets.credential = credential;
  return { resolved: compiled.resolved.map((entry) => values[entry.name] ?? null), credential, secrets: secrets.list };
}
