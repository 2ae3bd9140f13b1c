import { type TSchema } from '@sinclair/typebox';
import { Errors, ValueErrorType, type ValueError } from '@sinclair/typebox/errors';
import { TypeSystemPolicy } from '@sinclair/typebox/system';
import { Check } from '@sinclair/typebox/value';
import type { ManifestIssue } from '../manifest-errors';
import {
  HTTP_TOKEN_PATTERN,
  MAPPING_PATH_PATTERN,
  NON_BLANK_PATTERN,
  PARAM_NAME_PATTERN,
  RcpManifestSchema,
  TOOL_NAME_PATTERN,
} from '../manifest-schema';

/*
 * The structural check is RcpManifestSchema's, as TypeBox checks it. A valid manifest is
 * recognised by `conformsToSchema`, a hand-written check of the same schema under TypeBox's
 * default policy that allocates nothing and generates no code (so it needs no `unsafe-eval`
 * under a CSP either). It says "valid" exactly when TypeBox does (a test holds it to that).
 * Anything else goes to TypeBox itself: its `Check` has the last word on validity, and its
 * `Errors` lists every problem.
 */

const TOOL_NAME = new RegExp(TOOL_NAME_PATTERN);
const NON_BLANK = new RegExp(NON_BLANK_PATTERN);
const PARAM_NAME = new RegExp(PARAM_NAME_PATTERN);
const HTTP_TOKEN = new RegExp(HTTP_TOKEN_PATTERN);
const MAPPING_PATH = new RegExp(MAPPING_PATH_PATTERN);
const METHODS: readonly unknown[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const PARAM_TYPES: readonly unknown[] = ['string', 'number', 'integer', 'boolean', 'array', 'object'];

type Fields = Record<string, unknown>;

/** TypeBox's object test: not null, not an array. */
function isObject(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** TypeBox's record test (an object, not a Date or bytes) with every own enumerable value passing `test`. */
function isRecordOf(value: unknown, test: (entry: unknown) => boolean): boolean {
  if (!isObject(value) || value instanceof Date || value instanceof Uint8Array) return false;
  for (const key in value) {
    if (Object.hasOwn(value, key) && !test(value[key])) return false;
  }
  return true;
}

function isStringEntry(entry: unknown): boolean {
  return typeof entry === 'string';
}

function isMappingEntry(entry: unknown): boolean {
  return typeof entry === 'string' && MAPPING_PATH.test(entry);
}

function isAuth(auth: unknown): boolean {
  if (!isObject(auth)) return false;
  if (auth['type'] === 'none') return true;
  if (auth['type'] !== 'header') return false;
  const name = auth['name'];
  const scheme = auth['scheme'];
  return (
    typeof name === 'string' &&
    HTTP_TOKEN.test(name) &&
    (scheme === undefined || (typeof scheme === 'string' && HTTP_TOKEN.test(scheme)))
  );
}

function isParam(param: unknown): boolean {
  if (!isObject(param)) return false;
  const name = param['name'];
  const type = param['type'];
  const description = param['description'];
  const required = param['required'];
  return (
    typeof name === 'string' &&
    PARAM_NAME.test(name) &&
    (type === undefined || PARAM_TYPES.includes(type)) &&
    (description === undefined || typeof description === 'string') &&
    (required === undefined || typeof required === 'boolean')
  );
}

function isTool(tool: unknown): boolean {
  if (!isObject(tool)) return false;
  const name = tool['name'];
  const description = tool['description'];
  if (typeof name !== 'string' || !TOOL_NAME.test(name)) return false;
  if (typeof description !== 'string' || !NON_BLANK.test(description)) return false;
  if (!METHODS.includes(tool['method']) || typeof tool['url'] !== 'string') return false;
  const params = tool['params'];
  if (params !== undefined) {
    if (!Array.isArray(params)) return false;
    for (let index = 0; index < params.length; index++) if (!isParam(params[index])) return false;
  }
  const queryParams = tool['queryParams'];
  if (queryParams !== undefined && !isRecordOf(queryParams, isStringEntry)) return false;
  const headers = tool['headers'];
  if (headers !== undefined && !isRecordOf(headers, isStringEntry)) return false;
  const auth = tool['auth'];
  if (auth !== undefined && !isAuth(auth)) return false;
  const mappings = tool['responseMappings'];
  return mappings === undefined || isRecordOf(mappings, isMappingEntry);
}

/** TypeBox's global policy is the default one, which `conformsToSchema` implements. */
function isDefaultPolicy(): boolean {
  return (
    !TypeSystemPolicy.ExactOptionalPropertyTypes &&
    !TypeSystemPolicy.AllowArrayObject &&
    !TypeSystemPolicy.AllowNaN &&
    !TypeSystemPolicy.AllowNullVoid
  );
}

/** True exactly for the values RcpManifestSchema accepts under TypeBox's default policy. */
export function conformsToSchema(manifest: unknown): boolean {
  if (!isObject(manifest) || manifest['rcpVersion'] !== '0.1') return false;
  const auth = manifest['auth'];
  if (auth !== undefined && !isAuth(auth)) return false;
  const tools = manifest['tools'];
  if (!Array.isArray(tools)) return false;
  for (let index = 0; index < tools.length; index++) if (!isTool(tools[index])) return false;
  return true;
}

const TOKEN_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function patternMessage(pattern: string, value: unknown): string {
  switch (pattern) {
    case TOOL_NAME_PATTERN:
      return 'must be 1-64 characters from A-Z a-z 0-9 _ - (what model APIs accept as a function name)';
    case PARAM_NAME_PATTERN:
      return typeof value === 'string' && TOKEN_NAME.test(value)
        ? `"${value}" is a reserved name (__proto__, constructor and prototype are not allowed)`
        : 'must be a token name: a letter or "_" followed by letters, digits or "_"';
    case HTTP_TOKEN_PATTERN:
      return "must be an HTTP token (RFC 9110): letters, digits and !#$%&'*+-.^_`|~ only";
    case NON_BLANK_PATTERN:
      return 'must not be empty or blank';
    case MAPPING_PATH_PATTERN:
      return 'must start with "@" (for example "@data.name")';
    default:
      return `must match ${pattern}`;
  }
}

function literalValues(schema: TSchema): unknown[] | undefined {
  const variants = (schema as { anyOf?: TSchema[] }).anyOf;
  if (!Array.isArray(variants) || !variants.every((variant) => 'const' in variant)) return undefined;
  return variants.map((variant) => (variant as unknown as { const: unknown }).const);
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `{ type: ... }` discriminants of an object union, in variant order. */
function discriminants(schema: TSchema): unknown[] | undefined {
  const variants = (schema as { anyOf?: TSchema[] }).anyOf;
  if (!Array.isArray(variants)) return undefined;
  const values: unknown[] = [];
  for (const variant of variants) {
    const type = (variant as { properties?: Record<string, TSchema> }).properties?.['type'];
    if (type === undefined || !('const' in type)) return undefined;
    values.push((type as unknown as { const: unknown }).const);
  }
  return values;
}

function listOf(values: unknown[]): string {
  return values.map((value) => JSON.stringify(value)).join(', ');
}

function collect(error: ValueError, issues: ManifestIssue[]): void {
  const { path, value, schema } = error;
  if (value === undefined) {
    issues.push({ path, message: 'is required' });
    return;
  }
  switch (error.type) {
    case ValueErrorType.String:
      issues.push({ path, message: 'must be a string' });
      return;
    case ValueErrorType.Boolean:
      issues.push({ path, message: 'must be true or false' });
      return;
    case ValueErrorType.Array:
      issues.push({ path, message: 'must be an array' });
      return;
    case ValueErrorType.Object:
      issues.push({ path, message: 'must be an object' });
      return;
    case ValueErrorType.StringPattern:
      issues.push({ path, message: patternMessage(String((schema as { pattern?: string }).pattern), value) });
      return;
    case ValueErrorType.Literal:
      issues.push({ path, message: `must be ${JSON.stringify((schema as { const?: unknown }).const)}` });
      return;
    case ValueErrorType.Union: {
      const literals = literalValues(schema);
      if (literals !== undefined) {
        issues.push({ path, message: `must be one of ${listOf(literals)}` });
        return;
      }
      const types = discriminants(schema);
      if (types !== undefined) {
        if (!isPlainRecord(value)) {
          issues.push({ path, message: 'must be an object' });
          return;
        }
        const index = types.indexOf(value['type']);
        const variantErrors = index === -1 ? undefined : error.errors[index];
        if (variantErrors === undefined) {
          issues.push({
            path: `${path}/type`,
            message: value['type'] === undefined ? 'is required' : `must be one of ${listOf(types)}`,
          });
          return;
        }
        for (const inner of variantErrors) collect(inner, issues);
        return;
      }
      issues.push({ path, message: error.message });
      return;
    }
    default:
      issues.push({ path, message: error.message });
  }
}

/**
 * Structural problems (types, required fields, enumerations, patterns) found with TypeBox, with
 * readable messages. Empty when the manifest is structurally valid.
 */
export function structuralIssues(manifest: unknown): ManifestIssue[] {
  if (isDefaultPolicy() && conformsToSchema(manifest)) return [];
  if (Check(RcpManifestSchema, manifest)) return [];
  const issues: ManifestIssue[] = [];
  for (const error of Errors(RcpManifestSchema, manifest)) collect(error, issues);
  return issues;
}
