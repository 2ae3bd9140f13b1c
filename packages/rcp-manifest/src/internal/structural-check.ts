import { isTokenName } from 'rcp-template';
import { HTTP_TOKEN_PROBLEM, isRecord } from 'rcp-internal';
import type { ManifestIssue } from '../manifest-errors';
import { joinPointer } from './json-pointer';
import {
  HTTP_TOKEN_PATTERN,
  MAPPING_PATH_PATTERN,
  MEDIA_RANGE_PATTERN,
  NON_BLANK_PATTERN,
  PARAM_NAME_PATTERN,
  SCOPE_TOKEN_PATTERN,
  TOOL_NAME_PATTERN,
  TOOL_NAME_RULE,
  EFFECT_FIELDS,
  AUTH_FIELDS,
  HTTP_METHODS,
  PARAM_FILLERS,
  QUERY_STYLES,
  STREAM_COLLECTS,
  STREAM_FORMATS,
  MAX_POLL_SECONDS,
  STATUS_HEADER_PATTERN,
} from '../manifest-patterns';
import { PARAM_TYPES } from '../value-check';
import { RCP_VERSIONS } from '../versions';

/*
 * The structural rules of a manifest (types, required fields, enumerations, patterns), written
 * once as one walk that words every problem at its JSON Pointer. RcpManifestSchema (TypeBox)
 * describes the same structure for types and the shipped JSON Schema file; a property test
 * holds the two to each other (valid exactly when TypeBox's Check says so). TypeBox is not
 * needed at run time, so it is not in a browser bundle.
 */

const TOOL_NAME = new RegExp(TOOL_NAME_PATTERN);
const NON_BLANK = new RegExp(NON_BLANK_PATTERN);
const PARAM_NAME = new RegExp(PARAM_NAME_PATTERN);
const HTTP_TOKEN = new RegExp(HTTP_TOKEN_PATTERN);
const MAPPING_PATH = new RegExp(MAPPING_PATH_PATTERN);
const STATUS_HEADER = new RegExp(STATUS_HEADER_PATTERN);
const AUTH_TYPES: readonly unknown[] = Object.keys(AUTH_FIELDS);
const SCOPE_TOKEN = new RegExp(SCOPE_TOKEN_PATTERN);
const MEDIA_RANGE = new RegExp(MEDIA_RANGE_PATTERN);
const VERSIONS: readonly unknown[] = RCP_VERSIONS;
const BODY_ENCODINGS: readonly unknown[] = ['json', 'form', 'multipart'];
/** A param's types: the six value types, and (RCP 0.4) `file`, a param type only. */
const PARAM_TYPES_WITH_FILE: readonly unknown[] = [...PARAM_TYPES, 'file'];

type Fields = Record<string, unknown>;
type Issues = ManifestIssue[];

function listOf(values: readonly unknown[]): string {
  return values.map((value) => JSON.stringify(value)).join(', ');
}

function required(object: Fields, key: string, pointer: string, issues: Issues): unknown {
  const value = object[key];
  if (value === undefined) issues.push({ path: joinPointer(pointer, key), message: 'is required' });
  return value;
}

function checkString(value: unknown, path: string, issues: Issues, pattern?: RegExp, message?: () => string): void {
  if (typeof value !== 'string') issues.push({ path, message: 'must be a string' });
  else if (pattern !== undefined && !pattern.test(value)) issues.push({ path, message: message!() });
}

function checkOneOf(value: unknown, allowed: readonly unknown[], path: string, issues: Issues): void {
  if (!allowed.includes(value)) issues.push({ path, message: `must be one of ${listOf(allowed)}` });
}

const HTTP_TOKEN_MESSAGE = (): string => HTTP_TOKEN_PROBLEM;

/** A record of strings (`test` and `message` for each value when given). */
function checkStringRecord(value: unknown, path: string, issues: Issues, pattern?: RegExp, message?: () => string): void {
  if (!isRecord(value) || value instanceof Date || value instanceof Uint8Array) {
    issues.push({ path, message: 'must be an object' });
    return;
  }
  for (const key in value) {
    if (Object.hasOwn(value, key)) checkString(value[key], joinPointer(path, key), issues, pattern, message);
  }
}

