import { compileRequest, isRcpError, parseTemplate, type RequestTemplate } from 'rcp-template';
import { isRecord } from 'rcp-internal';
import type { ManifestIssue } from '../manifest-errors';
import {
  AUTH_FIELDS,
  EFFECT_FIELDS,
  GROUP_FIELDS,
  HTTP_TOKEN_PATTERN,
  IDEMPOTENCY_FIELDS,
  STREAM_FIELDS,
  OPERATION_FIELDS,
  MANIFEST_FIELDS,
  OAUTH_HINT_FIELDS,
  PAGINATION_FIELDS,
  PARAM_FIELDS,
  PARAM_NAME_PATTERN,
  TOOL_FIELDS,
  TOOL_NAME_PATTERN,
  VALUE_FIELDS,
} from '../manifest-patterns';
import type { RcpParam, RcpParamType } from '../manifest-schema';
import { EXPECTED_TYPE, compileValueCheck, hasType } from '../value-check';
import { unsafePatternReason } from './regex-safety';
import { isForbiddenHeaderName } from '../forbidden-headers';
import { headerNameProblem } from './header-names';
import type { RcpFilterEngine } from './filter-engine';
import { compileResponsePath } from './json-path';
import { mappingNameProblem } from '../compile-response-mappings';
import { comparePointers, joinPointer } from './json-pointer';
import { walkJsonTree } from './json-tree';
import { structuralIssues } from './structural-check';

/** Problems (errors) and warnings of one manifest, each sorted in document order. */
export interface ValidationResult {
  readonly issues: ManifestIssue[];
  readonly warnings: ManifestIssue[];
}

type JsonObject = Record<string, unknown>;

const HTTP_TOKEN = new RegExp(HTTP_TOKEN_PATTERN);
const PARAM_NAME = new RegExp(PARAM_NAME_PATTERN);
const TOOL_NAME = new RegExp(TOOL_NAME_PATTERN);
/** `$schema` (an editor's JSON Schema reference) is expected at the top and ignored silently. */
const MANIFEST_KEYS = [...MANIFEST_FIELDS, '$schema'];

/** An own property's value (never an inherited one). */
export function own(object: JsonObject, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

/** Collects issues and warnings for one manifest. */
class Report {
  readonly issues: ManifestIssue[] = [];
  /** The JSONPath filter engine the caller gave (`parseManifest`'s `filterEngine` option). */
  filterEngine: RcpFilterEngine | undefined = undefined;
  /** Whether the structural walk found nothing (only then may a schema be compiled). */
  structurallyValid = false;
  /** The manifest's `rcpVersion` (what 0.2 features it may use). */
  version: unknown = undefined;
  readonly warnings: ManifestIssue[] = [];

  error(path: string, message: string): void {
    this.issues.push({ path, message });
  }

  warn(path: string, message: string): void {
    this.warnings.push({ path, message });
  }

  unknownFields(object: JsonObject, pointer: string, known: readonly string[]): void {
    unknownFieldWarnings(object, pointer, known, this.warnings);
  }
}

/** A warning for every key of `object` not in `known`. */
function unknownFieldWarnings(object: JsonObject, pointer: string, known: readonly string[], warnings: ManifestIssue[]): void {
  for (const key of Object.keys(object)) {
    if (!known.includes(key)) warnings.push({ path: joinPointer(pointer, key), message: `unknown field "${key}" is ignored` });
  }
}

function templateErrorMessage(error: unknown): string {
  if (isRcpError(error)) return error.message;
  if (error instanceof RangeError) return 'the template is nested too deeply';
  return 'the template could not be compiled';
}

/** Tokens of one template position, or undefined (and an issue) when it does not compile. */
function compileTokens(template: RequestTemplate, pointer: string, report: Report): readonly string[] | undefined {
  try {
    return compileRequest(template).tokens;
  } catch (error) {
    report.error(pointer, templateErrorMessage(error));
    return undefined;
  }
}

/** What a 0.1 manifest may not use: it changes the request on the wire, and a 0.1 client would not send it. */
function needsVersion(report: Report, pointer: string, what: string): void {
  if (report.version === '0.1') report.error(pointer, `${what} needs rcpVersion "0.2" (this manifest says "0.1", whose clients would not send it)`);
}

/**
 * What only a 0.3 manifest may use: it changes what a client does with a response (media parts,
 * pages), and an older client would quietly do otherwise (decode an image as text).
 */
function needsVersion03(report: Report, pointer: string, what: string): void {
  const version = report.version;
  if (version === '0.1' || version === '0.2') {
    report.error(pointer, `${what} needs rcpVersion "0.3" (this manifest says "${version}", whose clients would ignore it)`);
  }
}

/**
 * What only a 0.4 manifest may use: it changes what a client sends (an idempotency key), and an
 * older client would send none, so its calls would be refused.
 */
function needsVersion04(report: Report, pointer: string, what: string, consequence = 'send no key'): void {
  const version = report.version;
  if (version === '0.1' || version === '0.2' || version === '0.3') {
    report.error(pointer, `${what} needs rcpVersion "0.4" (this manifest says "${version}", whose clients would ${consequence})`);
  }
}

function checkAuth(auth: unknown, pointer: string, report: Report): void {
  if (!isRecord(auth)) return;
  const type = own(auth, 'type');
  const known = typeof type === 'string' && Object.hasOwn(AUTH_FIELDS, type) ? AUTH_FIELDS[type] : undefined;
  if (known === undefined) return; // structural check reports it
  report.unknownFields(auth, pointer, known);
  if (type === 'query') needsVersion(report, joinPointer(pointer, 'type'), 'query auth');
  const name = own(auth, 'name');
  if (type === 'header' && typeof name === 'string' && HTTP_TOKEN.test(name) && isForbiddenHeaderName(name)) {
    report.error(joinPointer(pointer, 'name'), `"${name}" cannot carry a credential (the HTTP client controls that header)`);
  }
  const hint = own(auth, 'oauth');
  if (type === 'header' && isRecord(hint)) checkOAuthHint(hint, auth, joinPointer(pointer, 'oauth'), report);
}

/**
 * An OAuth hint is read by people only: its issuer must be an identifier as RFC 8414 writes it
 * (https, or http on a loopback host for a test server; no credentials, query or fragment), and
 * an access token is sent as `Authorization: Bearer` (RFC 6750), so anything else is a warning.
 */
function checkOAuthHint(hint: JsonObject, auth: JsonObject, pointer: string, report: Report): void {
  report.unknownFields(hint, pointer, OAUTH_HINT_FIELDS);
  const issuer = own(hint, 'issuer');
  if (typeof issuer === 'string') {
    const problem = issuerProblem(issuer);
    if (problem !== undefined) report.error(joinPointer(pointer, 'issuer'), problem);
  }
  const name = own(auth, 'name');
  const scheme = own(auth, 'scheme');
  if (typeof name === 'string' && (name.toLowerCase() !== 'authorization' || typeof scheme !== 'string' || scheme.toLowerCase() !== 'bearer')) {
    report.warn(pointer, 'an OAuth 2 access token is sent as "Authorization: Bearer <token>" (RFC 6750); this auth sends it otherwise');
  }
}

/** localhost, [::1] and 127.0.0.0/8, written as such (a test authorization server). */
const LOOPBACK_HOST = /^(?:localhost|\[::1\]|127(?:\.\d{1,3}){3})$/;

function issuerProblem(issuer: string): string | undefined {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return 'must be an absolute https URL (an RFC 8414 issuer identifier)';
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK_HOST.test(url.hostname))) {
    return 'must be an https URL (http only on a loopback host)';
  }
  if (url.username !== '' || url.password !== '') return 'must not contain credentials';
  if (url.search !== '' || url.hash !== '' || issuer.includes('?') || issuer.includes('#')) return 'must not have a query or a fragment (RFC 8414)';
  return undefined;
}

