/**
 * Reading a matched request's arguments back from where the tool's template put them (path
 * segments percent-decoded, query values, headers, a JSON or form body), then checking them with
 * rcp-manifest's `compileArgumentCheck` — the rule the client applied before sending.
 */
import { escapePointerToken } from 'rcp-internal';
import { isJsonMediaType, readArguments, type ArgumentCheck, type ManifestIssue, type RcpParam } from 'rcp-manifest';
import { problemResponse } from '../problem';
import type { ReceivedFile } from '../received-file';
import { readMultipart, type MultipartPlan } from './multipart-body';
import { fromText, readFormBody, readSlot, type BodyReader, type TextSlot } from './read-arguments';

/** Where one tool's arguments are read from, compiled once by `compileRoute`. */
export interface ArgumentPlan {
  readonly toolName: string;
  readonly params: ReadonlyMap<string, RcpParam>;
  readonly query: readonly { readonly key: string; readonly slot: TextSlot }[];
  readonly headers: readonly { readonly name: string; readonly slot: TextSlot }[];
  readonly body: BodyReader | undefined;
  readonly form: boolean;
  /** How a multipart body is read (RCP 0.4), for a tool with `bodyEncoding: "multipart"`. */
  readonly multipart: MultipartPlan | undefined;
  /** The check of every param but the file params (a multipart body's files are checked as they are read). */
  readonly check: ArgumentCheck;
  readonly maxBodyBytes: number;
}

/** The arguments read so far and the problems met; `put` holds a token used in several places to one value. */
interface Collected {
  readonly args: Record<string, unknown>;
  readonly issues: ManifestIssue[];
  readonly put: (name: string, value: unknown) => void;
  /** A multipart body's files by param, checked; the handler receives them beside the checked values. */
  readonly files: Map<string, ReceivedFile>;
}

const FORM_TYPE = /^application\/x-www-form-urlencoded\s*(?:;|$)/i;

/** Reads and checks a matched request's arguments: the validated values, or the 400/413/415 response. */
export async function collectArguments(plan: ArgumentPlan, request: Request, pathValues: Map<string, string>): Promise<Record<string, unknown> | Response> {
  const collected = startCollecting();
  collectPath(plan, pathValues, collected);
  if (plan.query.length > 0) collectQuery(plan, new URL(request.url), collected);
  collectHeaders(plan, request.headers, collected);
  if (plan.body !== undefined) {
    const refused = await collectBody(plan, plan.body, request, collected);
    if (refused !== undefined) return refused;
  }
  const result = plan.check(collected.args);
  if (!result.ok) return invalidArguments(plan.toolName, [...collected.issues, ...result.issues]);
  if (collected.issues.length > 0) return invalidArguments(plan.toolName, collected.issues);
  for (const [name, file] of collected.files) result.values[name] = file;
  return result.values;
}

