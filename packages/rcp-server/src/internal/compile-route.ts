import { RcpError } from 'rcp-errors';
import { compileArgumentCheck, toolParams, type ArgumentCheck, type RcpParam, type RcpTool } from 'rcp-manifest';
import type { AnyServerTool, ToolHandler } from '../define-tool';
import { collectArguments, decodeSegment, type ArgumentPlan } from './collect-arguments';
import type { IdempotentTool } from './idempotent-call';
import { compileMultipartPlan } from './multipart-body';
import { compilePathMatcher, type PathMatcher } from './path-matcher';
import { compileBodyReader, compileTextSlot, type TextSlot } from './read-arguments';

/** A tool ready to answer requests: matcher, readers, the shared argument check, its bound params. */
export interface CompiledRoute<Principal> {
  readonly tool: AnyServerTool<Principal>;
  /** The tool's handler, called with the values `read` checked. */
  readonly handler: ToolHandler<Principal>;
  readonly method: string;
  readonly matchPath: PathMatcher;
  readonly needsAuth: boolean;
  /** Reads and checks a matched request's arguments: the validated values, or the 400/413/415 response. */
  readonly read: (request: Request, pathValues: Map<string, string>) => Promise<Record<string, unknown> | Response>;
  readonly bound: readonly { readonly name: string; readonly value: (principal: Principal) => unknown }[];
  /** The tool's idempotency (RCP 0.4), when it declares one. */
  readonly idempotent: IdempotentTool | undefined;
  /** The largest request body read, in bytes. */
  readonly maxBodyBytes: number;
}

/**
 * Compiles one validated manifest tool and its server definition into a route. The arguments
 * are read back from where the template puts them (path segments percent-decoded, query values,
 * headers, a JSON or form body) into the param's type, then checked by rcp-manifest's
 * `compileArgumentCheck` — the rule the client applied before sending.
 */
export function compileRoute<Principal>(
  definition: AnyServerTool<Principal>,
  tool: RcpTool,
  options: { needsAuth: boolean; maxBodyBytes: number; maxUploadBytes: number; expiresAfterSeconds: number },
): CompiledRoute<Principal> {
  const params = new Map<string, RcpParam>((tool.params ?? []).map((param) => [param.name, param]));
  const { check, required } = compileCheck(tool);
  const multipart = tool.bodyEncoding === 'multipart' ? compileMultipartPlan(tool, required, options) : undefined;
  // A query written in the path (`/search?source=rcp&q={{q}}`) is read like queryParams.
  const mark = definition.path.indexOf('?');
  const matchPath = compilePathMatcher(tool.name, mark === -1 ? definition.path : definition.path.slice(0, mark));
  const plan: ArgumentPlan = {
    toolName: tool.name,
    params,
    query: compileQuerySlots(tool, mark === -1 ? '' : definition.path.slice(mark + 1)),
    headers: Object.entries(tool.headers ?? {}).flatMap(([name, template]) => {
      const slot = compileTextSlot(tool.name, `header "${name}"`, template);
      return slot === undefined ? [] : [{ name, slot }];
    }),
    body: tool.body === undefined ? undefined : compileBodyReader(tool.name, tool.body, params),
    form: tool.bodyEncoding === 'form',
    multipart,
    check,
    maxBodyBytes: options.maxBodyBytes,
  };

  const bound = (definition.params ?? []).flatMap((param) => (param.bound === undefined ? [] : [{ name: param.name, value: param.bound }]));
  if (bound.length > 0 && !options.needsAuth) {
    throw new RcpError('RCP_INVALID_OPTIONS', `Tool "${tool.name}" binds a param to the principal but its auth is "none": there is no principal`);
  }
  const read = (request: Request, pathValues: Map<string, string>) => collectArguments(plan, request, pathValues);
  const idempotent =
    tool.idempotency === undefined
      ? undefined
      : {
          header: tool.idempotency.header,
          ttl: (tool.idempotency.expiresAfterSeconds ?? options.expiresAfterSeconds) * 1000,
          argumentHeaders: Object.keys(tool.headers ?? {}),
        };
  // The one place the handler's typed `values` meet the checked ones: `read` checks the declared
  // params, which is what the handler's `ToolValues` type describes.
  const handler = definition.handler as ToolHandler<Principal>;
  return {
    tool: definition,
    handler,
    method: tool.method,
    matchPath,
    needsAuth: options.needsAuth,
    read,
    bound,
    idempotent,
    maxBodyBytes: multipart?.limit ?? options.maxBodyBytes,
  };
}

/**
 * The argument check, each param's `required` as rcp-manifest's `toolParams` resolves its default,
 * and the names of the required params. A file param (RCP 0.4) is not in the check — what arrives
 * for it is a file part, not the model's reference — and is checked as the multipart body is read.
 */
function compileCheck(tool: RcpTool): { check: ArgumentCheck; required: ReadonlySet<string> } {
  const declared = tool.params ?? [];
  const withDefaults = toolParams(tool);
  const resolved = declared.map((param, index) =>
    withDefaults[index]!.required === (param.required === true) ? param : { ...param, required: withDefaults[index]!.required },
  );
  return {
    check: compileArgumentCheck(resolved.filter((param) => param.type !== 'file')),
    required: new Set(resolved.flatMap((param) => (param.required === true ? [param.name] : []))),
  };
}

/** The query slots: the literal query written in the path (`search`, after its `?`), then `queryParams`. */
function compileQuerySlots(tool: RcpTool, search: string): { key: string; slot: TextSlot }[] {
  const literalQuery = search.split('&').filter((entry) => entry !== '');
  return [
    ...literalQuery.map((entry) => {
      const equals = entry.indexOf('=');
      return [decodeSegment(equals === -1 ? entry : entry.slice(0, equals)) ?? entry, equals === -1 ? '' : entry.slice(equals + 1)] as const;
    }),
    ...Object.entries(tool.queryParams ?? {}),
  ].flatMap(([key, template]) => {
    const slot = compileTextSlot(tool.name, `queryParams "${key}"`, template);
    return slot === undefined ? [] : [{ key, slot }];
  });
}