/** Methods that change what they address: a read-only claim contradicts them. */
const WRITE_METHODS: readonly unknown[] = ['PUT', 'PATCH', 'DELETE'];

/**
 * Declared effects are the server's claims; one that contradicts itself or the method
 * (a read-only DELETE, a read-only call that destroys) is refused rather than guessed at.
 */
function checkEffects(tool: JsonObject, pointer: string, report: Report): void {
  const effects = own(tool, 'effects');
  if (!isRecord(effects)) return;
  report.unknownFields(effects, pointer, EFFECT_FIELDS);
  if (own(effects, 'readOnly') !== true) return;
  const method = own(tool, 'method');
  if (WRITE_METHODS.includes(method)) report.error(joinPointer(pointer, 'readOnly'), `a ${String(method)} call is not read-only`);
  if (own(effects, 'destructive') === true) report.error(joinPointer(pointer, 'destructive'), 'a read-only call cannot be destructive');
  if (own(effects, 'idempotent') === false) report.error(joinPointer(pointer, 'idempotent'), 'a read-only call is idempotent');
}

/** The query key the effective auth sets, if any. */
function authQueryName(auth: unknown): string | undefined {
  if (!isRecord(auth) || own(auth, 'type') !== 'query') return undefined;
  const name = own(auth, 'name');
  return typeof name === 'string' ? name : undefined;
}

/** The header name the effective auth sets, lowercase, if any. */
function authHeaderName(auth: unknown): string | undefined {
  if (!isRecord(auth) || own(auth, 'type') !== 'header') return undefined;
  const name = own(auth, 'name');
  return typeof name === 'string' ? name.toLowerCase() : undefined;
}

interface ToolContext {
  readonly pointer: string;
  /** Declared param names → index of their first declaration. */
  readonly declared: Map<string, number>;
  readonly used: Set<string>;
  readonly report: Report;
}

function useTokens(tokens: readonly string[], pointer: string, context: ToolContext): void {
  for (const token of tokens) {
    context.used.add(token);
    if (!context.declared.has(token)) {
      context.report.error(pointer, `uses {{${token}}}, which is not declared in params`);
    }
  }
}

function checkParams(tool: JsonObject, context: ToolContext): void {
  const params = own(tool, 'params');
  if (!Array.isArray(params)) return;
  params.forEach((param: unknown, index) => {
    if (!isRecord(param)) return;
    const pointer = joinPointer(context.pointer, 'params', index);
    context.report.unknownFields(param, pointer, PARAM_FIELDS);
    checkDetails(param, pointer, context.report, true);
    checkQueryStyle(param, pointer, context.report);
    checkFileParam(param, pointer, context.report);
    const name = own(param, 'name');
    if (typeof name !== 'string') return;
    const first = context.declared.get(name);
    if (first !== undefined) {
      context.report.error(
        joinPointer(pointer, 'name'),
        `duplicate param name "${name}" (already declared at ${joinPointer(context.pointer, 'params', first)})`,
      );
    } else {
      context.declared.set(name, index);
    }
  });
}

/**
 * RCP 0.4 file params (SPEC §20.7): `type: "file"` only in a 0.4 manifest (an older client would send the model's
 * reference as text); `mediaTypes` and `maxBytes` on a file param only; no `enum` or `default` on one (the model names
 * an attachment the host holds, never one the manifest picks).
 */
function checkFileParam(param: JsonObject, pointer: string, report: Report): void {
  const isFile = own(param, 'type') === 'file';
  if (isFile) needsVersion04(report, joinPointer(pointer, 'type'), 'a file param', 'send the reference as text');
  for (const key of ['mediaTypes', 'maxBytes']) {
    if (own(param, key) !== undefined && !isFile) report.error(joinPointer(pointer, key), `only a file param (type "file") can have "${key}"`);
  }
  if (!isFile) return;
  for (const key of ['enum', 'default']) {
    if (own(param, key) !== undefined) report.error(joinPointer(pointer, key), `a file param cannot have "${key}": the model names an attachment it was given`);
  }
}

/** The names of the tool's file params (declared first under that name). */
function fileParamNames(tool: JsonObject, context: ToolContext): Set<string> {
  const names = new Set<string>();
  const params = own(tool, 'params');
  if (!Array.isArray(params)) return names;
  params.forEach((param: unknown, index) => {
    if (!isRecord(param) || own(param, 'type') !== 'file') return;
    const name = own(param, 'name');
    if (typeof name === 'string' && context.declared.get(name) === index) names.add(name);
  });
  return names;
}

