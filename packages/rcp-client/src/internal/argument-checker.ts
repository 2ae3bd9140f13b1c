import type { RcpParamType, ValueCheck } from 'rcp-manifest';
import { RcpInvalidArgumentsError, type RcpArgumentIssue } from '../invalid-arguments-error';
import { expectedType, kindOf, typeCheckFor, type TypeCheck } from './value-types';

/** A model-fillable param, as the checker needs it. */
export interface CheckedParam {
  name: string;
  type: RcpParamType;
  required: boolean;
  /** The check of the param's value details (enum, items, bounds …), when it has any. */
  detail?: ValueCheck;
}

/**
 * Validates a call's arguments and returns a null-prototype copy holding only declared,
 * non-null values. Throws `RCP_INVALID_ARGUMENTS` listing every problem.
 */
export type ArgumentChecker = (args: unknown) => Record<string, unknown>;

/** RFC 6901 escaping of one reference token. */
function pointer(key: string): string {
  return `/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
}

/**
 * Arguments given as a JSON string, as model APIs return them: parsed; blank means `{}`.
 * Invalid JSON is `RCP_INVALID_ARGUMENTS` (the text is never repeated).
 */
function parseJsonArguments(toolName: string, text: string): unknown {
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new RcpInvalidArgumentsError(toolName, [{ path: '', message: 'are not valid JSON' }], { cause: error });
  }
}

/**
 * Compiles, once per tool at discovery, the checker for its model-fillable params. No JSON
 * Schema is interpreted per call: a lookup table and one precomputed type check per param.
 * Only own enumerable string keys of `args` are read; `undefined` and `null` mean "not given".
 * `args` may be a JSON string of the object (what model APIs return).
 */
export function compileArgumentChecker(toolName: string, params: readonly CheckedParam[]): ArgumentChecker {
  // Exact-size lists: the checker lives as long as its tool. Few params (the usual case) are
  // found by a scan of `names`; many by a map.
  const names = params.map((param) => param.name);
  const checks = params.map((param) => typeCheckFor(param.type));
  const types = params.map((param) => param.type);
  const details = params.map((param) => param.detail);
  const required = params.filter((param) => param.required).map((param) => param.name);
  const byName = names.length > 16 ? new Map(names.map((name, i) => [name, i])) : undefined;

  return (args) => {
    if (typeof args === 'string') args = parseJsonArguments(toolName, args);
    if (args === undefined) args = {};
    if (typeof args !== 'object' || args === null || Array.isArray(args)) {
      throw new RcpInvalidArgumentsError(toolName, [{ path: '', message: `must be an object (got ${kindOf(args)})` }]);
    }
    const source = args as Record<string, unknown>;
    const values: Record<string, unknown> = Object.create(null);
    let issues: RcpArgumentIssue[] | undefined;
    for (const key of Object.keys(source)) {
      const i = byName === undefined ? names.indexOf(key) : (byName.get(key) ?? -1);
      if (i === -1) {
        (issues ??= []).push({ path: pointer(key), message: 'is not a parameter of this tool' });
        continue;
      }
      const value = source[key];
      if (value === undefined || value === null) continue;
      if (!checks[i]!(value)) {
        (issues ??= []).push({ path: pointer(key), message: `must be ${expectedType(types[i]!)} (got ${kindOf(value)})` });
        continue;
      }
      const detail = details[i];
      if (detail !== undefined) {
        const problems = detail(value, pointer(key));
        if (problems.length > 0) {
          (issues ??= []).push(...problems);
          continue;
        }
      }
      values[key] = value;
    }
    for (const name of required) {
      if (values[name] !== undefined) continue;
      const path = pointer(name);
      if (issues?.some((issue) => issue.path === path)) continue;
      (issues ??= []).push({ path, message: 'is required' });
    }
    if (issues) throw new RcpInvalidArgumentsError(toolName, issues);
    return values;
  };
}
