import { escapePointerToken } from './internal/json-pointer';
import type { ManifestIssue } from './manifest-errors';
import type { RcpParam } from './manifest-schema';
import { isRecord } from 'rcp-internal';
import { TYPE_TESTS, compileValueCheck, hasValueDetails, typeProblem, type ValueCheck } from './value-check';

/**
 * What {@link compileArgumentCheck} returns for one call's arguments: the accepted values, or every
 * problem at its JSON Pointer (`/query`, `/tags/1`, `''` for the arguments themselves).
 *
 * @example
 * ```ts
 * const result: ArgumentCheckResult = check({ query: 'algebra' });
 * if (result.ok) console.log(result.values.query);
 * else for (const issue of result.issues) console.log(issue.path, issue.message);
 * ```
 */
export type ArgumentCheckResult =
  | { readonly ok: true; readonly values: Record<string, unknown> }
  | {
      readonly ok: false;
      readonly issues: ManifestIssue[];
      /** The `JSON.parse` error when the arguments were text that is not JSON (its message holds no input). */
      readonly cause?: unknown;
    };

/**
 * The check of one tool's arguments, compiled once by {@link compileArgumentCheck}. Never throws.
 *
 * @example
 * ```ts
 * const check: ArgumentCheck = compileArgumentCheck([{ name: 'q', required: true }]);
 * check('{"q":"algebra"}'); // { ok: true, values: { q: 'algebra' } }
 * ```
 */
export type ArgumentCheck = (args: unknown) => ArgumentCheckResult;

/** Params above this count are found by a map, below by a scan of the names. */
const SCAN_LIMIT = 16;

/**
 * What {@link readArguments} returns: the arguments as a value, or the one issue of text that is
 * not JSON (with the parse error as `cause`).
 *
 * @example
 * ```ts
 * const read: ReadArgumentsResult = readArguments('{"q":"algebra"}');
 * if (read.ok) console.log(read.value);
 * ```
 */
export type ReadArgumentsResult =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly issues: ManifestIssue[]; readonly cause: unknown };

/**
 * A call's arguments as a value, by the one rule every check and adapter applies (SPEC §11 step 1):
 * JSON text is parsed (as model APIs return arguments; blank text is `{}`), `undefined` is `{}`,
 * any other value is returned as it is — whether it is an object is the argument check's to say.
 * Text that is not JSON is the issue `'' are not valid JSON`, with the parse error as `cause`
 * (its message holds no input). Never throws.
 *
 * @example
 * ```ts
 * import { readArguments } from 'rcp-manifest';
 *
 * readArguments('{"q":"algebra"}'); // { ok: true, value: { q: 'algebra' } }
 * readArguments(' ');               // { ok: true, value: {} }
 * readArguments('not json');        // { ok: false, issues: [{ path: '', message: 'are not valid JSON' }], cause: SyntaxError }
 * ```
 */
export function readArguments(args: unknown): ReadArgumentsResult {
  if (args === undefined) return { ok: true, value: {} };
  if (typeof args !== 'string') return { ok: true, value: args };
  if (args.trim() === '') return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(args) as unknown };
  } catch (error) {
    return { ok: false, issues: [{ path: '', message: 'are not valid JSON' }], cause: error };
  }
}

/**
 * Compiles, once, the check of a call's arguments against a tool's params — the rule a client
 * applies before it sends a call and a server applies to what arrived (SPEC §11 step 1, §16.2):
 *
 * - `args` is read by {@link readArguments}: an object, or the JSON text of one (blank text is
 *   `{}`, text that is not JSON is the issue `'' are not valid JSON`); `undefined` is `{}`;
 * - only own enumerable keys are read; a key that is not a declared param is
 *   `is not a parameter of this tool` (a `__proto__` key from `JSON.parse` is just such a key);
 * - `undefined` and `null` mean "not given"; a param with `required: true` that is not given is
 *   `is required` (pass `required: true` for a path param: `toolParams` says which are);
 * - then the type (`must be a string (got integer)`: `integer` is a safe integer, `number` a
 *   finite number) and the value details, with {@link compileValueCheck}; a `file` param's value
 *   must be a string that passes `fileReferenceProblem` (RCP 0.4: a reference, never bytes or a path).
 *
 * Messages name the expectation, never the value. On success, `values` is a null-prototype
 * object holding only the given, declared values.
 *
 * @param params - The params to accept (e.g. a tool's, minus the ones a resolver fills).
 * @example
 * ```ts
 * import { compileArgumentCheck } from 'rcp-manifest';
 *
 * const check = compileArgumentCheck([
 *   { name: 'query', required: true },
 *   { name: 'limit', type: 'integer', minimum: 1, maximum: 50 },
 * ]);
 * check({ query: 'algebra', limit: 10 }); // { ok: true, values: { query: 'algebra', limit: 10 } }
 * check({ limit: 0, userId: 'u-7' });
 * // { ok: false, issues: [
 * //   { path: '/limit', message: 'must be ≥ 1' },
 * //   { path: '/userId', message: 'is not a parameter of this tool' },
 * //   { path: '/query', message: 'is required' } ] }
 * ```
 */
export function compileArgumentCheck(params: readonly RcpParam[]): ArgumentCheck {
  const names = params.map((param) => param.name);
  // A plain param is checked by its type alone, allocating nothing when the value is right.
  const checks: ((value: unknown, path: string) => ManifestIssue[] | undefined)[] = params.map((param) => {
    if (hasValueDetails(param) || param.type === 'file') {
      const detail: ValueCheck = compileValueCheck(param);
      return (value, path) => {
        const problems = detail(value, path);
        return problems.length === 0 ? undefined : problems;
      };
    }
    const type = param.type ?? 'string';
    const test = TYPE_TESTS[type];
    return (value, path) => (test(value) ? undefined : [{ path, message: typeProblem(type, value) }]);
  });
  const pointers = names.map((name) => `/${escapePointerToken(name)}`);
  const required = params.flatMap((param, index) => (param.required === true ? [index] : []));
  const byName = names.length > SCAN_LIMIT ? new Map(names.map((name, index) => [name, index])) : undefined;

  return (args) => {
    const read = readArguments(args);
    if (!read.ok) return read;
    args = read.value;
    if (!isRecord(args)) {
      return { ok: false, issues: [{ path: '', message: typeProblem('object', args) }] };
    }
    const source = args as Record<string, unknown>;
    const values: Record<string, unknown> = Object.create(null);
    let issues: ManifestIssue[] | undefined;
    for (const key of Object.keys(source)) {
      const index = byName === undefined ? names.indexOf(key) : (byName.get(key) ?? -1);
      if (index === -1) {
        (issues ??= []).push({ path: `/${escapePointerToken(key)}`, message: 'is not a parameter of this tool' });
        continue;
      }
      const value = source[key];
      if (value === undefined || value === null) continue;
      const problems = checks[index]!(value, pointers[index]!);
      if (problems !== undefined) {
        (issues ??= []).push(...problems);
        continue;
      }
      values[key] = value;
    }
    for (const index of required) {
      const name = names[index]!;
      if (values[name] !== undefined) continue;
      const path = pointers[index]!;
      if (issues?.some((issue) => issue.path === path || issue.path.startsWith(`${path}/`))) continue;
      (issues ??= []).push({ path, message: 'is required' });
    }
    return issues === undefined ? { ok: true, values } : { ok: false, issues };
  };
}