/**
 * A file param may only be the whole value of a top-level field of a multipart body (one file part); anywhere else — the
 * URL, the query, a header, a JSON or form body, nested, inside a longer string — it is an error at that position.
 */
function checkFileUses(tool: JsonObject, context: ToolContext): void {
  const files = fileParamNames(tool, context);
  if (files.size === 0) return;
  const refuse = (at: string, text: string, allowWhole: boolean) => {
    const template = templateOf(text);
    if (template === undefined) return;
    for (const token of template.tokens) {
      if (!files.has(token) || (allowWhole && template.single === token)) continue;
      context.report.error(at, `uses file param "${token}", which can only be the whole value of a field of a multipart body (bodyEncoding "multipart")`);
    }
  };
  const url = own(tool, 'url');
  if (typeof url === 'string') refuse(joinPointer(context.pointer, 'url'), url, false);
  for (const field of ['queryParams', 'headers']) {
    const values = own(tool, field);
    if (!isRecord(values)) continue;
    for (const key of Object.keys(values)) {
      const value = values[key];
      if (typeof value === 'string') refuse(joinPointer(context.pointer, field, key), value, false);
    }
  }
  const body = own(tool, 'body');
  if (body === undefined) return;
  const multipart = own(tool, 'bodyEncoding') === 'multipart';
  if (multipart && !isRecord(body)) return; // the multipart rule reports a body that is not an object of fields
  const bodyAt = joinPointer(context.pointer, 'body');
  walkJsonTree(
    body,
    bodyAt,
    (text, at) => {
      // A top-level field of a multipart body is at /body/<field>: one more segment than the body.
      const topLevel = multipart && isRecord(body) && at.startsWith(`${bodyAt}/`) && !at.slice(bodyAt.length + 1).includes('/');
      refuse(at, text, topLevel);
    },
    () => {},
  );
}

/**
 * A multipart body (RCP 0.4) is an object template, one part per field: its field names must be non-empty and free of
 * `"`, `\` and control characters (they are written into a part's Content-Disposition), and the client alone sets the
 * Content-Type (it carries the boundary). Returns false when it is not an object at all.
 */
