import type { RcpParamType } from 'rcp-manifest';

/** A check that a value has a param's declared type (JSON value semantics). */
export type TypeCheck = (value: unknown) => boolean;

const isString: TypeCheck = (value) => typeof value === 'string';
const isNumber: TypeCheck = (value) => typeof value === 'number' && Number.isFinite(value);
const isInteger: TypeCheck = (value) => Number.isSafeInteger(value);
const isBoolean: TypeCheck = (value) => typeof value === 'boolean';
const isArray: TypeCheck = (value) => Array.isArray(value);
const isObject: TypeCheck = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);

const CHECKS: Record<RcpParamType, TypeCheck> = {
  string: isString,
  number: isNumber,
  integer: isInteger,
  boolean: isBoolean,
  array: isArray,
  object: isObject,
};

const EXPECTED: Record<RcpParamType, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'a safe integer',
  boolean: 'a boolean',
  array: 'an array',
  object: 'an object',
};

/** The precompiled check for a param type. */
export function typeCheckFor(type: RcpParamType): TypeCheck {
  return CHECKS[type];
}

/** `"a string"`, `"an integer"`... for messages. */
export function expectedType(type: RcpParamType): string {
  return EXPECTED[type];
}

/** The JSON kind of a value, for messages that must never echo the value itself. */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return 'NaN';
    if (!Number.isFinite(value)) return 'Infinity';
    return Number.isInteger(value) ? 'integer' : 'number';
  }
  return typeof value;
}