function checkAuth(auth: unknown, path: string, issues: Issues): void {
  if (!isRecord(auth)) {
    issues.push({ path, message: 'must be an object' });
    return;
  }
  const type = auth['type'];
  if (type === undefined) {
    issues.push({ path: joinPointer(path, 'type'), message: 'is required' });
    return;
  }
  if (!AUTH_TYPES.includes(type)) {
    issues.push({ path: joinPointer(path, 'type'), message: `must be one of ${listOf(AUTH_TYPES)}` });
    return;
  }
  if (type === 'none') return;
  const name = required(auth, 'name', path, issues);
  if (name !== undefined) checkString(name, joinPointer(path, 'name'), issues, HTTP_TOKEN, HTTP_TOKEN_MESSAGE);
  if (type === 'query') return;
  if (auth['scheme'] !== undefined) checkString(auth['scheme'], joinPointer(path, 'scheme'), issues, HTTP_TOKEN, HTTP_TOKEN_MESSAGE);
  if (auth['oauth'] !== undefined) checkOAuthHint(auth['oauth'], joinPointer(path, 'oauth'), issues);
}

/** A list of strings, each matching `pattern`. */
function checkStringList(value: unknown, path: string, issues: Issues, pattern: RegExp, message: () => string): void {
  if (!Array.isArray(value)) {
    issues.push({ path, message: 'must be an array' });
    return;
  }
  for (let index = 0; index < value.length; index++) checkString(value[index], joinPointer(path, index), issues, pattern, message);
}

function checkOAuthHint(hint: unknown, path: string, issues: Issues): void {
  if (!isRecord(hint)) {
    issues.push({ path, message: 'must be an object' });
    return;
  }
  if (hint['scopes'] !== undefined) {
    checkStringList(
      hint['scopes'],
      joinPointer(path, 'scopes'),
      issues,
      SCOPE_TOKEN,
      () => 'must be an OAuth scope token (RFC 6749): printable ASCII without spaces, " or \\',
    );
  }
  if (hint['issuer'] !== undefined) checkString(hint['issuer'], joinPointer(path, 'issuer'), issues);
  if (hint['grantTypes'] !== undefined)
    checkStringList(hint['grantTypes'], joinPointer(path, 'grantTypes'), issues, NON_BLANK, () => 'must not be empty or blank');
}

function checkEffects(effects: unknown, path: string, issues: Issues): void {
  if (!isRecord(effects)) {
    issues.push({ path, message: 'must be an object' });
    return;
  }
  for (const key of EFFECT_FIELDS) {
    if (effects[key] !== undefined && typeof effects[key] !== 'boolean') issues.push({ path: joinPointer(path, key), message: 'must be true or false' });
  }
}

const MAPPING_PATH_MESSAGE = (): string => 'must start with "@" (for example "@data.name")';

/** RCP 0.3: the media types a tool answers with, as `type/subtype` or `type/*`. */
function checkMediaTypes(value: unknown, path: string, issues: Issues): void {
  checkStringList(value, path, issues, MEDIA_RANGE, () => 'must be a media type or a range of one type ("image/png", "image/*"), without parameters');
  if (Array.isArray(value) && value.length === 0) issues.push({ path, message: 'must not be empty' });
}

/** RCP 0.3: where the next page's cursor is and which param takes it. */
function checkPagination(value: unknown, path: string, issues: Issues): void {
  if (!isRecord(value)) {
    issues.push({ path, message: 'must be an object' });
    return;
  }
  const cursor = required(value, 'nextCursor', path, issues);
  if (cursor !== undefined) checkString(cursor, joinPointer(path, 'nextCursor'), issues, MAPPING_PATH, MAPPING_PATH_MESSAGE);
  const param = required(value, 'param', path, issues);
  if (param !== undefined) {
    checkString(param, joinPointer(path, 'param'), issues, PARAM_NAME, () => 'must be the name of a declared param');
  }
  if (value['hasMore'] !== undefined) checkString(value['hasMore'], joinPointer(path, 'hasMore'), issues, MAPPING_PATH, MAPPING_PATH_MESSAGE);
}

/** RCP 0.4: the header a tool takes an idempotency key in, and how long the server keeps a key. */
function checkIdempotency(value: unknown, path: string, issues: Issues): void {
  if (!isRecord(value)) {
    issues.push({ path, message: 'must be an object' });
    return;
  }
  const header = required(value, 'header', path, issues);
  if (header !== undefined) checkString(header, joinPointer(path, 'header'), issues, HTTP_TOKEN, HTTP_TOKEN_MESSAGE);
  const seconds = value['expiresAfterSeconds'];
  if (seconds !== undefined && (typeof seconds !== 'number' || !Number.isInteger(seconds) || seconds < 1)) {
    issues.push({ path: joinPointer(path, 'expiresAfterSeconds'), message: 'must be an integer ≥ 1' });
  }
}

