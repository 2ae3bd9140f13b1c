import { escapePointerToken, isRecord } from 'rcp-template';

/**
 * Most values a document may expand to (below). The largest real descriptions the tests import
 * (GitHub's, Amazon EC2's) expand to about a tenth of it; twenty schemas that each name the next
 * one twice expand to over a million and a half, and took the validator and the dereferencer
 * about a minute.
 */
export const MAX_EXPANDED_VALUES = 20_000_000;

/** What {@link expandedSize} measured: the values counted (up to `max + 1`), and where the walk was when it passed `max`. */
export interface ExpandedSize {
  readonly values: number;
  /** Over the limit: the outermost `$ref` being expanded (its JSON Pointer and the ref), if any. */
  readonly where?: { readonly pointer: string; readonly ref: string };
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

/** The value an internal `$ref` (`#/components/schemas/Pet`) points to, following refs on the way; undefined when it points nowhere. */
function resolveRef(document: Json, ref: string): object | undefined {
  if (ref === '#') return document;
  if (!ref.startsWith('#/')) return undefined;
  let current: unknown = document;
  let hops = 0;
  for (const raw of ref.slice(2).split('/')) {
    let token: string;
    try {
      token = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return undefined;
    }
    while (isRecord(current) && !Object.hasOwn(current, token) && typeof current['$ref'] === 'string' && hops++ < 64) {
      current = resolveRef(document, current['$ref']);
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
  const known = new WeakMap<object, Counted>();
  const open = new WeakSet<object>();
  const stack: Frame[] = [];
  let values = 0;
  const enter = (node: object, ref: string | undefined): void => {
    open.add(node);
    stack.push({ node, keys: Object.keys(node), next: 0, size: 1, circular: false, ref });
    values++;
  };
  /** Adds what `frame`'s child counts to it: a ref that stays a ref (it leads to a cycle) is one value. */
  const add = (frame: Frame, counted: Counted, throughRef: boolean): void => {
    const size = throughRef && counted.circular ? 1 : counted.size;
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
      const target = ref === undefined ? undefined : resolveRef(document, ref);
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
      // A ref that stays a ref is one value where it is; walking its target once still counted (in `values`).
      parent.size += frame.ref !== undefined && frame.circular ? 1 : frame.size;
      if (frame.circular) parent.circular = true;
    }
  }
  if (values <= max) return { values };
  return { values, ...whereOf(stack) };
}

const SCALAR: Counted = { size: 1, circular: false };
/** A ref back into an object being counted: the ref stays (one value), and everything above it is circular. */
const CYCLE: Counted = { size: 1, circular: true };

/** The outermost `$ref` on the walk's stack: the JSON Pointer of the object that holds it, and the ref. */
function whereOf(stack: readonly Frame[]): Pick<ExpandedSize, 'where'> {
  const outer = stack.findIndex((frame) => frame.ref !== undefined);
  if (outer === -1) return {};
  // Each frame's token is the key its parent is counting (the one before `next`); the ref's own frame is reached by "$ref".
  const pointer = stack
    .slice(0, outer - 1)
    .map((frame) => `/${escapePointerToken(frame.keys[frame.next - 1]!)}`)
    .join('');
  return { where: { pointer, ref: stack[outer]!.ref! } };
}
