import { FORBIDDEN_HEADER_NAMES } from 'rcp-manifest';
import { isHttpToken, isRecord } from 'rcp-template';
import { paramDescription } from './plain-text';
import { paramFields, type Schema } from './schema-to-param';
import { tokenNameOf } from './tool-names';

type Json = Record<string, unknown>;

/** Headers a tool may not set (rcp-manifest's list) or that auth and the client own. */
const SKIPPED_HEADERS: ReadonlySet<string> = new Set([...FORBIDDEN_HEADER_NAMES, 'authorization', 'content-type', 'accept']);

/** What the params of one operation need to know of the import. */
export interface ParamContext {
  readonly swagger: boolean;
  readonly resolveNames: ReadonlySet<string>;
  readonly lose: (message: string) => void;
  /** Records what the report says once for the document (descriptions read as plain text or cut). */
  readonly note: (message: string) => void;
}

/** The params of one tool, in the order they are declared, each with a token name no other has. */
export interface ToolParams {
  readonly list: Json[];
  /** The token for a document name (`X-Trace` → `X_Trace`), suffixed `_2`, `_3` … when taken. */
  claim(wanted: string): string;
  isTaken(token: string): boolean;
  /** A description from the document as plain text for the model (plain-text.ts), or undefined. */
  text(description: unknown): string | undefined;
  /** Declares a param: its fields from the schema, the document's description unless resolver-bound. */
  declare(token: string, original: string, schema: Schema, required: boolean, description: unknown): void;
}

/** An empty {@link ToolParams} for one operation. */
export function createToolParams(context: ParamContext): ToolParams {
  const list: Json[] = [];
  const taken = new Set<string>();
  const text = (description: unknown): string | undefined => paramDescription(description, context.note);
  const describeParam = (original: string, description: unknown): string | undefined => {
    if (context.resolveNames.has(original)) return 'Set by the client (resolver-bound), not by the model.';
    return text(description);
  };
  return {
    list,
    claim(wanted) {
      let token = tokenNameOf(wanted);
      for (let n = 2; taken.has(token); n++) token = `${tokenNameOf(wanted)}_${n}`;
      taken.add(token);
      return token;
    },
    isTaken: (token) => taken.has(token),
    text,
    declare(token, original, schema, required, description) {
      const fields = paramFields(schema, context.lose, `"${original}"`, text);
      const param: Json = { name: token, ...fields };
      const shown = describeParam(original, description);
      if (shown !== undefined) param['description'] = shown;
      if (required) param['required'] = true;
      list.push(param);
    },
  };
}

/** The operation's params: the path item's first, the operation's replacing them by (in, name); or why not. */
export function mergedParams(pathItem: Json, operation: Json): Map<string, Json> | { skip: string } {
  const byKey = new Map<string, Json>();
  for (const list of [pathItem['parameters'], operation['parameters']]) {
    if (!Array.isArray(list)) continue;
    for (const param of list) {
      if (!isRecord(param) || typeof param['name'] !== 'string') continue;
      if (typeof param['$ref'] === 'string') return { skip: `an unresolved $ref (${param['$ref'].slice(0, 80)})` };
      byKey.set(`${String(param['in'])}:${param['name']}`, param);
    }
  }
  return byKey;
}

/** Where the params went: the URL with path tokens, query and header templates, and the body's raw material. */
export interface PlacedParams {
  url: string;
  /** Null-prototype maps: a param named `__proto__` is a key like any other. */
  readonly queryParams: Json;
  readonly headers: Json;
  readonly pathParams: string[];
  /** Swagger 2 `formData` params (a form body), and its `body` param. */
  formFields: Json[] | undefined;
  bodyParam: Json | undefined;
}

/** Puts one param where it goes (path, query, header; cookie dropped; Swagger's form and body kept for the body); or why the operation is skipped. */
function placeParam(param: Json, placed: PlacedParams, params: ToolParams, context: ParamContext): string | undefined {
  const original = param['name'] as string;
  const where = param['in'];
  const schema: Schema = context.swagger ? param : isRecord(param['schema']) ? (param['schema'] as Schema) : {};
  if (where === 'path') {
    const token = params.claim(original);
    placed.url = placed.url.replaceAll(`{${original}}`, `{{${token}}}`);
    placed.pathParams.push(token);
    params.declare(token, original, schema, true, param['description']);
  } else if (where === 'query') {
    const token = params.claim(original);
    placed.queryParams[original] = `{{${token}}}`;
    params.declare(token, original, schema, param['required'] === true, param['description']);
    const style = param['style'] ?? (context.swagger ? undefined : 'form');
    if (param['explode'] === false || (context.swagger && param['collectionFormat'] !== undefined && param['collectionFormat'] !== 'multi')) {
      if (schema['type'] === 'array')
        context.lose(`query array "${original}" is sent as repeated keys, not ${context.swagger ? String(param['collectionFormat']) : String(style)}-joined`);
    }
  } else if (where === 'header') {
    if (SKIPPED_HEADERS.has(original.toLowerCase()) || !isHttpToken(original)) {
      context.lose(`header param "${original}" was dropped (the client or auth sets it)`);
      return undefined;
    }
    const token = params.claim(original);
    placed.headers[original] = `{{${token}}}`;
    params.declare(token, original, schema, param['required'] === true, param['description']);
  } else if (where === 'cookie') {
    if (param['required'] === true) return 'a required cookie param';
    context.lose(`cookie param "${original}" was dropped`);
  } else if (where === 'formData') {
    if (param['type'] === 'file') return 'multipart body (a file upload)';
    (placed.formFields ??= []).push(param);
  } else if (where === 'body') {
    placed.bodyParam = param;
  }
  return undefined;
}

/**
 * Every param of the operation in its place, then each path template the document forgot to
 * declare as a required string (a path needs it); or why the operation is skipped.
 */
export function placeParams(path: string, byKey: ReadonlyMap<string, Json>, params: ToolParams, context: ParamContext): PlacedParams | { skip: string } {
  const placed: PlacedParams = {
    url: path,
    queryParams: Object.create(null) as Json,
    headers: Object.create(null) as Json,
    pathParams: [],
    formFields: undefined,
    bodyParam: undefined,
  };
  for (const param of byKey.values()) {
    const skip = placeParam(param, placed, params, context);
    if (skip !== undefined) return { skip };
  }
  for (const match of placed.url.matchAll(/(?<!\{)\{([^{}]+)\}(?!\})/g)) {
    const original = match[1]!;
    const token = params.claim(original);
    placed.url = placed.url.replace(`{${original}}`, `{{${token}}}`);
    placed.pathParams.push(token);
    params.declare(token, original, { type: 'string' }, true, undefined);
    context.lose(`path param "${original}" was not declared by the operation; imported as a required string`);
  }
  return placed;
}