/** RCP 0.4: how a streamed answer is read (its format) and collected into one result. */
function checkStream(value: unknown, path: string, issues: Issues): void {
  if (!isRecord(value)) {
    issues.push({ path, message: 'must be an object' });
    return;
  }
  const format = required(value, 'format', path, issues);
  if (format !== undefined) checkOneOf(format, STREAM_FORMATS, joinPointer(path, 'format'), issues);
  const collect = required(value, 'collect', path, issues);
  if (collect !== undefined) checkOneOf(collect, STREAM_COLLECTS, joinPointer(path, 'collect'), issues);
  if (value['field'] !== undefined) checkString(value['field'], joinPointer(path, 'field'), issues, MAPPING_PATH, MAPPING_PATH_MESSAGE);
  const maxEvents = value['maxEvents'];
  if (maxEvents !== undefined && (typeof maxEvents !== 'number' || !Number.isSafeInteger(maxEvents) || maxEvents < 1)) {
    issues.push({ path: joinPointer(path, 'maxEvents'), message: 'must be an integer ≥ 1' });
  }
}

/** A non-empty array of strings (an operation's `done` and `failed` states). */
function checkStates(value: unknown, path: string, issues: Issues): void {
  if (!Array.isArray(value) || value.length === 0) issues.push({ path, message: 'must be a non-empty array of strings' });
  else value.forEach((entry, index) => checkString(entry, joinPointer(path, String(index)), issues));
}

/** RCP 0.4: how a long-running operation is followed (its status URL, states, result, poll interval). */
function checkOperation(value: unknown, path: string, issues: Issues): void {
  if (!isRecord(value)) {
    issues.push({ path, message: 'must be an object' });
    return;
  }
  const statusUrl = required(value, 'statusUrl', path, issues);
  if (statusUrl !== undefined && !(typeof statusUrl === 'string' && (STATUS_HEADER.test(statusUrl) || MAPPING_PATH.test(statusUrl)))) {
    issues.push({ path: joinPointer(path, 'statusUrl'), message: 'must be "header:<Name>" (an HTTP header name) or an "@" path into the 202 answer' });
  }
  for (const key of ['state', 'result']) {
    if (value[key] !== undefined) checkString(value[key], joinPointer(path, key), issues, MAPPING_PATH, MAPPING_PATH_MESSAGE);
  }
  for (const key of ['done', 'failed']) if (value[key] !== undefined) checkStates(value[key], joinPointer(path, key), issues);
  const pollSeconds = value['pollSeconds'];
  if (pollSeconds !== undefined && (typeof pollSeconds !== 'number' || !Number.isFinite(pollSeconds) || pollSeconds < 0 || pollSeconds > MAX_POLL_SECONDS)) {
    issues.push({ path: joinPointer(path, 'pollSeconds'), message: `must be a number from 0 to ${MAX_POLL_SECONDS}` });
  }
}

function checkNumber(value: unknown, path: string, issues: Issues): void {
  if (typeof value !== 'number' || !Number.isFinite(value)) issues.push({ path, message: 'must be a number' });
}

function checkLength(value: unknown, path: string, issues: Issues): void {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) issues.push({ path, message: 'must be an integer ≥ 0' });
}

function checkNames(value: unknown, path: string, issues: Issues): void {
  if (!Array.isArray(value)) {
    issues.push({ path, message: 'must be an array' });
    return;
  }
  for (let index = 0; index < value.length; index++) checkString(value[index], joinPointer(path, index), issues);
}

/** The JSON Schema details a param or a nested value may carry (see RcpValueSchema). */
function checkDetails(value: Fields, path: string, issues: Issues, depth: number): void {
  const values = value['enum'];
  if (values !== undefined) {
    const at = joinPointer(path, 'enum');
    if (!Array.isArray(values)) issues.push({ path: at, message: 'must be an array' });
    else {
      if (values.length === 0) issues.push({ path: at, message: 'must not be empty' });
      values.forEach((entry: unknown, index) => {
        if (typeof entry !== 'string' && typeof entry !== 'boolean' && (typeof entry !== 'number' || !Number.isFinite(entry))) {
          issues.push({ path: joinPointer(at, index), message: 'must be a string, a number or a boolean' });
        }
      });
    }
  }
  if (value['items'] !== undefined) checkValue(value['items'], joinPointer(path, 'items'), issues, depth + 1);
  const properties = value['properties'];
  if (properties !== undefined) {
    const at = joinPointer(path, 'properties');
    if (!isRecord(properties) || properties instanceof Date || properties instanceof Uint8Array) issues.push({ path: at, message: 'must be an object' });
    else {
      for (const key in properties) {
        if (Object.hasOwn(properties, key)) checkValue(properties[key], joinPointer(at, key), issues, depth + 1);
      }
    }
  }
  for (const key of ['format', 'pattern'] as const) {
    if (value[key] !== undefined) checkString(value[key], joinPointer(path, key), issues);
  }
  for (const key of ['minimum', 'maximum'] as const) {
    if (value[key] !== undefined) checkNumber(value[key], joinPointer(path, key), issues);
  }
  for (const key of ['minLength', 'maxLength'] as const) {
    if (value[key] !== undefined) checkLength(value[key], joinPointer(path, key), issues);
  }
}

