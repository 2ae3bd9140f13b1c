import { encodeUnreserved } from './internal/percent-encode';
import { RcpTemplateError } from './template-error';
import { isRecord } from 'rcp-internal';

function encode(text: string, field: string): string {
  const encoded = encodeUnreserved(text);
  if (encoded === undefined) {
    throw new RcpTemplateError('RCP_TEMPLATE_VALUE', `Form field "${field}": the text is not well-formed Unicode (lone surrogate)`, { position: 'body' });
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
  const field = (name: string, value: unknown, top: string, depth: number): void => {
    if (depth > 64) throw new RcpTemplateError('RCP_TEMPLATE_VALUE', `Form field "${top}" is nested too deeply`, { position: 'body' });
    if (value === null || value === undefined) return;
    const text = scalarText(value);
    if (text !== undefined) {
      out.push(`${name}=${encode(text, top)}`);
      return;
    }
    if (Array.isArray(value)) {
      value.forEach((element, index) => {
        if (scalarText(element) !== undefined || element === null) field(name, element, top, depth + 1);
        else field(`${name}%5B${index}%5D`, element, top, depth + 1);
      });
      return;
    }
    if (typeof value === 'object') {
      for (const key of Object.keys(value)) {
        if (key.includes('[') || key.includes(']')) {
          throw new RcpTemplateError('RCP_TEMPLATE_VALUE', `Form field "${top}": an object key inside its value contains "[" or "]"`, {
            position: 'body',
          });
        }
        field(`${name}%5B${encode(key, top)}%5D`, (value as Record<string, unknown>)[key], top, depth + 1);
      }
      return;
    }
    throw new RcpTemplateError('RCP_TEMPLATE_VALUE', `Form field "${top}" holds a value that is not JSON`, { position: 'body' });
  };
  for (const key of Object.keys(body)) field(encode(key, key), (body as Record<string, unknown>)[key], key, 0);
  return out.join('&');
}
