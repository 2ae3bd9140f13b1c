import { encodeUnreserved } from './internal/percent-encode';
import { RcpTemplateError } from './template-error';
import { isRecord } from 'rcp-internal';

function encode(text: string, field: string, position: 'body' | 'query'): string {
  const encoded = encodeUnreserved(text);
  if (encoded === undefined) {
    const what = position === 'body' ? 'Form field' : 'Query value';
    throw new RcpTemplateError('RCP_TEMPLATE_VALUE', `${what} "${field}": the text is not well-formed Unicode (lone surrogate)`, { position });
  }
  return encoded;
}

function scalarText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/**
 * Encodes a rendered body (an object) as `application/x-www-form-urlencoded`, RCP 0.2's form
 * body: every name and value percent-encoded with only RFC 3986 unreserved characters left as
 * they are (a space is `%20`, `&`, `=`, `[` and `]` are encoded), so a value can never add a
 * field. Nesting is written with brackets, by the encoder only: an object `{ a: { b: 1 } }` is
 * `a%5Bb%5D=1` (`a[b]=1`, Stripe's form); an array of scalars repeats its name
 * (`to=x&to=y`, Twilio's form); an object or array inside an array is indexed
 * (`items[0][price]=p`). `null` is no field; an empty object or array is no field. An object key
 * holding `[` or `]` is `RCP_TEMPLATE_VALUE` (it could pass for nesting).
 *
 * @example
 * ```ts
 * import { encodeFormBody } from 'rcp-template';
 *
 * encodeFormBody({ amount: 500, metadata: { order: 'a&b=c' }, expand: ['x', 'y'] });
 * // 'amount=500&metadata%5Border%5D=a%26b%3Dc&expand=x&expand=y'
 * ```
 */
export function encodeFormBody(body: unknown): string {
  if (!isRecord(body)) {
    throw new RcpTemplateError('RCP_TEMPLATE_VALUE', 'A form body must be an object of fields', { position: 'body' });
  }
  const out: string[] = [];
  for (const key of Object.keys(body)) bracketFields(encode(key, key, 'body'), (body as Record<string, unknown>)[key], key, 'body', out);
  return out.join('&');
}

/**
 * The bracket form of one named value, appended to `out` as `name=value` pieces: a scalar is one field, an object
 * nests its keys in brackets, an array of scalars repeats the name, an array of objects or arrays is indexed; `null`
 * and empty objects or arrays write nothing. The rule of form bodies, and of RCP 0.4's `deepObject` query values.
 */
export function bracketFields(name: string, value: unknown, top: string, position: 'body' | 'query', out: string[]): void {
  const what = position === 'body' ? 'Form field' : 'Query value';
  const field = (path: string, current: unknown, depth: number): void => {
    if (depth > 64) throw new RcpTemplateError('RCP_TEMPLATE_VALUE', `${what} "${top}" is nested too deeply`, { position });
    if (current === null || current === undefined) return;
    const text = scalarText(current);
    if (text !== undefined) {
      out.push(`${path}=${encode(text, top, position)}`);
      return;
    }
    if (Array.isArray(current)) {
      current.forEach((element, index) => {
        if (scalarText(element) !== undefined || element === null) field(path, element, depth + 1);
        else field(`${path}%5B${index}%5D`, element, depth + 1);
      });
      return;
    }
    if (typeof current === 'object') {
      for (const key of Object.keys(current)) {
        if (key.includes('[') || key.includes(']')) {
          throw new RcpTemplateError('RCP_TEMPLATE_VALUE', `${what} "${top}": an object key inside its value contains "[" or "]"`, { position });
        }
        field(`${path}%5B${encode(key, top, position)}%5D`, (current as Record<string, unknown>)[key], depth + 1);
      }
      return;
    }
    throw new RcpTemplateError('RCP_TEMPLATE_VALUE', `${what} "${top}" holds a value that is not JSON`, { position });
  };
  field(name, value, 0);
}