function checkMultipartBody(tool: JsonObject, body: unknown, toolPointer: string, report: Report): boolean {
  const pointer = joinPointer(toolPointer, 'body');
  const headers = own(tool, 'headers');
  if (isRecord(headers)) {
    for (const name of Object.keys(headers)) {
      if (name.toLowerCase() === 'content-type') {
        report.error(joinPointer(toolPointer, 'headers', name), "a multipart body's Content-Type is set by the client (it carries the boundary)");
      }
    }
  }
  if (!isRecord(body)) {
    report.error(pointer, 'a multipart body must be an object of fields (bodyEncoding "multipart")');
    return false;
  }
  for (const key of Object.keys(body)) {
    if (key === '' || /["\\\u0000-\u001f\u007f]/.test(key)) {
      report.error(joinPointer(pointer, key), 'a multipart field name must be non-empty, without `"`, `\\` or control characters');
    }
  }
  return true;
}

/**
 * RCP 0.4 `queryStyle`: only in a 0.4 manifest (an older client would write the value the default way, which the API
 * would misread), and on the type it writes: `deepObject` an object, `comma` an array.
 */
function checkQueryStyle(param: JsonObject, pointer: string, report: Report): void {
  const style = own(param, 'queryStyle');
  if (typeof style !== 'string') return;
  const at = joinPointer(pointer, 'queryStyle');
  needsVersion04(report, at, 'queryStyle', 'write the value another way');
  const type = own(param, 'type');
  if (style === 'deepObject' && type !== 'object') report.error(at, `is "deepObject", which writes an object: the param's type must be "object"`);
  if (style === 'comma' && type !== 'array') report.error(at, `is "comma", which writes an array: the param's type must be "array"`);
}

/**
 * A param with a `queryStyle` other than `repeat` must be the whole value of a query entry wherever the query uses it
 * (the style says how that whole value is written), and the query must use it.
 */
function checkQueryStyleUse(tool: JsonObject, context: ToolContext): void {
  const params = own(tool, 'params');
  if (!Array.isArray(params)) return;
  const styled = new Map<string, number>();
  params.forEach((param: unknown, index) => {
    if (!isRecord(param)) return;
    const style = own(param, 'queryStyle');
    const name = own(param, 'name');
    if (typeof name === 'string' && (style === 'comma' || style === 'deepObject') && context.declared.get(name) === index) styled.set(name, index);
  });
  if (styled.size === 0) return;
  const wholeValue = new Set<string>();
  const partOfValue = new Set<string>();
  const visit = (text: string) => {
    const template = templateOf(text);
    if (template === undefined) return;
    for (const token of template.tokens) (template.single === token ? wholeValue : partOfValue).add(token);
  };
  const url = own(tool, 'url');
  if (typeof url === 'string' && url.includes('?')) {
    for (const entry of url.slice(url.indexOf('?') + 1).split('&')) if (entry.includes('=')) visit(entry.slice(entry.indexOf('=') + 1));
  }
  const queryParams = own(tool, 'queryParams');
  if (isRecord(queryParams)) for (const value of Object.values(queryParams)) if (typeof value === 'string') visit(value);
  for (const [name, index] of styled) {
    const at = joinPointer(context.pointer, 'params', index, 'queryStyle');
    if (partOfValue.has(name))
      context.report.error(at, `applies to "${name}" as the whole value of a query entry, but the query uses it inside a longer value`);
    else if (!wholeValue.has(name)) context.report.error(at, `applies to a query value, but "${name}" is not the value of a query entry`);
  }
}

/**
 * The rules of a param's (or a nested value's) details that the structure alone cannot say:
 * each detail on a type it applies to, enum entries of that type, bounds in order, a pattern
 * that compiles and cannot backtrack exponentially, required properties among the properties,
 * and a default the schema accepts. Nested values are checked the same way.
 */
function checkDetails(schema: JsonObject, pointer: string, report: Report, isParam: boolean): void {
  const declared = own(schema, 'type');
  if (declared !== undefined && typeof declared !== 'string') return; // structural check reports it
  const type = (declared ?? 'string') as RcpParamType;
  if (!Object.hasOwn(EXPECTED_TYPE, type)) return;
  const before = report.issues.length;
  const only = (key: string, types: readonly RcpParamType[], what: string): void => {
    if (own(schema, key) !== undefined && !types.includes(type)) {
      report.error(joinPointer(pointer, key), `only ${what} can have "${key}" (this one is ${EXPECTED_TYPE[type]})`);
    }
  };
  only('items', ['array'], 'an array');
  only('properties', ['object'], 'an object');
  only(isParam ? 'requiredProperties' : 'required', ['object'], 'an object');
  for (const key of ['minimum', 'maximum']) only(key, ['number', 'integer'], 'a number');
  for (const key of ['minLength', 'maxLength', 'pattern']) only(key, ['string'], 'a string');
  only('format', ['string', 'number', 'integer'], 'a string or a number');
  const values = own(schema, 'enum');
  if (Array.isArray(values)) {
    if (type === 'array' || type === 'object') report.error(joinPointer(pointer, 'enum'), `an enum lists scalars: ${EXPECTED_TYPE[type]} cannot have one`);
    else {
      values.forEach((entry: unknown, index) => {
        if (!hasType(type, entry)) report.error(joinPointer(pointer, 'enum', index), `must be ${EXPECTED_TYPE[type]}, like the value`);
      });
    }
  }
  const pair = (low: string, high: string): void => {
    const a = own(schema, low);
    const b = own(schema, high);
    if (typeof a === 'number' && typeof b === 'number' && a > b) report.error(joinPointer(pointer, low), `is more than "${high}"`);
  };
  pair('minimum', 'maximum');
  pair('minLength', 'maxLength');
  const pattern = own(schema, 'pattern');
  if (typeof pattern === 'string') {
    const unsafe = unsafePatternReason(pattern);
    if (unsafe !== undefined) report.error(joinPointer(pointer, 'pattern'), `cannot be used: ${unsafe}`);
    else {
      try {
        new RegExp(pattern, 'u');
      } catch {
        report.error(joinPointer(pointer, 'pattern'), 'is not a valid regular expression (ECMAScript, with the u flag)');
      }
    }
  }
  const properties = own(schema, 'properties');
  const names = own(schema, isParam ? 'requiredProperties' : 'required');
  if (Array.isArray(names) && isRecord(properties)) {
    names.forEach((name: unknown, index) => {
      if (typeof name === 'string' && !Object.hasOwn(properties, name)) {
        report.error(joinPointer(pointer, isParam ? 'requiredProperties' : 'required', index), `"${name}" is not one of the properties`);
      }
    });
  }
  const items = own(schema, 'items');
  if (isRecord(items)) {
    report.unknownFields(items, joinPointer(pointer, 'items'), VALUE_FIELDS);
    checkDetails(items, joinPointer(pointer, 'items'), report, false);
  }
  if (isRecord(properties)) {
    for (const key of Object.keys(properties)) {
      const property = properties[key];
      if (!isRecord(property)) continue;
      const at = joinPointer(pointer, 'properties', key);
      report.unknownFields(property, at, VALUE_FIELDS);
      checkDetails(property, at, report, false);
    }
  }
  if (Object.hasOwn(schema, 'default') && schema['default'] !== undefined && report.issues.length === before && report.structurallyValid) {
    const problems = compileValueCheck(schema as unknown as RcpParam)(schema['default'], joinPointer(pointer, 'default'));
    for (const problem of problems) report.error(problem.path, `the default ${problem.message}`);
  }
}

function checkUrl(tool: JsonObject, context: ToolContext): void {
  const url = own(tool, 'url');
  if (typeof url !== 'string') return;
  const pointer = joinPointer(context.pointer, 'url');
  const tokens = compileTokens({ method: 'GET', url }, pointer, context.report);
  if (tokens !== undefined) useTokens(tokens, pointer, context);
}

function checkQueryParams(tool: JsonObject, context: ToolContext): void {
  const queryParams = own(tool, 'queryParams');
  if (!isRecord(queryParams)) return;
  for (const key of Object.keys(queryParams)) {
    const value = queryParams[key];
    if (typeof value !== 'string') continue;
    const pointer = joinPointer(context.pointer, 'queryParams', key);
    const tokens = compileTokens({ method: 'GET', url: '/', queryParams: { [key]: value } }, pointer, context.report);
    if (tokens !== undefined) useTokens(tokens, pointer, context);
  }
}

function checkHeaders(tool: JsonObject, effectiveAuth: unknown, context: ToolContext): void {
  const headers = own(tool, 'headers');
  if (!isRecord(headers)) return;
  const seen = new Map<string, string>();
  const authHeader = authHeaderName(effectiveAuth);
  for (const name of Object.keys(headers)) {
    const value = headers[name];
    const pointer = joinPointer(context.pointer, 'headers', name);
    const problem = headerNameProblem(name);
    const lower = name.toLowerCase();
    if (problem !== undefined) context.report.error(pointer, problem);
    else if (seen.has(lower)) {
      context.report.error(pointer, `duplicates header "${seen.get(lower) ?? ''}" (header names are case-insensitive)`);
    } else if (lower === authHeader) {
      context.report.error(pointer, `"${name}" is the auth header: the client sets it from the credential`);
    }
    if (!seen.has(lower)) seen.set(lower, name);
    if (typeof value !== 'string') continue;
    if (problem === undefined) {
      const tokens = compileTokens({ method: 'GET', url: '/', headers: { [name]: value } }, pointer, context.report);
      if (tokens !== undefined) useTokens(tokens, pointer, context);
    } else {
      // The name is wrong; still account for the value's tokens so the other rules stay accurate.
      try {
        useTokens(parseTemplate(value).tokens, pointer, context);
      } catch (error) {
        context.report.error(pointer, templateErrorMessage(error));
      }
    }
  }
}

function checkBody(tool: JsonObject, context: ToolContext): void {
  if (!Object.hasOwn(tool, 'body')) return;
  const body = tool['body'];
  if (body === undefined) return;
  const pointer = joinPointer(context.pointer, 'body');
  if (own(tool, 'method') === 'GET') {
    context.report.error(pointer, 'a GET request cannot have a body (fetch refuses it): use POST, PUT, PATCH or DELETE, or remove the body');
  }
  if (own(tool, 'bodyEncoding') === 'form') {
    if (!checkFormBody(body, pointer, context.report)) return;
  }
  if (own(tool, 'bodyEncoding') === 'multipart') {
    if (!checkMultipartBody(tool, body, context.pointer, context.report)) return;
  }
  const before = context.report.issues.length;
  const strings = new Map<string, string>();
  walkJsonTree(
    body,
    pointer,
    (text, at) => {
      if (!strings.has(text)) strings.set(text, at);
      try {
        useTokens(parseTemplate(text).tokens, at, context);
      } catch (error) {
        context.report.error(at, templateErrorMessage(error));
      }
    },
    (at, message) => context.report.error(at, message),
  );
  if (context.report.issues.length > before) return;
  // Rules of the template engine beyond token syntax, reported at the string they concern.
  try {
    compileRequest({ method: 'POST', url: '/', body });
  } catch (error) {
    const template = isRcpError(error) ? (error as { template?: unknown }).template : undefined;
    const at = typeof template === 'string' ? (strings.get(template) ?? pointer) : pointer;
    context.report.error(at, templateErrorMessage(error));
  }
}

/**
 * A form body is an object template whose keys (at every depth) hold no `[` or `]`: nesting is
 * written as nesting, and the encoder alone writes the brackets (`a[b]=`), so no key can pass
 * for another. Returns false when it is not an object at all.
 */
function checkFormBody(body: unknown, pointer: string, report: Report): boolean {
  if (!isRecord(body)) {
    report.error(pointer, 'a form body must be an object of fields (bodyEncoding "form")');
    return false;
  }
  const visit = (node: unknown, at: string, depth: number): void => {
    if (depth > 32) return; // the template engine reports the depth
    if (Array.isArray(node)) node.forEach((element, index) => visit(element, joinPointer(at, index), depth + 1));
    else if (isRecord(node)) {
      for (const key of Object.keys(node)) {
        const keyAt = joinPointer(at, key);
        if (key.includes('[') || key.includes(']')) {
          report.error(keyAt, `a form field name cannot contain "[" or "]": write nesting as a nested object (the encoder writes "a[b]=")`);
        }
        visit(node[key], keyAt, depth + 1);
      }
    }
  };
  visit(body, pointer, 0);
  return true;
}

/** Param types a cursor can be given as (a query or path value, or a body scalar). */
const CURSOR_TYPES: readonly unknown[] = ['string', 'integer', 'number'];

/**
 * RCP 0.3 pagination: both paths parse and are singular (one cursor, one flag), and the param
 * that takes the cursor is declared by this tool with a scalar type.
 */
function checkPagination(tool: JsonObject, context: ToolContext): void {
  const pagination = own(tool, 'pagination');
  if (!isRecord(pagination)) return;
  const pointer = joinPointer(context.pointer, 'pagination');
  needsVersion03(context.report, pointer, 'pagination');
  context.report.unknownFields(pagination, pointer, PAGINATION_FIELDS);
  for (const key of ['nextCursor', 'hasMore'] as const) {
    const path = own(pagination, key);
    if (typeof path !== 'string' || !path.startsWith('@')) continue; // structural check reports it
    const compiled = compileResponsePath(path, context.report.filterEngine);
    const at = joinPointer(pointer, key);
    if (!compiled.ok) context.report.error(at, compiled.message);
    else if (!compiled.path.singular) {
      context.report.error(at, `must be a singular path (names and indexes only, such as "@meta.next"): it must select one value`);
    }
  }
  const param = own(pagination, 'param');
  if (typeof param !== 'string' || !PARAM_NAME.test(param)) return; // structural check reports it
  const index = context.declared.get(param);
  const at = joinPointer(pointer, 'param');
  if (index === undefined) {
    context.report.error(at, `"${param}" is not a declared param of this tool`);
    return;
  }
  const declared = (own(tool, 'params') as unknown[])[index];
  const type = isRecord(declared) ? (own(declared, 'type') ?? 'string') : 'string';
  if (!CURSOR_TYPES.includes(type)) context.report.error(at, `"${param}" is ${String(type)}: a cursor is given as a string, an integer or a number`);
}

/**
 * RCP 0.4 idempotency: a write's key travels in a header the client sets itself, so the header
 * cannot be one the HTTP client controls, the credential's, or one the tool's template writes
 * (where the model could choose the key). A GET reads: it needs no key.
 */
function checkIdempotency(tool: JsonObject, effectiveAuth: unknown, context: ToolContext): void {
  const idempotency = own(tool, 'idempotency');
  if (!isRecord(idempotency)) return;
  const pointer = joinPointer(context.pointer, 'idempotency');
  needsVersion04(context.report, pointer, 'idempotency');
  context.report.unknownFields(idempotency, pointer, IDEMPOTENCY_FIELDS);
  if (own(tool, 'method') === 'GET') context.report.error(pointer, 'a GET request reads: it takes no idempotency key');
  const header = own(idempotency, 'header');
  if (typeof header !== 'string' || !HTTP_TOKEN.test(header)) return; // structural check reports it
  const at = joinPointer(pointer, 'header');
  const lower = header.toLowerCase();
  const headers = own(tool, 'headers');
  if (isForbiddenHeaderName(header)) context.report.error(at, `"${header}" cannot carry an idempotency key (the HTTP client controls that header)`);
  else if (lower === authHeaderName(effectiveAuth)) context.report.error(at, `"${header}" is the auth header: it carries the credential`);
  else if (isRecord(headers) && Object.keys(headers).some((name) => name.toLowerCase() === lower)) {
    context.report.error(at, `"${header}" is one of the tool's headers: the client sets the key itself, never from a template`);
  }
}

/**
 * RCP 0.4 streamed answers (SPEC §20.6). In a 0.4 manifest: `field` a singular path (one value
 * from each event), and no `responseMappings` on a `concat` (its result is text, mappings read
 * JSON). In an older manifest, `stream` is ignored with a warning, as groups are: its clients
 * read the answer as text, and a 0.4 client reads it as they do.
 */
function checkStream(tool: JsonObject, context: ToolContext): void {
  const stream = own(tool, 'stream');
  if (stream === undefined) return;
  const pointer = joinPointer(context.pointer, 'stream');
  const version = context.report.version;
  if (version !== '0.4') {
    context.report.warn(pointer, `"stream" needs rcpVersion "0.4": ignored (this manifest says "${String(version)}", whose clients read the answer as text)`);
    return;
  }
  if (!isRecord(stream)) return; // structural check reports it
  context.report.unknownFields(stream, pointer, STREAM_FIELDS);
  const field = own(stream, 'field');
  if (typeof field === 'string' && field.startsWith('@')) {
    const compiled = compileResponsePath(field, context.report.filterEngine);
    const at = joinPointer(pointer, 'field');
    if (!compiled.ok) context.report.error(at, compiled.message);
    else if (!compiled.path.singular) {
      context.report.error(at, 'must be a singular path (names and indexes only, such as "@delta.text"): it takes one value from each event');
    }
  }
  if (own(stream, 'collect') === 'concat' && own(tool, 'responseMappings') !== undefined) {
    context.report.error(
      joinPointer(pointer, 'collect'),
      'is "concat", whose result is text: responseMappings read JSON (use "array" or "last", or drop the mappings)',
    );
  }
}

/**
 * RCP 0.4 long-running operations (SPEC §20.8). In a 0.4 manifest: every `@` path singular (one
 * value: a URL, a state, a result), `done` with `state` (and `failed` only with it), and neither
 * a stream nor pages beside it (a tool answers one way). In an older manifest, `operation` is
 * ignored with a warning, as streams are: its clients return the 202's body as the result.
 */
function checkOperation(tool: JsonObject, context: ToolContext): void {
  const operation = own(tool, 'operation');
  if (operation === undefined) return;
  const pointer = joinPointer(context.pointer, 'operation');
  const version = context.report.version;
  if (version !== '0.4') {
    context.report.warn(
      pointer,
      `"operation" needs rcpVersion "0.4": ignored (this manifest says "${String(version)}", whose clients return a 202's body as the result)`,
    );
    return;
  }
  if (!isRecord(operation)) return; // structural check reports it
  context.report.unknownFields(operation, pointer, OPERATION_FIELDS);
  for (const key of ['statusUrl', 'state', 'result']) {
    const path = own(operation, key);
    if (typeof path !== 'string' || !path.startsWith('@')) continue;
    const compiled = compileResponsePath(path, context.report.filterEngine);
    const at = joinPointer(pointer, key);
    if (!compiled.ok) context.report.error(at, compiled.message);
    else if (!compiled.path.singular) context.report.error(at, 'must be a singular path (names and indexes only, such as "@job.status"): it takes one value');
  }
  const hasState = own(operation, 'state') !== undefined;
  if (hasState && own(operation, 'done') === undefined)
    context.report.error(joinPointer(pointer, 'done'), 'is required with "state": the states that mean done');
  for (const key of ['done', 'failed']) {
    if (!hasState && own(operation, key) !== undefined)
      context.report.error(joinPointer(pointer, key), 'needs "state": the path of the state it is compared with');
  }
  for (const key of ['stream', 'pagination']) {
    if (own(tool, key) !== undefined) context.report.error(pointer, `cannot be declared with "${key}": a tool answers one way`);
  }
}

function checkResponseMappings(tool: JsonObject, context: ToolContext): void {
  const mappings = own(tool, 'responseMappings');
  if (!isRecord(mappings)) return;
  for (const key of Object.keys(mappings)) {
    const pointer = joinPointer(context.pointer, 'responseMappings', key);
    const nameProblem = mappingNameProblem(key);
    if (nameProblem !== undefined) context.report.error(pointer, nameProblem);
    const value = mappings[key];
    if (typeof value !== 'string' || !value.startsWith('@')) continue; // structural check reports it
    const compiled = compileResponsePath(value, context.report.filterEngine);
    if (!compiled.ok) context.report.error(pointer, compiled.message);
  }
}

/**
 * The tokens of url, queryParams and headers compiled as one template — the common case, a
 * valid tool, costs one compile — or undefined when anything there is wrong (a template that
 * does not compile, a header name the rules refuse, a header that shadows the auth header).
 */
function wholeRequestTokens(tool: JsonObject, effectiveAuth: unknown): readonly string[] | undefined {
  const url = own(tool, 'url');
  const queryParams = own(tool, 'queryParams');
  const headers = own(tool, 'headers');
  if (typeof url !== 'string') return undefined;
  if (headers !== undefined) {
    if (!isRecord(headers)) return undefined;
    const authHeader = authHeaderName(effectiveAuth);
    const seen = new Set<string>();
    for (const name of Object.keys(headers)) {
      const lower = name.toLowerCase();
      if (headerNameProblem(name) !== undefined || seen.has(lower) || lower === authHeader) return undefined;
      seen.add(lower);
    }
  }
  try {
    return compileRequest({ method: 'GET', url, queryParams, headers } as RequestTemplate).tokens;
  } catch {
    return undefined;
  }
}

function checkTool(tool: unknown, pointer: string, serverAuth: unknown, report: Report): void {
  if (!isRecord(tool)) return;
  report.unknownFields(tool, pointer, TOOL_FIELDS);
  const context: ToolContext = { pointer, declared: new Map(), used: new Set(), report };
  checkParams(tool, context);
  const hasAuth = Object.hasOwn(tool, 'auth') && tool['auth'] !== undefined;
  if (hasAuth) checkAuth(tool['auth'], joinPointer(pointer, 'auth'), report);
  const effectiveAuth = hasAuth ? tool['auth'] : serverAuth;
  if (own(tool, 'bodyEncoding') === 'form') {
    needsVersion(report, joinPointer(pointer, 'bodyEncoding'), 'a form body');
    if (!Object.hasOwn(tool, 'body') || tool['body'] === undefined) report.error(joinPointer(pointer, 'bodyEncoding'), 'is "form" but the tool has no body');
  }
  if (own(tool, 'bodyEncoding') === 'multipart') {
    needsVersion04(report, joinPointer(pointer, 'bodyEncoding'), 'a multipart body', 'send it as JSON');
    if (!Object.hasOwn(tool, 'body') || tool['body'] === undefined) {
      report.error(joinPointer(pointer, 'bodyEncoding'), 'is "multipart" but the tool has no body');
    }
  }
  checkQueryAuthKey(tool, effectiveAuth, context);
  checkEffects(tool, joinPointer(pointer, 'effects'), report);
  if (own(tool, 'responseMediaTypes') !== undefined) needsVersion03(report, joinPointer(pointer, 'responseMediaTypes'), 'responseMediaTypes');
  checkPagination(tool, context);
  checkIdempotency(tool, effectiveAuth, context);
  checkStream(tool, context);
  checkOperation(tool, context);
  const tokens = wholeRequestTokens(tool, effectiveAuth);
  if (tokens?.every((token) => context.declared.has(token))) {
    for (const token of tokens) context.used.add(token);
  } else {
    // Something is wrong in url, queryParams or headers: each position on its own says what and where.
    checkUrl(tool, context);
    checkQueryParams(tool, context);
    checkHeaders(tool, effectiveAuth, context);
  }
  checkBody(tool, context);
  checkFileUses(tool, context);
  checkSendable(tool, context);
  checkQueryStyleUse(tool, context);
  checkResponseMappings(tool, context);
  for (const [name, index] of context.declared) {
    if (!context.used.has(name)) {
      report.warn(joinPointer(pointer, 'params', index), `param "${name}" is declared but not used in url, queryParams, headers or body`);
    }
  }
}

/** The type of a declared param (`object`, `array` …) and of its items, when it has those. */
function declaredType(tool: JsonObject, name: string, context: ToolContext): { type: unknown; items: unknown; queryStyle: unknown } | undefined {
  const index = context.declared.get(name);
  const params = own(tool, 'params');
  if (index === undefined || !Array.isArray(params)) return undefined;
  const param: unknown = params[index];
  if (!isRecord(param)) return undefined;
  const items = own(param, 'items');
  return { type: own(param, 'type'), items: isRecord(items) ? own(items, 'type') : undefined, queryStyle: own(param, 'queryStyle') };
}

/** The template's tokens and its single token (when it is exactly one), or undefined when it does not parse. */
function templateOf(text: string): { tokens: readonly string[]; single: string | undefined } | undefined {
  try {
    const parsed = parseTemplate(text);
    return { tokens: parsed.tokens, single: parsed.single };
  } catch {
    return undefined; // the template rules report it
  }
}

/**
 * A param no value of its declared type can be sent where the manifest uses it (issue 41): an object or an array in a
 * path segment or a header, an object in the query, an array in the query that is not a whole value of scalars (§7).
 * Every call with such a param fails, so it is a warning at the position, naming the param and what the position takes.
 */
function checkSendable(tool: JsonObject, context: ToolContext): void {
  const params = own(tool, 'params');
  if (!Array.isArray(params) || !params.some((param) => isRecord(param) && (param['type'] === 'object' || param['type'] === 'array'))) return;
  const warnAt = (pointer: string, text: string, position: 'path' | 'query' | 'header') => {
    const template = templateOf(text);
    if (template === undefined) return;
    for (const token of template.tokens) {
      const declared = declaredType(tool, token, context);
      if (declared === undefined) continue;
      const { type, items, queryStyle } = declared;
      let problem: string | undefined;
      if (position === 'query' && (queryStyle === 'comma' || queryStyle === 'deepObject')) {
        // A styled param: where it may be is the style's own rule (checkQueryStyleUse); here, only what it carries.
        if (queryStyle === 'comma' && template.single === token && (items === 'object' || items === 'array')) {
          problem = `an array of ${items === 'object' ? 'objects' : 'arrays'}, which a comma-separated query value cannot carry (scalars only)`;
        }
      } else if (type === 'object' && position === 'query')
        problem = 'an object, which a query entry cannot carry (a scalar, or an array of scalars as the whole value)';
      else if ((type === 'object' || type === 'array') && position !== 'query')
        problem = `${type === 'object' ? 'an object' : 'an array'}, which a ${position === 'path' ? 'path segment' : 'header value'} cannot carry (a scalar only)`;
      else if (type === 'array' && template.single !== token)
        problem = 'an array inside a longer value, which a query entry cannot carry (an array must be the whole value)';
      else if (type === 'array' && (items === 'object' || items === 'array'))
        problem = `an array of ${items === 'object' ? 'objects' : 'arrays'}, which a query entry cannot carry (an array of scalars only)`;
      if (problem !== undefined) context.report.warn(pointer, `param "${token}" is ${problem}: every call that gives it fails (RCP_TEMPLATE_VALUE)`);
    }
  };
  const url = own(tool, 'url');
  if (typeof url === 'string') {
    const query = url.indexOf('?');
    warnAt(joinPointer(context.pointer, 'url'), query === -1 ? url : url.slice(0, query), 'path');
    if (query !== -1) {
      for (const entry of url.slice(query + 1).split('&')) warnAt(joinPointer(context.pointer, 'url'), entry.slice(entry.indexOf('=') + 1), 'query');
    }
  }
  for (const [field, position] of [
    ['queryParams', 'query'],
    ['headers', 'header'],
  ] as const) {
    const values = own(tool, field);
    if (!isRecord(values)) continue;
    for (const key of Object.keys(values)) {
      const value = values[key];
      if (typeof value === 'string') warnAt(joinPointer(context.pointer, field, key), value, position);
    }
  }
}

/** A query credential's key may not be written by the tool too (in its URL or its queryParams). */
function checkQueryAuthKey(tool: JsonObject, auth: unknown, context: ToolContext): void {
  const key = authQueryName(auth);
  if (key === undefined) return;
  const message = `"${key}" is the auth query key: the client sets it from the credential`;
  const queryParams = own(tool, 'queryParams');
  if (isRecord(queryParams) && Object.hasOwn(queryParams, key)) context.report.error(joinPointer(context.pointer, 'queryParams', key), message);
  const url = own(tool, 'url');
  if (typeof url === 'string') {
    const query = url.indexOf('?');
    if (query !== -1) {
      for (const entry of url.slice(query + 1).split('&')) {
        const name = entry.split('=')[0]!;
        let decoded = name;
        try {
          decoded = decodeURIComponent(name);
        } catch {
          // a malformed escape: the template rules report it
        }
        if (decoded === key) context.report.error(joinPointer(context.pointer, 'url'), message);
      }
    }
  }
}

/**
 * RCP 0.4 tool groups (SPEC §20.3). In a 0.4 manifest: group names unique regardless of case (as
 * tool names, since adapters turn them into names a model API compares that way), and every tool's
 * `group` one of them, written the same. In an older manifest, `groups` and `group` are ignored
 * with a warning: a client of that version ignores them as unknown fields (§3), and a 0.4 client
 * reads every older manifest as that client does.
 */
function checkGroups(manifest: JsonObject, tools: readonly unknown[], report: Report): void {
  const version = report.version;
  const groups = own(manifest, 'groups');
  if (version !== '0.4') {
    const ignored = (pointer: string, what: string) =>
      report.warn(pointer, `${what} needs rcpVersion "0.4": ignored (this manifest says "${String(version)}", whose clients ignore it)`);
    if (groups !== undefined) ignored('/groups', '"groups"');
    tools.forEach((tool, index) => {
      if (isRecord(tool) && own(tool, 'group') !== undefined) ignored(`/tools/${index}/group`, '"group"');
    });
    return;
  }
  /** Declared names, exactly as written, and each one's index by its lower-case form. */
  const declared = new Map<string, number>();
  const named: string[] = [];
  if (Array.isArray(groups)) {
    groups.forEach((group: unknown, index) => {
      if (!isRecord(group)) return; // structural check reports it
      const pointer = joinPointer('/groups', index);
      report.unknownFields(group, pointer, GROUP_FIELDS);
      const name = own(group, 'name');
      if (typeof name !== 'string' || !TOOL_NAME.test(name)) return; // the structural check reports it
      const first = declared.get(name.toLowerCase());
      if (first === undefined) {
        declared.set(name.toLowerCase(), index);
        named[index] = name;
      } else {
        report.error(
          joinPointer(pointer, 'name'),
          named[first] === name
            ? `duplicate group name "${name}" (already used at /groups/${first})`
            : `group name "${name}" differs only in case from the one at /groups/${first} (names must be unique regardless of case)`,
        );
      }
    });
  }
  const used = new Set<number>();
  tools.forEach((tool, index) => {
    if (!isRecord(tool)) return;
    const group = own(tool, 'group');
    if (typeof group !== 'string' || !TOOL_NAME.test(group)) return; // absent, or the structural check reports it
    const match = declared.get(group.toLowerCase());
    if (match !== undefined && named[match] === group) {
      used.add(match);
      return;
    }
    const toolName = own(tool, 'name');
    const who = typeof toolName === 'string' && TOOL_NAME.test(toolName) ? `tool "${toolName}"` : 'the tool';
    const hint = match === undefined ? '' : ` (did you mean "${named[match]}"? group names are compared exactly)`;
    report.error(`/tools/${index}/group`, `${who} names group "${group}", which is not one of the manifest's groups${hint}`);
  });
  for (const index of declared.values()) {
    if (!used.has(index)) report.warn(joinPointer('/groups', index), `group "${named[index]}" is declared but no tool names it`);
  }
}

function normalize(list: ManifestIssue[]): ManifestIssue[] {
  const seen = new Set<string>();
  const unique = list.filter((issue) => {
    const key = `${issue.path}\u0000${issue.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return unique.sort((a, b) => comparePointers(a.path, b.path));
}

/**
 * Every structural and semantic problem of a manifest object whose version already passed the
 * gate, plus warnings (unknown fields, unused params): one structural walk, then the semantic
 * rules tool by tool.
 *
 * @example
 * ```ts
 * validateManifest({ rcpVersion: '0.1', tools: [{ name: 'a', description: 'A.', method: 'GET', url: '/a/{{id}}' }] });
 * // { issues: [{ path: '/tools/0/url', message: 'uses {{id}}, which is not declared in params' }], warnings: [] }
 * ```
 */
export function validateManifest(manifest: JsonObject, filterEngine?: RcpFilterEngine): ValidationResult {
  const report = new Report();
  report.filterEngine = filterEngine;
  const structural = structuralIssues(manifest);
  for (const issue of structural) report.error(issue.path, issue.message);
  report.structurallyValid = structural.length === 0;
  report.version = own(manifest, 'rcpVersion');
  report.unknownFields(manifest, '', MANIFEST_KEYS);
  const serverAuth = own(manifest, 'auth');
  checkAuth(serverAuth, '/auth', report);
  const tools = own(manifest, 'tools');
  if (Array.isArray(tools)) {
    const names = new Map<string, number>();
    for (let index = 0; index < tools.length; index++) {
      const tool: unknown = tools[index];
      checkTool(tool, `/tools/${index}`, serverAuth, report);
      const name = isRecord(tool) ? own(tool, 'name') : undefined;
      if (typeof name !== 'string') continue;
      // Unique regardless of case: several model APIs and MCP hosts compare tool names that way.
      const key = name.toLowerCase();
      const first = names.get(key);
      if (first === undefined) names.set(key, index);
      else {
        const same = own(tools[first] as Record<string, unknown>, 'name') === name;
        report.error(
          `/tools/${index}/name`,
          same
            ? `duplicate tool name "${name}" (already used at /tools/${first})`
            : `tool name "${name}" differs only in case from the one at /tools/${first} (names must be unique regardless of case)`,
        );
      }
    }
    checkGroups(manifest, tools, report);
  }
  return { issues: normalize(report.issues), warnings: normalize(report.warnings) };
}
