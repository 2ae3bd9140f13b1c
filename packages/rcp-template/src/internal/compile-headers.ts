import { isHeaderValueChar, isHeaderValue } from 'rcp-internal';
import { isTokenChar } from 'rcp-internal';
import { isRecord } from 'rcp-internal';
import { parseIn, structureError } from './parse-in';
import { NONE } from './values';
import { isValidTemplate, splitTemplate } from './scan-template';
import { readValue, scalarText, valueError, type TemplateValues } from './values';

/** One header, compiled once. `constant` is set when the value has no tokens. */
export interface HeaderEntry {
  name: string;
  constant: string | undefined;
  texts: string[];
  names: string[];
  /** The name is `__proto__`: assign with defineProperty so it stays an own key. */
  protoKey: boolean;
}

/** Index of the first character RFC 9110 does not allow in a header value (controls, tab included, DEL, above U+00FF), or -1. */
function findUnsafeHeaderChar(text: string): number {
  for (let index = 0; index < text.length; index++) if (!isHeaderValueChar(text.charCodeAt(index))) return index;
  return -1;
}

/** Compiles the `headers` map. */
export function compileHeaders(headers: unknown, tokens: string[]): HeaderEntry[] {
  if (headers === undefined) return NONE;
  if (!isRecord(headers)) {
    throw structureError('headers', '', 0, 'headers must be an object of string templates');
  }
  const entries: HeaderEntry[] = [];
  for (const name of Object.keys(headers)) {
    if (name === '') throw structureError('header name', name, 0, 'a header name cannot be empty');
    for (let index = 0; index < name.length; index++) {
      if (!isTokenChar(name.charCodeAt(index))) {
        throw structureError(`header name "${name}"`, name, index, 'header names are RFC 9110 tokens and are never templated');
      }
    }
    const template = (headers as Record<string, unknown>)[name];
    if (typeof template !== 'string') {
      throw structureError(`header "${name}"`, String(template), 0, 'the value must be a string template');
    }
    const unsafe = findUnsafeHeaderChar(template);
    if (unsafe !== -1) {
      throw structureError(`header "${name}"`, template, unsafe, 'header values cannot contain control characters or characters above U+00FF');
    }
    if (template !== '' && !isHeaderValue(template.charAt(0) + template.charAt(template.length - 1))) {
      const at = isHeaderValue(template.charAt(0)) ? template.length - 1 : 0;
      throw structureError(`header "${name}"`, template, at, 'a header value cannot start or end with a space');
    }
    if (!isValidTemplate(template)) parseIn(template, `header "${name}"`); // throws the syntax error
    const { texts, names } = splitTemplate(template, 0, template.length);
    for (const token of names) if (!tokens.includes(token)) tokens.push(token);
    entries.push({
      name,
      constant: names.length === 0 ? template : undefined,
      texts,
      names,
      protoKey: name === '__proto__',
    });
  }
  return entries;
}

function headerText(value: unknown, name: string): string {
  const text = typeof value === 'string' ? value : scalarText(value, name, 'header');
  if (findUnsafeHeaderChar(text) !== -1) {
    throw valueError(name, 'header', 'the value contains a control character (CR, LF, NUL, ...) or a character above U+00FF');
  }
  return text;
}

/** Renders headers; an entry with a missing token is left out. */
export function renderHeaders(entries: HeaderEntry[], values: TemplateValues): Record<string, string> {
  const out: Record<string, string> = {};
  for (let index = 0; index < entries.length; index++) {
    const entry = entries[index] as HeaderEntry;
    let value = entry.constant;
    if (value === undefined) {
      const { texts, names } = entry;
      value = texts[0] as string;
      for (let at = 0; at < names.length; at++) {
        const name = names[at] as string;
        const raw = readValue(values, name);
        if (raw === undefined) {
          value = undefined;
          break;
        }
        value += headerText(raw, name) + (texts[at + 1] as string);
      }
      if (value === undefined) continue;
      if (value !== '' && !isHeaderValue(value.charAt(0) + value.charAt(value.length - 1))) {
        const edge = isHeaderValue(value.charAt(0)) ? names[names.length - 1] : names[0];
        throw valueError(edge as string, 'header', 'the header value would start or end with a space');
      }
    }
    if (entry.protoKey) {
      Object.defineProperty(out, entry.name, { value, enumerable: true, writable: true, configurable: true });
    } else {
      out[entry.name] = value;
    }
  }
  return out;
}
