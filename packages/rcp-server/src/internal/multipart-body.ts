/**
 * Reading a multipart body (RCP 0.4, SPEC §20.7) against the tool's own definition: the body is
 * read under the tool's byte limit (never past it), parsed by the platform's
 * `Request.formData()`, and each part checked — a file param's part must be a file of an accepted
 * media type within its `maxBytes`; every other field a text part, read back as the client wrote
 * it (an object or array param from its JSON text). Nothing here calls the handler.
 */
import { escapePointerToken, mediaTypeInRanges } from 'rcp-internal';
import type { ManifestIssue, RcpParam, RcpTool } from 'rcp-manifest';
import { problemResponse } from '../problem';
import type { ReceivedFile } from '../received-file';
import { compileTextSlot } from './read-arguments';

/** One top-level field of the body whose value is exactly a file param's token. */
interface FileField {
  readonly field: string;
  readonly param: string;
  readonly pointer: string;
  readonly required: boolean;
  readonly mediaTypes: readonly string[] | undefined;
  readonly maxBytes: number | undefined;
}

/** How one multipart tool's body is read: its file fields, its JSON text fields and its byte limit. */
export interface MultipartPlan {
  readonly files: readonly FileField[];
  /** Fields that carry an object or array param as JSON text. */
  readonly jsonFields: ReadonlySet<string>;
  /** The most body bytes read: past it the request is 413 and reading stops. */
  readonly limit: number;
}

/** What a multipart body gave: the text fields (for the body template's reader), the files by param, the problems. */
export interface ReadMultipart {
  readonly fields: Record<string, unknown>;
  readonly files: ReadonlyMap<string, ReceivedFile>;
  readonly issues: readonly ManifestIssue[];
}

/**
 * The plan of a tool with `bodyEncoding: "multipart"`. The limit is the server's `maxUploadBytes`,
 * or less when every file param has a `maxBytes`: their sum and `maxBodyBytes` for the text.
 */
export function compileMultipartPlan(
  tool: RcpTool,
  required: ReadonlySet<string>,
  limits: { readonly maxUploadBytes: number; readonly maxBodyBytes: number },
): MultipartPlan {
  const params = new Map<string, RcpParam>((tool.params ?? []).map((param) => [param.name, param]));
  const files: FileField[] = [];
  const jsonFields = new Set<string>();
  for (const [field, template] of Object.entries((tool.body ?? {}) as Record<string, unknown>)) {
    if (typeof template !== 'string') continue;
    const slot = compileTextSlot(tool.name, `the body field "${field}"`, template);
    if (slot === undefined || slot.prefix !== '' || slot.suffix !== '') continue;
    const param = params.get(slot.name);
    if (param?.type === 'file') {
      files.push({
        field,
        param: param.name,
        pointer: `/${escapePointerToken(param.name)}`,
        required: required.has(param.name),
        mediaTypes: param.mediaTypes,
        maxBytes: param.maxBytes,
      });
    } else if (param?.type === 'object' || param?.type === 'array') jsonFields.add(field);
  }
  const bounded = files.every((file) => file.maxBytes !== undefined);
  const bound = files.reduce((sum, file) => sum + (file.maxBytes ?? 0), limits.maxBodyBytes);
  return { files, jsonFields, limit: bounded ? Math.min(limits.maxUploadBytes, bound) : limits.maxUploadBytes };
}

const MULTIPART_TYPE = /^multipart\/form-data\s*;.*\bboundary=/i;

/** Whether a media type is one a param's `mediaTypes` accepts (rcp-internal's one rule, as the client checks before it sends). */
function accepts(ranges: readonly string[] | undefined, mediaType: string): boolean {
  return ranges === undefined || mediaTypeInRanges(mediaType, ranges);
}

/** A part's media type as the handler sees it: lower case, no parameters, the RFC 7578 default when absent. */
function mediaTypeOf(file: Blob): string {
  const type = file.type.split(';')[0]!.trim().toLowerCase();
  return type === '' ? 'application/octet-stream' : type;
}

async function receivedFile(file: File): Promise<ReceivedFile> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  return Object.freeze({
    filename: file.name,
    mediaType: mediaTypeOf(file),
    size: bytes.byteLength,
    bytes,
    stream: () => new Blob([bytes]).stream(),
  });
}

/**
 * Reads a multipart body: the 415 problem for another Content-Type, the 400 problem for a body
 * that does not parse, the 413 problem for a file over its param's `maxBytes` (the body's own
 * limit was checked as it was read); else the text fields, the files and the problems the
 * argument check adds to its own.
 */
export async function readMultipart(plan: MultipartPlan, bytes: Uint8Array, contentType: string): Promise<ReadMultipart | Response> {
  if (!MULTIPART_TYPE.test(contentType)) return problemResponse(415, 'RCP_INVALID_ARGUMENTS', 'The body must be multipart/form-data');
  let form: FormData;
  try {
    form = await new Response(bytes, { headers: { 'content-type': contentType } }).formData();
  } catch {
    return problemResponse(400, 'RCP_INVALID_ARGUMENTS', 'The body is not valid multipart/form-data');
  }
  const fields: Record<string, unknown> = Object.create(null);
  const issues: ManifestIssue[] = [];
  for (const [name, value] of form) {
    const where = `/${escapePointerToken(name)}`;
    if (Object.hasOwn(fields, name)) issues.push({ path: where, message: 'is given more than once' });
    else fields[name] = value;
  }
  const files = new Map<string, ReceivedFile>();
  const tooLarge: ManifestIssue[] = [];
  for (const file of plan.files) {
    const part = fields[file.field];
    delete fields[file.field];
    if (part === undefined) {
      if (file.required) issues.push({ path: file.pointer, message: 'is required' });
    } else if (!(part instanceof File)) {
      issues.push({ path: file.pointer, message: 'must be a file part (got a text field)' });
    } else if (!accepts(file.mediaTypes, mediaTypeOf(part))) {
      issues.push({ path: file.pointer, message: `must be a file of a media type this param accepts (${file.mediaTypes!.join(', ')})` });
    } else if (file.maxBytes !== undefined && part.size > file.maxBytes) {
      tooLarge.push({ path: file.pointer, message: `must be at most ${file.maxBytes} bytes` });
    } else files.set(file.param, await receivedFile(part));
  }
  if (tooLarge.length > 0) {
    return problemResponse(
      413,
      'RCP_INVALID_ARGUMENTS',
      `A file is larger than its param accepts: ${tooLarge.map((issue) => `${issue.path} ${issue.message}`).join('; ')}`,
      {
        errors: tooLarge.map((issue) => ({ pointer: issue.path, detail: issue.message })),
      },
    );
  }
  for (const name of Object.keys(fields)) {
    const value = fields[name];
    if (value instanceof File) {
      issues.push({ path: `/${escapePointerToken(name)}`, message: 'must be a text field, not a file' });
      delete fields[name];
    } else if (plan.jsonFields.has(name)) fields[name] = parseJson(value as string);
  }
  return { fields, files, issues };
}

/** An object or array field's JSON text, parsed; text that is not JSON stays text (the check reports the type). */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
