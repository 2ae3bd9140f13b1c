import { isRecord } from 'rcp-internal';
import { fileFields, isFileArraySchema, isFileSchema } from './file-fields';
import { jsonMediaType } from './media-type';
import { article, mergeAllOf, nonNullBranches, paramFields, setOwn, typeOf, unionOf, type Schema } from './schema-to-param';
import { tokenNameOf } from './tool-names';
import type { ToolParams } from './tool-params';

type Json = Record<string, unknown>;
type Lose = (message: string) => void;

/** The body an operation declares, as the tool will send it. */
export interface DeclaredBody {
  /** Undefined when there is no body to send (none declared, or an optional one RCP cannot send). */
  readonly schema: Schema | undefined;
  readonly usesForm: boolean;
  /** Sent as `multipart/form-data` (RCP 0.4, SPEC §20.7): its file fields become file params. */
  readonly usesMultipart: boolean;
  /** OpenAPI 3's `encoding` of a multipart body, by field (a file field's `contentType`). */
  readonly encoding?: Json;
  readonly required: boolean;
  /** The Content-Type a JSON body other than `application/json` needs (`application/merge-patch+json`). */
  readonly contentType: string | undefined;
}

const NO_BODY: DeclaredBody = { schema: undefined, usesForm: false, usesMultipart: false, required: false, contentType: undefined };

const MULTIPART_FORM = /^multipart\/form-data\s*(?:;|$)/i;

/**
 * A body of types RCP cannot send (neither JSON nor a form): the reason to skip the operation
 * (multipart, or any required one), or undefined after `lose` says the optional body was left out.
 */
function bodyNotSent(types: readonly string[], required: boolean, lose: Lose): string | undefined {
  // multipart/form-data is sent (RCP 0.4) from named fields; another multipart type (mixed, related) is not.
  if (types.some((type) => MULTIPART_FORM.test(type))) return 'a multipart body without form fields';
  if (types.some((type) => type.startsWith('multipart/'))) return 'a multipart body other than multipart/form-data';
  const listed = types.join(', ') || 'none';
  if (required) return `an unsupported body type (${listed})`;
  lose(`the optional body (${listed}) was left out`);
  return undefined;
}

/** Swagger 2: `formData` params are a form body, a `body` param is JSON unless `consumes` says otherwise; or why the operation is skipped. */
export function swaggerBody(
  document: Json,
  operation: Json,
  formFields: readonly Json[] | undefined,
  bodyParam: Json | undefined,
  lose: Lose,
): DeclaredBody | { skip: string } {
  const listed = Array.isArray(operation['consumes']) ? operation['consumes'] : Array.isArray(document['consumes']) ? document['consumes'] : [];
  const consumes = listed.filter((type): type is string => typeof type === 'string');
  if (formFields !== undefined) {
    // A file field, or a document that takes multipart only, is a multipart body (RCP 0.4); else a form.
    const multipart =
      formFields.some((field) => field['type'] === 'file') ||
      (consumes.some((type) => MULTIPART_FORM.test(type)) && !consumes.includes('application/x-www-form-urlencoded'));
    if (!multipart && consumes.some((type) => type.startsWith('multipart/')) && !consumes.includes('application/x-www-form-urlencoded')) {
      return { skip: 'a multipart body other than multipart/form-data' };
    }
    const properties: Json = {};
    const required: string[] = [];
    for (const field of formFields) {
      setOwn(properties, field['name'] as string, field);
      if (field['required'] === true) required.push(field['name'] as string);
    }
    const schema = { type: 'object', properties, required };
    return { schema, usesForm: !multipart, usesMultipart: multipart, required: required.length > 0, contentType: undefined };
  }
  if (bodyParam === undefined) return NO_BODY;
  const bodyRequired = bodyParam['required'] === true;
  const json = jsonMediaType(consumes);
  if (consumes.length > 0 && json === undefined) {
    // A body the document says is not JSON (`application/octet-stream`, `application/xml`).
    const skip = bodyNotSent(consumes, bodyRequired, lose);
    return skip !== undefined ? { skip } : { ...NO_BODY, required: bodyRequired };
  }
  const schema = isRecord(bodyParam['schema']) ? (bodyParam['schema'] as Schema) : {};
  return { schema, usesForm: false, usesMultipart: false, required: bodyRequired, contentType: json?.contentType };
}

/** OpenAPI 3: the `requestBody`'s JSON content first, else a form; or why the operation is skipped. */
export function openApiBody(operation: Json, lose: Lose): DeclaredBody | { skip: string } {
  if (!isRecord(operation['requestBody'])) return NO_BODY;
  const requestBody = operation['requestBody'];
  if (typeof requestBody['$ref'] === 'string') return { skip: 'an unresolved $ref in the request body' };
  const content = isRecord(requestBody['content']) ? requestBody['content'] : {};
  const types = Object.keys(content);
  const json = jsonMediaType(types);
  const form = types.find((type) => /^application\/x-www-form-urlencoded/i.test(type));
  // JSON first, then a form, then multipart/form-data (RCP 0.4): the first RCP sends with the least change.
  const multipart = types.find((type) => MULTIPART_FORM.test(type));
  const chosen = json?.type ?? form ?? multipart;
  const required = requestBody['required'] === true;
  if (chosen === undefined) {
    const skip = bodyNotSent(types, required, lose);
    return skip !== undefined ? { skip } : { ...NO_BODY, required };
  }
  const media = content[chosen];
  const schema = isRecord(media) && isRecord(media['schema']) ? (media['schema'] as Schema) : {};
  const usesMultipart = chosen === multipart && json === undefined && form === undefined;
  const encoding = usesMultipart && isRecord(media) && isRecord(media['encoding']) ? media['encoding'] : undefined;
  return {
    schema,
    usesForm: chosen === form && json === undefined,
    usesMultipart,
    ...(encoding !== undefined && { encoding }),
    required,
    contentType: json?.contentType,
  };
}

