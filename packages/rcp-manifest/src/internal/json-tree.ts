import { isPlainObject } from 'rcp-internal';
import { joinPointer } from './json-pointer';

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

/**
 * True when every value in the tree is JSON (what {@link walkJsonTree} reports nothing for),
 * checked without building pointers. Iterative.
 */
export function isPureJson(root: unknown): boolean {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (describeNonJson(value) !== undefined) return false;
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) stack.push(value[index]);
    } else if (typeof value === 'object' && value !== null) {
      for (const key of Object.keys(value)) stack.push((value as Record<string, unknown>)[key]);
    }
  }
  return true;
}

function isContainer(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

function emptyLike(value: object): Record<string, unknown> | unknown[] {
  return Array.isArray(value) ? [] : {};
}

function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    // Assignment would set the prototype: define it as an own property instead.
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    target[key] = value;
  }
}

/**
 * A deep, frozen copy of a JSON tree (own enumerable keys only; a `__proto__` key stays an own
 * key). Iterative, so depth is bounded only by memory; the work list is only allocated when
 * the tree has nested containers.
 */
export function freezeJsonCopy(root: unknown): unknown {
  if (!isContainer(root)) return root;
  const rootCopy = emptyLike(root);
  let pending: (object | Record<string, unknown> | unknown[])[] | undefined;
  let source: object = root;
  let target = rootCopy;
  for (let next = 0; ; ) {
    if (Array.isArray(source)) {
      const list = target as unknown[];
      for (let index = 0; index < source.length; index++) {
        const value: unknown = source[index];
        if (isContainer(value)) {
          const copy = emptyLike(value);
          list.push(copy);
          (pending ??= []).push(value, copy);
        } else list.push(value);
      }
    } else {
      const object = target as Record<string, unknown>;
      for (const key of Object.keys(source)) {
        const value = (source as Record<string, unknown>)[key];
        if (isContainer(value)) {
          const copy = emptyLike(value);
          setOwn(object, key, copy);
          (pending ??= []).push(value, copy);
        } else setOwn(object, key, value);
      }
    }
    Object.freeze(target);
    if (pending === undefined || next >= pending.length) break;
    source = pending[next] as object;
    target = pending[next + 1] as Record<string, unknown> | unknown[];
    next += 2;
  }
  return rootCopy;
}
