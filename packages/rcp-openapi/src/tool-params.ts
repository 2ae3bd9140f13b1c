import { FORBIDDEN_HEADER_NAMES } from 'rcp-manifest';
import { isHttpToken, isRecord } from 'rcp-internal';
import { paramDescription } from './plain-text';
import { paramFields, sendableAt, type ParamPlace, type Schema } from './schema-to-param';
import { tokenNameOf } from './tool-names';

type Json = Record<string, unknown>;
type ParamFields = ReturnType<typeof paramFields>;

/** The report note of optional params left out because their place cannot carry them. */
export function unsendableNote(place: ParamPlace): string {
  return `optional ${place} params RCP cannot send were left out: RCP sends ${place === 'query' ? 'a scalar or an array of scalars (as repeated keys)' : 'one scalar'} there, and the document's serialisation of an object (deepObject style) is not RCP's`;
}

/** The report note of query arrays the document gives the deepObject style (Stripe's `expand`). */
export const DEEP_OBJECT_ARRAY_NOTE =
  'query arrays in the deepObject style are sent as repeated keys (k=a&k=b), not with brackets (k[0]=a): check that the API reads them so';

/** What a value of these fields is, for a report (`an object`, `an array of objects`). */
function kindOf(fields: ParamFields): string {
  if (fields.type !== 'array') return `an ${fields.type}`;
  const items = (fields as { items?: { type?: string } }).items?.type;
  return `an array of ${items ?? 'value'}s`;
}

/**
 * The fields of a path, query or header param when its place can carry them; else why the
 * operation is skipped (a path param, a required one), or undefined after a note says the
 * optional param was left out.
 */
function placedFields(
  param: Json,
  where: 'path' | 'query' | 'header',
  schema: Schema,
  params: ToolParams,
  context: ParamContext,
): ParamFields | string | undefined {
  const original = param['name'] as string;
  const fields = params.fieldsOf(original, schema, where);
  const itemsType = (fields as { items?: { type?: string } }).items?.type;
  // RCP 0.4 query styles (SPEC §20.4): an object the document writes as deepObject is sent that way (Stripe's
  // `metadata[key]=…`), an array it joins with commas (`explode: false`, Swagger's `csv`) as one comma entry.
  if (where === 'query') {
    if (fields.type === 'object' && !context.swagger && param['style'] === 'deepObject') return { ...fields, queryStyle: 'deepObject' };
    if (fields.type === 'array' && sendableAt(where, fields.type, itemsType) && commaJoined(param, context.swagger)) return { ...fields, queryStyle: 'comma' };
  }
  if (sendableAt(where, fields.type, itemsType)) return fields;
  const what = `"${original.slice(0, 80)}" is ${kindOf(fields)}`;
  if (where === 'path' || param['required'] === true) return `a required ${where} param RCP cannot send (${what})`;
  const style = typeof param['style'] === 'string' ? `, ${param['style'].slice(0, 20)} style` : '';
  context.note(unsendableNote(where), `"${original.slice(0, 80)}" (${kindOf(fields)}${style})`);
  return undefined;
}

/** A query array the document joins with commas: OpenAPI's form style with `explode: false`, Swagger's `csv`. */
function commaJoined(param: Json, swagger: boolean): boolean {
  if (swagger) return param['collectionFormat'] === 'csv';
  return param['explode'] === false && (param['style'] ?? 'form') === 'form';
}

/** Headers a tool may not set (rcp-manifest's list) or that auth and the client own. */
const SKIPPED_HEADERS: ReadonlySet<string> = new Set([...FORBIDDEN_HEADER_NAMES, 'authorization', 'content-type', 'accept']);

/** What the params of one operation need to know of the import. */
export interface ParamContext {
  readonly swagger: boolean;
  readonly resolveNames: ReadonlySet<string>;
  readonly lose: (message: string) => void;
  /** Records what the report says once for the document (descriptions read as plain text or cut, params narrowed or left out), with an example. */
  readonly note: (message: string, example?: string) => void;
}

/** The params of one tool, in the order they are declared, each with a token name no other has. */
export interface ToolParams {
  readonly list: Json[];
  /** The token for a document name (`X-Trace` → `X_Trace`), suffixed `_2`, `_3` … when taken. */
  claim(wanted: string): string;
  isTaken(token: string): boolean;
  /** A description from the document as plain text for the model (plain-text.ts), or undefined. */
  text(description: unknown): string | undefined;
  /** A param's type and details from its schema, a union narrowed to a branch `place` can carry when one can (schema-to-param.ts). */
  fieldsOf(original: string, schema: Schema, place: ParamPlace): ParamFields;
  /** Declares a param: its fields, the document's description unless resolver-bound. */
  declare(token: string, original: string, fields: ParamFields, required: boolean, description: unknown): void;
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
    fieldsOf: (original, schema, place) => paramFields(schema, context.lose, `"${original}"`, { text, place, note: context.note }),
    declare(token, original, fields, required, description) {
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
  if (where === 'path' || where === 'query' || where === 'header') {
    if (where === 'header' && (SKIPPED_HEADERS.has(original.toLowerCase()) || !isHttpToken(original))) {
      context.lose(`header param "${original}" was dropped (the client or auth sets it)`);
      return undefined;
    }
    const fields = placedFields(param, where, schema, params, context);
    if (fields === undefined || typeof fields === 'string') return fields;
    const token = params.claim(original);
    if (where === 'path') {
      placed.url = placed.url.replaceAll(`{${original}}`, `{{${token}}}`);
      placed.pathParams.push(token);
    } else if (where === 'query') placed.queryParams[original] = `{{${token}}}`;
    else placed.headers[original] = `{{${token}}}`;
    params.declare(token, original, fields, where === 'path' || param['required'] === true, param['description']);
    if (where === 'query' && fields.type === 'array' && (fields as { queryStyle?: string }).queryStyle === undefined) {
      const style = param['style'] ?? (context.swagger ? undefined : 'form');
      if (param['explode'] === false || (context.swagger && param['collectionFormat'] !== undefined && param['collectionFormat'] !== 'multi')) {
        context.lose(`query array "${original}" is sent as repeated keys, not ${context.swagger ? String(param['collectionFormat']) : String(style)}-joined`);
      } else if (style === 'deepObject') context.note(DEEP_OBJECT_ARRAY_NOTE, `"${original.slice(0, 80)}"`);
    }
  } else if (where === 'cookie') {
    if (param['required'] === true) return 'a required cookie param';
    context.lose(`cookie param "${original}" was dropped`);
  } else if (where === 'formData') {
    // A file field makes the body multipart (RCP 0.4, request-body.ts).
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
