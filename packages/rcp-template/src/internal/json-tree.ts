import { isRecord } from 'rcp-internal';

/** True for arrays. */
export function isArray(value: unknown): value is unknown[] {
  return Array.isArray(value);
}

/**
 * True for objects walked as JSON objects: non-null, non-array objects without a `toJSON`
 * method. Like `JSON.stringify`, only own enumerable string keys are read. Objects with
 * `toJSON` (such as `Date`) are opaque leaves.
 */
export function isJsonObjectNode(value: unknown): value is Record<string, unknown> {
  if (!isRecord(value)) return false;
  return typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}
