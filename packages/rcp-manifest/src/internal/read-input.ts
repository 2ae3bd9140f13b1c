import { RcpManifestError, RcpManifestLimitError } from '../manifest-errors';

/** Resolved, validated limits. */
export interface ManifestLimits {
  readonly maxBytes: number;
  readonly maxTools: number;
  readonly maxDepth: number;
}

/** Number of UTF-8 bytes `text` encodes to (lone surrogates count as U+FFFD, 3 bytes). */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * Nesting depth of the JSON text, counted without parsing (strings and escapes skipped), stopping
 * as soon as it passes `max`. Returns `max + 1` when the limit is passed.
 */
export function jsonTextDepth(text: string, max: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c)
        i++; // backslash: skip the escaped character
      else if (code === 0x22) inString = false;
      continue;
    }
    if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > max) return deepest;
      }
    } else if (code === 0x5d || code === 0x7d) depth--;
  }
  return deepest;
}

/**
 * Nesting depth of a value (a container counts one level; scalars zero), walked iteratively so
 * that neither deep nor cyclic input can exhaust the call stack. Stops at `max + 1`.
 */
export function valueDepth(value: unknown, max: number): number {
  if (typeof value !== 'object' || value === null) return 0;
  const stack: object[] = [value];
  const depths: number[] = [1];
  let deepest = 0;
  while (stack.length > 0) {
    const current = stack.pop() as Record<string, unknown>;
    const depth = depths.pop() as number;
    if (depth > deepest) {
      deepest = depth;
      if (deepest > max) return deepest;
    }
    if (Array.isArray(current)) {
      for (let index = 0; index < current.length; index++) {
        const child: unknown = current[index];
        if (typeof child === 'object' && child !== null) {
          stack.push(child);
          depths.push(depth + 1);
        }
      }
    } else {
      // Own enumerable string keys, like Object.values, without building an array per object.
      for (const key in current) {
        if (!Object.hasOwn(current, key)) continue;
        const child = current[key];
        if (typeof child === 'object' && child !== null) {
          stack.push(child);
          depths.push(depth + 1);
        }
      }
    }
  }
  return deepest;
}

const decoder = /* @__PURE__ */ new TextDecoder('utf-8', { fatal: true });

/**
 * Turns the parser's input into a JSON value, enforcing the byte and depth limits first:
 * a string or `Uint8Array` is measured, scanned for depth, then parsed; any other value is
 * walked for depth.
 */
export function readManifestInput(input: unknown, limits: ManifestLimits): unknown {
  if (typeof input === 'string' || input instanceof Uint8Array) {
    let text: string;
    if (typeof input === 'string') {
      // Each UTF-16 unit encodes to at most 3 bytes: only count when the text could be too long.
      if (input.length * 3 > limits.maxBytes) {
        const bytes = utf8ByteLength(input);
        if (bytes > limits.maxBytes) throw new RcpManifestLimitError('bytes', limits.maxBytes, bytes);
      }
      text = input;
    } else {
      if (input.byteLength > limits.maxBytes) throw new RcpManifestLimitError('bytes', limits.maxBytes, input.byteLength);
      try {
        text = decoder.decode(input);
      } catch (cause) {
        throw new RcpManifestError([{ path: '', message: 'the manifest bytes are not valid UTF-8' }], { cause });
      }
    }
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    if (jsonTextDepth(text, limits.maxDepth) > limits.maxDepth) {
      throw new RcpManifestLimitError('depth', limits.maxDepth);
    }
    try {
      return JSON.parse(text) as unknown;
    } catch (cause) {
      throw new RcpManifestError([{ path: '', message: 'the manifest is not valid JSON' }], { cause });
    }
  }
  if (valueDepth(input, limits.maxDepth) > limits.maxDepth) {
    throw new RcpManifestLimitError('depth', limits.maxDepth);
  }
  return input;
}