/** Nesting of value schemas at the most (a manifest is data, not a program). */
const MAX_VALUE_DEPTH = 16;

function checkValue(value: unknown, path: string, issues: Issues, depth: number): void {
  if (!isRecord(value)) {
    issues.push({ path, message: 'must be an object' });
    return;
  }
  if (depth > MAX_VALUE_DEPTH) {
    issues.push({ path, message: `value schemas may be nested ${MAX_VALUE_DEPTH} levels deep at the most` });
    return;
  }
  const type = required(value, 'type', path, issues);
  if (type !== undefined) checkOneOf(type, PARAM_TYPES, joinPointer(path, 'type'), issues);
  if (value['description'] !== undefined) checkString(value['description'], joinPointer(path, 'description'), issues);
  if (value['required'] !== undefined) checkNames(value['required'], joinPointer(path, 'required'), issues);
  checkDetails(value, path, issues, depth);
}

function checkParam(param: unknown, path: string, issues: Issues): void {
  if (!isRecord(param)) {
    issues.push({ path, message: 'must be an object' });
    return;
  }
  const name = required(param, 'name', path, issues);
  if (name !== undefined) {
    checkString(name, joinPointer(path, 'name'), issues, PARAM_NAME, () =>
      isTokenName(name as string)
        ? `"${name as string}" is a reserved name (__proto__, constructor and prototype are not allowed)`
        : 'must be a token name: a letter or "_" followed by letters, digits or "_"',
    );
  }
  if (param['type'] !== undefined) checkOneOf(param['type'], PARAM_TYPES_WITH_FILE, joinPointer(path, 'type'), issues);
  if (param['mediaTypes'] !== undefined) checkMediaTypes(param['mediaTypes'], joinPointer(path, 'mediaTypes'), issues);
  const maxBytes = param['maxBytes'];
  if (maxBytes !== undefined && (typeof maxBytes !== 'number' || !Number.isSafeInteger(maxBytes) || maxBytes < 1)) {
    issues.push({ path: joinPointer(path, 'maxBytes'), message: 'must be an integer ≥ 1' });
  }
  if (param['description'] !== undefined) checkString(param['description'], joinPointer(path, 'description'), issues);
  if (param['required'] !== undefined && typeof param['required'] !== 'boolean') {
    issues.push({ path: joinPointer(path, 'required'), message: 'must be true or false' });
  }
  if (param['requiredProperties'] !== undefined) checkNames(param['requiredProperties'], joinPointer(path, 'requiredProperties'), issues);
  if (param['filledBy'] !== undefined) checkOneOf(param['filledBy'], PARAM_FILLERS, joinPointer(path, 'filledBy'), issues);
  if (param['queryStyle'] !== undefined) checkOneOf(param['queryStyle'], QUERY_STYLES, joinPointer(path, 'queryStyle'), issues);
  checkDetails(param, path, issues, 1);
}

/** RCP 0.4: the manifest's tool groups, each a name written as a tool name and an optional description. */
function checkGroups(groups: unknown, issues: Issues): void {
  if (!Array.isArray(groups)) {
    issues.push({ path: '/groups', message: 'must be an array' });
    return;
  }
  groups.forEach((group: unknown, index) => {
    const path = joinPointer('/groups', index);
    if (!isRecord(group)) {
      issues.push({ path, message: 'must be an object' });
      return;
    }
    const name = required(group, 'name', path, issues);
    if (name !== undefined) checkString(name, joinPointer(path, 'name'), issues, TOOL_NAME, () => `must be ${TOOL_NAME_RULE} (a group is named like a tool)`);
    if (group['description'] !== undefined) checkString(group['description'], joinPointer(path, 'description'), issues);
  });
}

