import { escapePointerToken } from 'rcp-internal';
import { isArray, isJsonObjectNode } from './json-tree';
import { parseIn } from './parse-in';
import { NONE } from './values';
import { isValidTemplate, splitTemplate } from './scan-template';
import { describeKind, missingError, readValue, scalarText, valueError, type TemplateValues } from './values';

const CONSTANT = 0;
const SINGLE = 1;
const INTERPOLATED = 2;
const ARRAY = 3;
const OBJECT = 4;

/** A node of the compiled body tree. All nodes share one shape so rendering stays monomorphic. */
export interface BodyNode {
  kind: number;
  /** CONSTANT: the value. */
  value: unknown;
  /** SINGLE / INTERPOLATED: literal pieces and token names, interleaved. */
  texts: string[];
  names: string[];
  /** OBJECT: keys and child nodes; ARRAY: child nodes. */
  keys: string[];
  children: BodyNode[];
  /** OBJECT: one of the keys is `__proto__` (assigned with defineProperty). */
  protoKey: boolean;
}

/** Returned by {@link renderNode} for a value that must be left out. */
const MISSING: unique symbol = Symbol('missing');

function node(kind: number): BodyNode {
  return { kind, value: undefined, texts: NONE, names: NONE, keys: NONE, children: NONE, protoKey: false };
}

/** The JSON Pointer of the value at `path` (keys and indexes from the root), for messages. */
function pointerOf(path: readonly (string | number)[]): string {
  let pointer = '';
  for (const key of path) {
    pointer += `/${escapePointerToken(key)}`;
  }
  return pointer;
}

/** Compiles a body JSON tree; string values are parsed as templates. */
export function compileBody(value: unknown, tokens: string[]): BodyNode {
  return compileNode(value, tokens, []);
}

/** `path` holds the keys from the root to `value`; the pointer is only built for an error message. */
function compileNode(value: unknown, tokens: string[], path: (string | number)[]): BodyNode {
  if (typeof value === 'string') {
    if (value.indexOf('{{') === -1) {
      const leaf = node(CONSTANT);
      leaf.value = value;
      return leaf;
    }
    if (!isValidTemplate(value)) parseIn(value, `body at "${pointerOf(path)}"`); // throws the syntax error
    const { texts, names } = splitTemplate(value, 0, value.length);
    const single = names.length === 1 && texts[0] === '' && texts[1] === '';
    const leaf = node(single ? SINGLE : INTERPOLATED);
    leaf.texts = texts;
    leaf.names = names;
    for (const name of names) if (!tokens.includes(name)) tokens.push(name);
    return leaf;
  }
  if (isArray(value)) {
    const list = node(ARRAY);
    const children = new Array<BodyNode>(value.length);
    for (let index = 0; index < value.length; index++) {
      path.push(index);
      children[index] = compileNode(value[index], tokens, path);
      path.pop();
    }
    list.children = children;
    return list;
  }
  if (isJsonObjectNode(value)) {
    const object = node(OBJECT);
    const keys = Object.keys(value);
    const children = new Array<BodyNode>(keys.length);
    for (let index = 0; index < keys.length; index++) {
      const key = keys[index] as string;
      path.push(key);
      children[index] = compileNode(value[key], tokens, path);
      path.pop();
      if (key === '__proto__') object.protoKey = true;
    }
    object.keys = keys;
    object.children = children;
    return object;
  }
  const leaf = node(CONSTANT);
  leaf.value = value;
  return leaf;
}

function typedValue(value: unknown, name: string): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
    case 'object':
      return value;
    case 'number':
      if (Number.isFinite(value)) return value;
      break;
    default:
      break;
  }
  throw valueError(name, 'body', `${describeKind(value)} is not a JSON value`);
}

function renderNode(current: BodyNode, values: TemplateValues): unknown {
  switch (current.kind) {
    case CONSTANT:
      return current.value;
    case SINGLE: {
      const name = current.names[0] as string;
      const value = readValue(values, name);
      return value === undefined ? MISSING : typedValue(value, name);
    }
    case INTERPOLATED: {
      const { texts, names } = current;
      let out = texts[0] as string;
      for (let index = 0; index < names.length; index++) {
        const name = names[index] as string;
        const value = readValue(values, name);
        if (value === undefined) return MISSING;
        out += scalarText(value, name, 'body') + (texts[index + 1] as string);
      }
      return out;
    }
    case ARRAY: {
      const children = current.children;
      const out: unknown[] = [];
      for (let index = 0; index < children.length; index++) {
        const rendered = renderNode(children[index] as BodyNode, values);
        if (rendered !== MISSING) out.push(rendered);
      }
      return out;
    }
    default: {
      const { keys, children } = current;
      const out: Record<string, unknown> = {};
      for (let index = 0; index < children.length; index++) {
        const rendered = renderNode(children[index] as BodyNode, values);
        if (rendered === MISSING) continue;
        const key = keys[index] as string;
        if (current.protoKey && key === '__proto__') {
          Object.defineProperty(out, key, { value: rendered, enumerable: true, writable: true, configurable: true });
        } else {
          out[key] = rendered;
        }
      }
      return out;
    }
  }
}

/** Renders the body. A root that is missing throws RCP_TEMPLATE_MISSING. */
export function renderBody(root: BodyNode, values: TemplateValues): unknown {
  const rendered = renderNode(root, values);
  if (rendered !== MISSING) return rendered;
  const name = root.names.find((candidate) => readValue(values, candidate) === undefined) ?? (root.names[0] as string);
  throw missingError(name, 'body', 'the whole body is this token, so it cannot be left out');
}
