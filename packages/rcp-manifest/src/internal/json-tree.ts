import { joinPointer } from './json-pointer';

/** A plain JSON object: prototype `Object.prototype` or `null`. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

function describeNonJson(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return undefined;
    case 'number':
      return Number.isFinite(value) ? undefined : `${String(value)} is not a JSON number`;
    case 'object':
      if (value === null || Array.isArray(value) || isPlainObject(value)) return undefined;
      return 'is not a JSON value (only plain objects, arrays, strings, finite numbers, booleans and null)';
    case 'undefined':
      return 'undefined is not a JSON value';
    default:
      return `a ${typeof value} is not a JSON value`;
  }
}

/**
 * Visits a JSON tree iteratively (no recursion), calling `onString` for every string value and
 * `onInvalid` for every value that is not JSON, each with its JSON Pointer. Object keys are not
 * visited as strings (body keys are literal).
 */
export function walkJsonTree(
  root: unknown,
  rootPointer: string,
  onString: (text: string, pointer: string) => void,
  onInvalid: (pointer: string, message: string) => void,
): void {
  const stack: [unknown, string][] = [[root, rootPointer]];
  while (stack.length > 0) {
    const [value, pointer] = stack.pop() as [unknown, string];
    const problem = describeNonJson(value);
    if (problem !== undefined) {
      onInvalid(pointer, problem);
      continue;
    }
    if (typeof value === 'string') onString(value, pointer);
    else if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index--) stack.push([value[index], joinPointer(pointer, index)]);
    } else if (typeof value === 'object' && value !== null) {
      const keys = Object.keys(value);
      for (let index = keys.length - 1; index >= 0; index--) {
        const key = keys[index] as string;
        stack.push([(value as Record<string, unknown>)[key], joinPointer(pointer, key)]);
      }
    }
  }
}

function isContainer(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

function emptyLike(value: object): Record<string, unknown> | unknown[] {
  return Array.isArray(value) ? [] : {};
}

function setOwn(target: Record<string, unknown> | unknown[], key: string | number, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * A deep, frozen copy of a JSON tree (own enumerable keys only; a `__proto__` key stays an own
 * key). Iterative, so depth is bounded only by memory.
 */
export function freezeJsonCopy(root: unknown): unknown {
  if (!isContainer(root)) return root;
  const rootCopy = emptyLike(root);
  const work: [object, Record<string, unknown> | unknown[]][] = [[root, rootCopy]];
  const copies: object[] = [];
  while (work.length > 0) {
    const [source, target] = work.pop() as [object, Record<string, unknown> | unknown[]];
    copies.push(target);
    const keys: (string | number)[] = Array.isArray(source) ? source.map((_, index) => index) : Object.keys(source);
    for (const key of keys) {
      const value = (source as Record<string | number, unknown>)[key];
      if (isContainer(value)) {
        const copy = emptyLike(value);
        if (Array.isArray(target)) target.push(copy);
        else setOwn(target, key, copy);
        work.push([value, copy]);
      } else if (Array.isArray(target)) target.push(value);
      else setOwn(target, key, value);
    }
  }
  for (const copy of copies) Object.freeze(copy);
  return rootCopy;
}