/** Decodes one path segment's (or query key's) percent-encoding; `undefined` when an escape is malformed. */
export function decodeSegment(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

function pointer(name: string): string {
  return `/${escapePointerToken(name)}`;
}

function startCollecting(): Collected {
  const issues: ManifestIssue[] = [];
  const args: Record<string, unknown> = Object.create(null);
  // A token used in several places (the path and the body) must carry one value in all of them.
  const put = (name: string, value: unknown) => {
    if (Object.hasOwn(args, name) && JSON.stringify(args[name]) !== JSON.stringify(value)) {
      issues.push({ path: pointer(name), message: 'is given more than once, with different values' });
    } else args[name] = value;
  };
  return { args, issues, put, files: new Map() };
}

function collectPath(plan: ArgumentPlan, pathValues: Map<string, string>, { issues, put }: Collected): void {
  for (const [name, raw] of pathValues) {
    const text = decodeSegment(raw);
    if (text === undefined) issues.push({ path: pointer(name), message: 'is not valid percent-encoding' });
    else put(name, fromText(plan.params.get(name), text));
  }
}

/**
 * A key given several times (or an array param) reads as a list. A param with an RCP 0.4 `queryStyle` is read as the
 * client wrote it: `comma` split at its literal commas before decoding, `deepObject` from the bracketed keys under its
 * name, read as a form body is (§16.1).
 */
function collectQuery(plan: ArgumentPlan, url: URL, { put }: Collected): void {
  const search = url.searchParams;
  for (const { key, slot } of plan.query) {
    const schema = plan.params.get(slot.name);
    if (schema?.queryStyle === 'deepObject') {
      const value = readDeepObject(url.search, key);
      if (value !== undefined) put(slot.name, fromText(schema, value));
      continue;
    }
    const texts = schema?.queryStyle === 'comma' ? commaValues(url.search, key) : search.getAll(key);
    const values = texts.flatMap((text) => {
      const value = readSlot(slot, text);
      return value === undefined ? [] : [value];
    });
    if (values.length === 0) continue;
    put(slot.name, fromText(schema, schema?.type === 'array' || values.length > 1 ? values : values[0]));
  }
}

/** The query's raw entries (before decoding) as `[raw key, raw value]`. */
function rawEntries(search: string): [string, string][] {
  return search
    .replace(/^\?/, '')
    .split('&')
    .filter((entry) => entry !== '')
    .map((entry) => {
      const equals = entry.indexOf('=');
      return equals === -1 ? [entry, ''] : [entry.slice(0, equals), entry.slice(equals + 1)];
    });
}

/** A query component decoded as URLSearchParams does (`+` is a space); undefined for a malformed escape. */
function decodeComponent(text: string): string | undefined {
  return decodeSegment(text.replaceAll('+', ' '));
}

/** The elements of every `key=a,b` entry: split at the literal commas, then each decoded. */
function commaValues(search: string, key: string): string[] {
  return rawEntries(search).flatMap(([rawKey, rawValue]) => {
    if (decodeComponent(rawKey) !== key || rawValue === '') return [];
    return rawValue.split(',').flatMap((element) => {
      const decoded = decodeComponent(element);
      return decoded === undefined ? [] : [decoded];
    });
  });
}

/** The object written under `key` as bracketed entries (`key[a]=1&key[b][c]=2`), or undefined when there is none. */
function readDeepObject(search: string, key: string): unknown {
  const fields = rawEntries(search).filter(([rawKey]) => decodeComponent(rawKey)?.startsWith(`${key}[`) === true);
  if (fields.length === 0) return undefined;
  return readFormBody(fields.map(([rawKey, rawValue]) => `${rawKey}=${rawValue}`).join('&'))[key];
}

function collectHeaders(plan: ArgumentPlan, headers: Headers, { put }: Collected): void {
  for (const { name, slot } of plan.headers) {
    const text = headers.get(name);
    const value = text === null ? undefined : readSlot(slot, text);
    if (value !== undefined) put(slot.name, fromText(plan.params.get(slot.name), value));
  }
}

/** Reads the body (capped at `maxBodyBytes`) into the arguments; the 413/415/400 response when it is refused. */
async function collectBody(plan: ArgumentPlan, body: BodyReader, request: Request, { put, issues, files }: Collected): Promise<Response | undefined> {
  const type = request.headers.get('content-type') ?? '';
  const bytes = await readBody(request, plan.multipart?.limit ?? plan.maxBodyBytes);
  if (bytes instanceof Response) return bytes;
  if (plan.multipart !== undefined) {
    const read = await readMultipart(plan.multipart, bytes, type);
    if (read instanceof Response) return read;
    issues.push(...read.issues);
    for (const [name, file] of read.files) files.set(name, file);
    body(read.fields, put, true);
    return undefined;
  }
  const text = new TextDecoder().decode(bytes);
  if (text.trim() === '') return undefined;
  if (plan.form) {
    if (!FORM_TYPE.test(type)) return problemResponse(415, 'RCP_INVALID_ARGUMENTS', 'The body must be application/x-www-form-urlencoded');
    body(readFormBody(text), put, true);
    return undefined;
  }
  if (!isJsonMediaType(type)) return problemResponse(415, 'RCP_INVALID_ARGUMENTS', 'The body must be application/json');
  const parsed = readArguments(text);
  if (!parsed.ok) return invalidArguments(plan.toolName, parsed.issues);
  body(parsed.value, put, false);
  return undefined;
}

/** The body's bytes, or the 413 problem once it is (or says it is) larger than `limit` bytes (reading stops there). */
export async function readBody(request: Request, limit: number): Promise<Uint8Array | Response> {
  const tooLarge = () => problemResponse(413, 'RCP_INVALID_ARGUMENTS', `The body is larger than ${limit} bytes`);
  if (Number(request.headers.get('content-length') ?? '0') > limit) return tooLarge();
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return tooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** The 400 problem listing the issues (the first five in its detail, all of them as `errors`). */
function invalidArguments(toolName: string, issues: ManifestIssue[]): Response {
  const shown = issues
    .slice(0, 5)
    .map(({ path, message }) => `${path === '' ? 'the arguments' : path} ${message}`)
    .join('; ');
  return problemResponse(400, 'RCP_INVALID_ARGUMENTS', `Invalid arguments for tool "${toolName}": ${shown}`, {
    errors: issues.map((issue) => ({ pointer: issue.path, detail: issue.message })),
  });
}