/** `grouped`: the manifest is 0.4, whose tools may name a group (an older one's `group` is ignored, not checked). */
function checkTool(tool: unknown, path: string, issues: Issues, grouped: boolean): void {
  if (!isRecord(tool)) {
    issues.push({ path, message: 'must be an object' });
    return;
  }
  const name = required(tool, 'name', path, issues);
  if (name !== undefined) {
    checkString(name, joinPointer(path, 'name'), issues, TOOL_NAME, () => `must be ${TOOL_NAME_RULE} (what model APIs accept as a function name)`);
  }
  const description = required(tool, 'description', path, issues);
  if (description !== undefined) checkString(description, joinPointer(path, 'description'), issues, NON_BLANK, () => 'must not be empty or blank');
  const method = required(tool, 'method', path, issues);
  if (method !== undefined) checkOneOf(method, HTTP_METHODS, joinPointer(path, 'method'), issues);
  const url = required(tool, 'url', path, issues);
  if (url !== undefined) checkString(url, joinPointer(path, 'url'), issues);
  const params = tool['params'];
  if (params !== undefined) {
    if (!Array.isArray(params)) issues.push({ path: joinPointer(path, 'params'), message: 'must be an array' });
    else for (let index = 0; index < params.length; index++) checkParam(params[index], joinPointer(path, 'params', index), issues);
  }
  if (tool['queryParams'] !== undefined) checkStringRecord(tool['queryParams'], joinPointer(path, 'queryParams'), issues);
  if (tool['headers'] !== undefined) checkStringRecord(tool['headers'], joinPointer(path, 'headers'), issues);
  if (tool['bodyEncoding'] !== undefined) checkOneOf(tool['bodyEncoding'], BODY_ENCODINGS, joinPointer(path, 'bodyEncoding'), issues);
  if (tool['auth'] !== undefined) checkAuth(tool['auth'], joinPointer(path, 'auth'), issues);
  if (tool['responseMappings'] !== undefined) {
    checkStringRecord(tool['responseMappings'], joinPointer(path, 'responseMappings'), issues, MAPPING_PATH, MAPPING_PATH_MESSAGE);
  }
  if (tool['effects'] !== undefined) checkEffects(tool['effects'], joinPointer(path, 'effects'), issues);
  if (tool['responseMediaTypes'] !== undefined) checkMediaTypes(tool['responseMediaTypes'], joinPointer(path, 'responseMediaTypes'), issues);
  if (tool['pagination'] !== undefined) checkPagination(tool['pagination'], joinPointer(path, 'pagination'), issues);
  if (tool['idempotency'] !== undefined) checkIdempotency(tool['idempotency'], joinPointer(path, 'idempotency'), issues);
  // A stream is read in a 0.4 manifest only; an older one's is ignored like an unknown field (SPEC §20.6).
  if (grouped && tool['stream'] !== undefined) checkStream(tool['stream'], joinPointer(path, 'stream'), issues);
  if (grouped && tool['operation'] !== undefined) checkOperation(tool['operation'], joinPointer(path, 'operation'), issues);
  if (grouped && tool['group'] !== undefined) {
    checkString(tool['group'], joinPointer(path, 'group'), issues, TOOL_NAME, () => `must be ${TOOL_NAME_RULE} (the name of one of the manifest's groups)`);
  }
}

/**
 * Structural problems of a manifest, with readable messages; empty when it is structurally
 * valid. The semantic rules (templates, header names, mappings, duplicates) come after, in
 * `validate-manifest.ts`.
 *
 * @example
 * ```ts
 * structuralIssues({ rcpVersion: '0.1', tools: [{ name: 1 }] });
 * // [{ path: '/tools/0/name', message: 'must be a string' }, { path: '/tools/0/description', message: 'is required' }, …]
 * ```
 */
export function structuralIssues(manifest: unknown): ManifestIssue[] {
  const issues: Issues = [];
  if (!isRecord(manifest)) return [{ path: '', message: 'must be an object' }];
  const version = required(manifest, 'rcpVersion', '', issues);
  if (version !== undefined) checkOneOf(version, VERSIONS, '/rcpVersion', issues);
  if (manifest['auth'] !== undefined) checkAuth(manifest['auth'], '/auth', issues);
  // Groups are read in a 0.4 manifest only; an older one's are ignored like unknown fields (SPEC §20.3).
  const grouped = version === '0.4';
  if (grouped && manifest['groups'] !== undefined) checkGroups(manifest['groups'], issues);
  const tools = required(manifest, 'tools', '', issues);
  if (tools !== undefined) {
    if (!Array.isArray(tools)) issues.push({ path: '/tools', message: 'must be an array' });
    else for (let index = 0; index < tools.length; index++) checkTool(tools[index], `/tools/${index}`, issues, grouped);
  }
  return issues;
}
