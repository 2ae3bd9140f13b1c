import { RcpTemplateError, type TemplatePosition } from '../template-error';

/** Values passed to `render`. */
export type TemplateValues = Readonly<Record<string, unknown>>;

const hasOwn = Object.hasOwn;

/** Reads an own property; `undefined` and `null` both mean "missing" and return `undefined`. */
export function readValue(values: TemplateValues, name: string): unknown {
  if (!hasOwn(values, name)) return undefined;
  const value = values[name];
  return value === null ? undefined : value;
}

/** Describes a value's kind for messages, never its content. */
export function describeKind(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  switch (typeof value) {
    case 'object':
      return 'an object';
    case 'number':
      return 'a non-finite number';
    case 'bigint':
      return 'a bigint';
    case 'function':
      return 'a function';
    case 'symbol':
      return 'a symbol';
    default:
      return `a ${typeof value}`;
  }
}

/** Error for a value that cannot be placed at `position`. The message never contains the value. */
export function valueError(name: string, position: TemplatePosition, reason: string): RcpTemplateError {
  return new RcpTemplateError('RCP_TEMPLATE_VALUE', `Token "${name}" in the ${position}: ${reason}`, {
    token: name,
    position,
  });
}

/** Error for a required value that is missing. */
export function missingError(name: string, position: TemplatePosition, reason: string): RcpTemplateError {
  return new RcpTemplateError('RCP_TEMPLATE_MISSING', `Token "${name}" in the ${position} has no value: ${reason}`, {
    token: name,
    position,
  });
}

/**
 * The text of a scalar value (string, finite number, boolean). Anything else throws
 * RCP_TEMPLATE_VALUE naming the token and position.
 */
export function scalarText(value: unknown, name: string, position: TemplatePosition): string {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
      if (Number.isFinite(value)) return String(value);
      break;
    case 'boolean':
      return value ? 'true' : 'false';
    default:
      break;
  }
  throw valueError(name, position, `${describeKind(value)} is not allowed here (only a string, a finite number or a boolean)`);
}

/** The shared empty list of compiled structures that have nothing in a list (never modified). */
export const NONE: never[] = Object.freeze([]) as unknown as never[];
