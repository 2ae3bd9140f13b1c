import { isArray, isPlainObject } from './json-tree';
import { parseIn } from './parse-in';
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
  return { kind, value: undefined, texts: [], names: [], keys: [], children: [], protoKey: false };
}

/** Compiles a body JSON tree; string values are parsed as templates. */
export function compileBody(value: unknown, tokens: string[], pointer = ''): BodyNode {
  if (typeof value === 'string') {
    if (value.indexOf('{{') === -1) {
      const leaf = node(CONSTANT);
      leaf.value = value;
      return leaf;
    }
    const parsed = parseIn(value, `body at "${pointer}"`);
    const leaf = node(parsed.single === undefined ? INTERPOLATED : SINGLE);
    leaf.texts.push('');
    for (const part of parsed.parts) {
      if (part.kind === 'token') {
        leaf.names.push(part.name);
        leaf.texts.push('');
        if (!tokens.includes(part.name)) tokens.push(part.name);
      } else {
        leaf.texts[leaf.texts.length - 1] += part.text;
      }
    }
    return leaf;
  }
  if (isArray(value)) {
    const list = node(ARRAY);
    for (let index = 0; index < value.length; index++) {
      list.children.push(compileBody(value[index], tokens, `${pointer}/${index}`));
    }
    return list;
  }
  if (isPlainObject(value)) {
    const object = node(OBJECT);
    for (const key of Object.keys(value)) {
      object.keys.push(key);
      object.children.push(compileBody(value[key], tokens, `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`));
      if (key === '__proto__') object.protoKey = true;
    }
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
