/** `application/json` or an `application/…+json` type (`merge-patch+json`, `vnd.api+json`), parameters allowed. */
const JSON_TYPE = /^application\/(?:[A-Za-z0-9!#$&^_.+-]+\+)?json\s*(?:;|$)/i;
const PLAIN_JSON = /^application\/json\s*(?:;|$)/i;

/**
 * The JSON media type a request body is sent as, chosen from the types an operation accepts
 * (OpenAPI 3's `requestBody.content` keys, Swagger 2's `consumes`): `application/json` when
 * listed, else the first `+json` type. `contentType` is the header the tool must set for it —
 * the type as the document writes it — or undefined for `application/json`, which the client
 * sends by default.
 *
 * @example
 * ```ts
 * jsonMediaType(['application/merge-patch+json']); // { type: 'application/merge-patch+json', contentType: 'application/merge-patch+json' }
 * jsonMediaType(['application/xml', 'application/json']); // { type: 'application/json' }
 * jsonMediaType(['multipart/form-data']); // undefined
 * ```
 */
export function jsonMediaType(types: readonly string[]): { type: string; contentType?: string } | undefined {
  const plain = types.find((type) => PLAIN_JSON.test(type.trim()));
  if (plain !== undefined) return { type: plain };
  const other = types.find((type) => JSON_TYPE.test(type.trim()));
  return other === undefined ? undefined : { type: other, contentType: other.trim() };
}
