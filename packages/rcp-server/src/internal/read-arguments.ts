import { RcpError } from 'rcp-errors';
import type { RcpParam, RcpValue } from 'rcp-manifest';
import { scalarFromText } from 'rcp-internal';
import { parseTemplate } from 'rcp-template';
import { isRecord } from 'rcp-internal';

/**
 * How one templated string reads its value back: the whole string is one token (`"{{x}}"`), or
 * one token between literal text (`"Bearer {{x}}"`). Literal-only strings read nothing.
 */
export interface TextSlot {
  readonly name: string;
  readonly prefix: string;
  readonly suffix: string;
}

/** Compiles a template string into the slot its value is read from (`undefined`: no token). */
export function compileTextSlot(tool: string, where: string, template: string): TextSlot | undefined {
  const parsed = parseTemplate(template);
  if (parsed.tokens.length === 0) return undefined;
  const index = parsed.parts.findIndex((part) => part.kind === 'token');
  if (parsed.parts.filter((part) => part.kind === 'token').length > 1) {
    throw new RcpError('RCP_INVALID_OPTIONS', `Tool "${tool}": ${where} may hold one {{token}} at most, so its value can be read back`);
  }
  const token = parsed.parts[index]!;
  const textOf = (parts: typeof parsed.parts) => parts.map((part) => (part.kind === 'text' ? part.text : '')).join('');
  return {
    name: token.kind === 'token' ? token.name : '',
    prefix: textOf(parsed.parts.slice(0, index)),
    suffix: textOf(parsed.parts.slice(index + 1)),
  };
}

/** The token's text inside a received string, or `undefined` when the literal parts differ. */
export function readSlot(slot: TextSlot, text: string): string | undefined {
  if (slot.prefix === '' && slot.suffix === '') return text;
  if (text.length < slot.prefix.length + slot.suffix.length || !text.startsWith(slot.prefix) || !text.endsWith(slot.suffix)) {
    return undefined;
  }
  return text.slice(slot.prefix.length, text.length - slot.suffix.length);
}

/**
 * Reads a value that arrived as text (a path segment, a query value, a header, a form field)
 * back into the param's type, the inverse of the client's `String(value)`: a number or integer
 * from JSON number text, a boolean from `true` / `false`, an array element by `items`, an
 * object's properties by `properties`. Text that does not read as the type is left as text, so
 * the argument check reports the wrong type (`must be a safe integer (got string)`).
 */
export function fromText(schema: RcpParam | RcpValue | undefined, value: unknown): unknown {
  const type = schema?.type ?? 'string';
  if (typeof value === 'string') {
    if (type === 'array') return [fromText(schema?.items, value)];
    return scalarFromText(type, value) ?? value;
  }
  if (Array.isArray(value)) {
    return type === 'array' ? value.map((element) => fromText(schema?.items, element)) : value;
  }
  if (isRecord(value) && type === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, entry] of Object.entries(value)) {
      Object.defineProperty(out, key, { value: fromText(schema?.properties?.[key], entry), enumerable: true, writable: true });
    }
    return out;
  }
  return value;
}

/**
 * The inverse of `encodeFormBody` (SPEC §16.1): fields read with `URLSearchParams`, a repeated
 * name is an array, `a[b]` nests an object and `a[0][b]` an indexed array. Leaves stay text.
 */
export function readFormBody(text: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [name, value] of new URLSearchParams(text)) {
    const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(name);
    const keys = match === null ? [name] : [match[1]!, ...[...match[2]!.matchAll(/\[([^[\]]*)\]/g)].map((part) => part[1]!)];
    let node: Record<string, unknown> = root;
    for (let index = 0; index < keys.length; index++) {
      const key = keys[index]!;
      const last = index === keys.length - 1;
      const existing = Object.hasOwn(node, key) ? node[key] : undefined;
      if (last) {
        const entry = existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
        Object.defineProperty(node, key, { value: entry, enumerable: true, writable: true, configurable: true });
      } else {
        let child = existing;
        if (!isRecord(child)) {
          child = {};
          Object.defineProperty(node, key, { value: child, enumerable: true, writable: true, configurable: true });
        }
        node = child as Record<string, unknown>;
      }
    }
  }
  return indexedToArrays(root) as Record<string, unknown>;
}

/** An object whose keys are exactly `0 … n-1` (from `items[0][price]`) becomes an array. */
function indexedToArrays(value: unknown): unknown {
  if (!isRecord(value)) return value;
  const keys = Object.keys(value);
  const entries = keys.map((key) => indexedToArrays(value[key]));
  if (keys.length > 0 && keys.every((key, index) => key === String(index))) return entries;
  const out: Record<string, unknown> = {};
  keys.forEach((key, index) => Object.defineProperty(out, key, { value: entries[index], enumerable: true, writable: true }));
  return out;
}

/** One way a body template reads values back from a received body, handing each to `put`. */
export type BodyReader = (received: unknown, put: (name: string, value: unknown) => void, text: boolean) => void;

/**
 * Compiles how a tool's body template reads the values of its tokens back from a received
 * (parsed) body: a whole-token string takes the value at its place, a string with one token
 * inside literal text takes the text between them, an object template walks its keys. A key of
 * the received top-level object the template does not have is passed on as an argument of its
 * own, so the argument check refuses it (`is not a parameter of this tool`).
 */
export function compileBodyReader(tool: string, template: unknown, params: ReadonlyMap<string, RcpParam>): BodyReader {
  const walk = (node: unknown, where: string, top: boolean): BodyReader => {
    if (typeof node === 'string') {
      const slot = compileTextSlot(tool, `the body string at ${where || '/'}`, node);
      if (slot === undefined) return () => {};
      const whole = slot.prefix === '' && slot.suffix === '';
      const schema = params.get(slot.name);
      return (received, put, text) => {
        if (received === undefined) return;
        if (whole) {
          put(slot.name, text ? fromText(schema, received) : received);
        } else if (typeof received === 'string') {
          const value = readSlot(slot, received);
          if (value !== undefined) put(slot.name, text ? fromText(schema, value) : value);
        }
      };
    }
    if (Array.isArray(node)) {
      if (node.some((element) => JSON.stringify(element).includes('{{'))) {
        throw new RcpError(
          'RCP_INVALID_OPTIONS',
          `Tool "${tool}": a {{token}} inside a body array (${where}) cannot be read back; use a whole-token array param`,
        );
      }
      return () => {};
    }
    if (typeof node === 'object' && node !== null) {
      const keys = Object.keys(node);
      const readers = keys.map((key) => walk((node as Record<string, unknown>)[key], `${where}/${key}`, false));
      return (received, put, text) => {
        if (!isRecord(received)) return;
        const object = received;
        keys.forEach((key, index) => {
          if (Object.hasOwn(object, key)) readers[index]!(object[key], put, text);
        });
        if (!top) return;
        for (const key of Object.keys(object)) if (!keys.includes(key)) put(key, object[key]);
      };
    }
    return () => {};
  };
  return walk(template, '', true);
}
