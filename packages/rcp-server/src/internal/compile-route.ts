import { RcpError } from 'rcp-errors';
import { compileArgumentCheck, escapePointerToken, toolParams, type ManifestIssue, type RcpParam, type RcpTool } from 'rcp-manifest';
import type { ServerTool } from '../define-tool';
import { problemResponse } from '../problem';
import { compilePathMatcher, type PathMatcher } from './path-matcher';
import { compileBodyReader, compileTextSlot, fromText, readFormBody, readSlot, type BodyReader } from './read-arguments';

/** A tool ready to answer requests: matcher, readers, the shared argument check, its bound params. */
export interface CompiledRoute<Principal> {
  readonly tool: ServerTool<Principal>;
  readonly method: string;
  readonly matchPath: PathMatcher;
  readonly needsAuth: boolean;
  /** Reads and checks a matched request's arguments: the validated values, or the 400/413/415 response. */
  readonly read: (request: Request, pathValues: Map<string, string>) => Promise<Record<string, unknown> | Response>;
  readonly bound: readonly { readonly name: string; readonly value: (principal: Principal) => unknown }[];
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;
const FORM_TYPE = /^application\/x-www-form-urlencoded\s*(?:;|$)/i;

/** Decodes one path segment's value; a malformed escape is an issue at the param. */
function decodeSegment(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/** The body as UTF-8 text, or `undefined` once it grows past `limit` bytes (reading stops there). */
async function readCapped(request: Request, limit: number): Promise<string | undefined> {
  if (request.body === null) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

function pointer(name: string): string {
  return `/${escapePointerToken(name)}`;
}

/**
 * Compiles one validated manifest tool and its server definition into a route. The arguments
 * are read back from where the template puts them (path segments percent-decoded, query values,
 * headers, a JSON or form body) into the param's type, then checked by rcp-manifest's
 * `compileArgumentCheck` — the rule the client applied before sending.
 */
export function compileRoute<Principal>(
  definition: ServerTool<Principal>,
  tool: RcpTool,
  options: { needsAuth: boolean; maxBodyBytes: number },
): CompiledRoute<Principal> {
  const declared = tool.params ?? [];
  const params = new Map<string, RcpParam>(declared.map((param) => [param.name, param]));
  const withDefaults = toolParams(tool);
  const check = compileArgumentCheck(
    declared.map((param, index) =>
      withDefaults[index]!.required === (param.required === true) ? param : { ...param, required: withDefaults[index]!.required },
    ),
  );
  // A query written in the path (`/search?source=rcp&q={{q}}`) is read like queryParams.
  const mark = definition.path.indexOf('?');
  const matchPath = compilePathMatcher(tool.name, mark === -1 ? definition.path : definition.path.slice(0, mark));
  const literalQuery = mark === -1 ? [] : definition.path.slice(mark + 1).split('&').filter((entry) => entry !== '');
  const query = [
    ...literalQuery.map((entry) => {
      const equals = entry.indexOf('=');
      return [decodeSegment(equals === -1 ? entry : entry.slice(0, equals)) ?? entry, equals === -1 ? '' : entry.slice(equals + 1)] as const;
    }),
    ...Object.entries(tool.queryParams ?? {}),
  ].flatMap(([key, template]) => {
    const slot = compileTextSlot(tool.name, `queryParams "${key}"`, template);
    return slot === undefined ? [] : [{ key, slot }];
  });
  const headers = Object.entries(tool.headers ?? {}).flatMap(([name, template]) => {
    const slot = compileTextSlot(tool.name, `header "${name}"`, template);
    return slot === undefined ? [] : [{ name, slot }];
  });
  const body: BodyReader | undefined = tool.body === undefined ? undefined : compileBodyReader(tool.name, tool.body, params);
  const form = tool.bodyEncoding === 'form';

  const bound = (definition.params ?? []).flatMap((param) => (param.bound === undefined ? [] : [{ name: param.name, value: param.bound }]));
  if (bound.length > 0 && !options.needsAuth) {
    throw new RcpError('RCP_INVALID_OPTIONS', `Tool "${tool.name}" binds a param to the principal but its auth is "none": there is no principal`);
  }

  const invalid = (issues: ManifestIssue[]) => {
    const shown = issues
      .slice(0, 5)
      .map(({ path, message }) => `${path === '' ? 'the arguments' : path} ${message}`)
      .join('; ');
    return problemResponse(400, 'RCP_INVALID_ARGUMENTS', `Invalid arguments for tool "${tool.name}": ${shown}`, {
      errors: issues.map((issue) => ({ pointer: issue.path, detail: issue.message })),
    });
  };

  const read = async (request: Request, pathValues: Map<string, string>): Promise<Record<string, unknown> | Response> => {
    const issues: ManifestIssue[] = [];
    const args: Record<string, unknown> = Object.create(null);
    // A token used in several places (the path and the body) must carry one value in all of them.
    const put = (name: string, value: unknown) => {
      if (Object.hasOwn(args, name) && JSON.stringify(args[name]) !== JSON.stringify(value)) {
        issues.push({ path: pointer(name), message: 'is given more than once, with different values' });
      } else args[name] = value;
    };
    for (const [name, raw] of pathValues) {
      const text = decodeSegment(raw);
      if (text === undefined) issues.push({ path: pointer(name), message: 'is not valid percent-encoding' });
      else put(name, fromText(params.get(name), text));
    }
    if (query.length > 0) {
      const search = new URL(request.url).searchParams;
      for (const { key, slot } of query) {
        const texts = search.getAll(key).flatMap((text) => {
          const value = readSlot(slot, text);
          return value === undefined ? [] : [value];
        });
        if (texts.length === 0) continue;
        const schema = params.get(slot.name);
        put(slot.name, fromText(schema, schema?.type === 'array' || texts.length > 1 ? texts : texts[0]));
      }
    }
    for (const { name, slot } of headers) {
      const text = request.headers.get(name);
      const value = text === null ? undefined : readSlot(slot, text);
      if (value !== undefined) put(slot.name, fromText(params.get(slot.name), value));
    }
    if (body !== undefined) {
      const type = request.headers.get('content-type') ?? '';
      const length = Number(request.headers.get('content-length') ?? '0');
      if (length > options.maxBodyBytes) {
        return problemResponse(413, 'RCP_INVALID_ARGUMENTS', `The body is larger than ${options.maxBodyBytes} bytes`);
      }
      const text = await readCapped(request, options.maxBodyBytes);
      if (text === undefined) {
        return problemResponse(413, 'RCP_INVALID_ARGUMENTS', `The body is larger than ${options.maxBodyBytes} bytes`);
      }
      if (text.trim() !== '') {
        if (form) {
          if (!FORM_TYPE.test(type)) return problemResponse(415, 'RCP_INVALID_ARGUMENTS', 'The body must be application/x-www-form-urlencoded');
          body(readFormBody(text), put, true);
        } else {
          if (!JSON_TYPE.test(type)) return problemResponse(415, 'RCP_INVALID_ARGUMENTS', 'The body must be application/json');
          let parsed: unknown;
          try {
            parsed = JSON.parse(text);
          } catch {
            return invalid([{ path: '', message: 'are not valid JSON' }]);
          }
          body(parsed, put, false);
        }
      }
    }
    const result = check(args);
    if (!result.ok) return invalid([...issues, ...result.issues]);
    if (issues.length > 0) return invalid(issues);
    return result.values;
  };

  return { tool: definition, method: tool.method, matchPath, needsAuth: options.needsAuth, read, bound };
}