/**
 * A union body becomes one of its branches, never an open object the model may send empty: the
 * first with properties, else the first with a type (`whole`: its required fields are required
 * even when the body is optional, as the body is always sent). A null branch is dropped.
 */
function oneBranch(merged: Schema, lose: Lose): { schema: Schema; whole: boolean } | { skip: string } {
  const union = unionOf(merged);
  if (union === undefined) return { schema: merged, whole: false };
  const branches = nonNullBranches(union.branches);
  const { [union.keyword]: _union, ...shared } = merged;
  if (branches.length < union.branches.length) lose('the body is nullable: a null body is never sent');
  if (branches.length <= 1) return { schema: branches.length === 1 ? mergeAllOf({ allOf: [shared, branches[0]!] }) : shared, whole: false };
  const flat = branches.map((branch) => mergeAllOf({ allOf: [shared, branch] }));
  let index = flat.findIndex((branch) => isRecord(branch['properties']) && Object.keys(branch['properties']).length > 0);
  if (index === -1) index = flat.findIndex((branch) => typeOf(branch) !== undefined);
  if (index === -1) return { skip: `${article(union.keyword)} body with no branch RCP can express` };
  lose(
    `the body is ${article(union.keyword)} of ${branches.length} schemas: branch ${index + 1} was imported (its required fields required); the other branches were left out`,
  );
  return { schema: flat[index]!, whole: true };
}

/** An object body: each writable top-level property one param (`body_` before a name another param has). */
function objectBody(schema: Schema, declared: DeclaredBody, whole: boolean, params: ToolParams, lose: Lose): { body: unknown } | { skip: string } {
  const template: Json = {};
  const requiredNames = new Set(Array.isArray(schema['required']) ? (schema['required'] as string[]) : []);
  for (const [property, propertySchema] of Object.entries(schema['properties'] as Json)) {
    if (!isRecord(propertySchema) || propertySchema['readOnly'] === true) continue;
    if (declared.usesForm && (property.includes('[') || property.includes(']'))) {
      lose(`form field "${property}" was dropped (brackets in a field name)`);
      continue;
    }
    const required = (declared.required || whole) && requiredNames.has(property);
    const file = declared.usesMultipart && isFileSchema(propertySchema as Schema);
    if (declared.usesMultipart && isFileArraySchema(propertySchema as Schema)) {
      // RCP 0.4 sends one file per param (SPEC §20.7, open: several files per param).
      if (required) return { skip: `a required field of several files ("${property.slice(0, 80)}")` };
      lose(`field "${property}" (several files) was dropped: a file param carries one file`);
      continue;
    }
    const clash = params.isTaken(tokenNameOf(property));
    const token = params.claim(clash ? `body_${property}` : property);
    setOwn(template, property, `{{${token}}}`);
    const fields = file
      ? fileFields(propertySchema as Schema, declared.encoding?.[property], lose, `"${property}"`)
      : params.fieldsOf(property, propertySchema as Schema, 'body');
    params.declare(token, property, fields, required, propertySchema['description']);
  }
  if (Object.keys(template).length > 0) return { body: template };
  return declared.required ? { skip: 'a body with no writable property' } : { body: undefined };
}

/**
 * A multipart body whose schema is not an object: one file (Jira's attachments: `format: binary` at
 * the root) is sent as a part named `file` — the name is not in the document, so the report says
 * so; anything else cannot be a multipart body (its parts have no names).
 */
function multipartWithoutFields(schema: Schema, params: ToolParams, lose: Lose): { body: unknown } | { skip: string } {
  if (!isFileSchema(schema)) return { skip: typeOf(schema) === 'object' ? 'a multipart body with no fields' : 'a multipart body that is not an object' };
  lose('the multipart body is one file with no field name: it is sent as a part named "file"');
  const token = params.claim('file');
  params.list.push({ name: token, ...fileFields(schema, undefined, lose, 'the body'), required: true, description: 'The file to upload.' });
  return { body: { file: `{{${token}}}` } };
}

/**
 * The tool's body template from the declared body (`allOf` merged, a union as one branch): an
 * object's properties as params, any other value as one param `body`; none for a GET (fetch
 * cannot send one). Or why the operation is skipped.
 */
export function bodyTemplate(declared: DeclaredBody, method: string, params: ToolParams, lose: Lose): { body: unknown } | { skip: string } {
  if (declared.schema === undefined) return { body: undefined };
  if (method === 'get') {
    lose('the body of a GET operation was left out (fetch cannot send one)');
    return { body: undefined };
  }
  const branch = oneBranch(mergeAllOf(declared.schema), lose);
  if ('skip' in branch) return branch;
  const { schema, whole } = branch;
  if (isRecord(schema['properties'])) return objectBody(schema, declared, whole, params, lose);
  if (declared.usesMultipart) return multipartWithoutFields(schema, params, lose);
  if (typeOf(schema) === undefined && Object.keys(schema).length > 0) return { body: undefined };
  if (declared.usesForm) return { skip: 'a form body that is not an object' };
  const token = params.claim('body');
  const fields = paramFields(schema, lose, 'the body', { text: params.text });
  params.list.push({ name: token, ...fields, ...((declared.required || whole) && { required: true }), description: 'The request body.' });
  return { body: `{{${token}}}` };
}
