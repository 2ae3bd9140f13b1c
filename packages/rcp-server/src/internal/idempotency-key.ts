/**
 * The idempotency key as the IETF httpapi draft writes it: an RFC 8941 Item whose bare item is a
 * String (`Idempotency-Key: "8e03978e-40d5-43e8-bc93-6894a57f9324"`). Parameters are allowed by
 * the Item grammar and ignored (the draft defines none); anything else — a bare token, two field
 * lines, a string with a control character — is not a key.
 */

/** An sf-string's content: printable ASCII, `"` and `\` escaped with `\`. */
const STRING = String.raw`"((?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\["\\])*)"`;
/** One parameter: a key, optionally `=` a bare item (string, token, number, boolean or byte sequence). */
const PARAMETER = String.raw`;\x20*[a-z*][a-z0-9_.*-]*(?:=(?:"(?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\["\\])*"|[A-Za-z*][!#$%&'*+.^_${'`'}|~0-9A-Za-z:/-]*|-?\d{1,15}(?:\.\d{1,3})?|\?[01]|:[A-Za-z0-9+/=]*:))?`;
const ITEM = new RegExp(String.raw`^\x20*${STRING}(?:${PARAMETER})*\x20*$`);

/** The shortest key taken: a random key that short is still not guessable (a UUID has 36 characters). */
export const MIN_KEY_LENGTH = 16;
/** The longest key taken (Stripe's limit). */
export const MAX_KEY_LENGTH = 255;

/**
 * The key a header value carries, or what is wrong with it (a phrase for a problem's detail,
 * never quoting the value).
 */
export function parseIdempotencyKey(value: string | null): { ok: true; key: string } | { ok: false; problem: string } {
  if (value === null) return { ok: false, problem: 'is required for this tool' };
  const match = ITEM.exec(value);
  if (match === null) return { ok: false, problem: 'must be one Structured Fields string, in double quotes (RFC 8941)' };
  const key = match[1]!.replace(/\\(["\\])/g, '$1');
  if (key.length < MIN_KEY_LENGTH || key.length > MAX_KEY_LENGTH) {
    return { ok: false, problem: `must hold ${MIN_KEY_LENGTH} to ${MAX_KEY_LENGTH} characters (a random value such as a UUID)` };
  }
  return { ok: true, key };
}
