import { describe, expect, it } from 'vitest';
import { REDACTED, createRedactor, redact, redactError, withoutCutSecrets } from './redact';

const TOKEN = 'tok_live/ABC+def';
const NAME = 'Zoë-42';

/** What encoders write for a secret: PHP's json_encode (escaped `/`), Python's json.dumps (`\uXXXX`), twice over. */
const phpJson = (text: string): string => JSON.stringify(text).slice(1, -1).replaceAll('/', '\\/');
const pythonJson = (text: string, upper = false): string =>
  JSON.stringify(text)
    .slice(1, -1)
    .split('')
    .map((char) => {
      const code = char.charCodeAt(0);
      if (code < 0x80) return char;
      const hex = code.toString(16).padStart(4, '0');
      return `\\u${upper ? hex.toUpperCase() : hex}`;
    })
    .join('');
const everyUnitEscaped = (text: string): string =>
  [...text].map((char) => [...char].map((unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')).join('');
const twice = (encoded: string): string => JSON.stringify(encoded).slice(1, -1);

describe('createRedactor', () => {
  const cases: [string, string][] = [
    ['as written', TOKEN],
    ['JSON-escaped with \\/ (PHP json_encode)', phpJson(TOKEN)],
    ['every character as \\uXXXX', everyUnitEscaped(TOKEN)],
    ['\\u escapes in upper-case hex', everyUnitEscaped(TOKEN).toUpperCase().replaceAll('\\U', '\\u')],
    ['escaped twice (a JSON string inside a JSON string)', twice(phpJson(TOKEN))],
    ['every character escaped, then escaped again', twice(everyUnitEscaped(TOKEN))],
    ['percent-encoded', encodeURIComponent(TOKEN)],
    ['lower-cased (a host name)', TOKEN.toLowerCase()],
  ];
  it.each(cases)('finds the credential %s', (_what, form) => {
    const redactor = createRedactor([TOKEN])!;
    const text = `{"echo":"${form}","ok":true}`;
    expect(redactor.test(text)).toBe(true);
    expect(redactor.redact(text)).toBe(`{"echo":"${REDACTED}","ok":true}`);
  });

  it('finds a non-ASCII resolver value as Python writes it, in either case, and an astral character as a surrogate pair', () => {
    const redactor = createRedactor([NAME, 'ok😀'])!;
    expect(redactor.redact(`"${pythonJson(NAME)}"`)).toBe(`"${REDACTED}"`);
    expect(redactor.redact(`"${pythonJson(NAME, true)}"`)).toBe(`"${REDACTED}"`);
    expect(pythonJson('ok😀')).toBe('ok\\ud83d\\ude00');
    expect(redactor.redact(`[${pythonJson('ok😀')}, ${pythonJson('ok😀', true)}, ok😀]`)).toBe(`[${REDACTED}, ${REDACTED}, ${REDACTED}]`);
  });

  it('leaves text without a secret untouched, and redacts the longer of two overlapping secrets whole', () => {
    const redactor = createRedactor(['abc', 'abcdef'])!;
    expect(redactor.redact('a\\/b %20 abx')).toBe('a\\/b %20 abx');
    expect(redactor.redact('xabcdefx abc')).toBe(`x${REDACTED}x ${REDACTED}`);
  });

  it('redacts parsed data, keys included, copying only what changed', () => {
    const redactor = createRedactor([TOKEN])!;
    const untouched = { a: [1, 'two', { three: null }] };
    expect(redactor.redactData(untouched)).toBe(untouched);
    const data = JSON.parse(`{"list":[{"token":"${phpJson(TOKEN)}"},"x"],"${TOKEN}":1,"__proto__":{"k":"${TOKEN}"}}`) as object;
    const redacted = redactor.redactData(data) as Record<string, unknown>;
    expect(JSON.stringify(redacted)).not.toContain('ABC+def');
    expect(redacted).toEqual({ list: [{ token: REDACTED }, 'x'], [REDACTED]: 1, ['__proto__']: { k: REDACTED } });
    expect(Object.getPrototypeOf(redacted)).toBe(Object.prototype);
    expect(JSON.stringify(data)).toContain('ABC+def'); // the input is not changed
  });

  it('no secrets: no redactor; redact() passes text through', () => {
    expect(createRedactor([])).toBeUndefined();
    expect(createRedactor(['', ''])).toBeUndefined();
    expect(redact('text', undefined)).toBe('text');
  });

  it('redactError covers the message, the stack and the cause chain, in every form', () => {
    const error = new Error(`failed for ${phpJson(TOKEN)}`, { cause: new Error(`inner ${everyUnitEscaped(TOKEN)}`) });
    redactError(error, [TOKEN]);
    expect(error.message).toBe(`failed for ${REDACTED}`);
    expect(String(error.stack)).not.toContain('ABC');
    expect((error.cause as Error).message).toBe(`inner ${REDACTED}`);
  });
});

describe('issue 38: deeper escapes, numbers, cut texts', () => {
  it.each([1, 2, 3, 4])('finds a credential escaped %i level(s) deep, PHP-style and every unit as \\uXXXX', (levels) => {
    // A backslash is written as `\\` by every encoder (never `\u005c`): only the PHP form has one.
    const secret = 'tok/"live"\\Zoë';
    const unitSecret = 'tok/"live"Zoë';
    let php = secret;
    let units = everyUnitEscaped(unitSecret);
    for (let level = 0; level < levels; level++) php = phpJson(php);
    for (let level = 1; level < levels; level++) units = twice(units);
    const redactor = createRedactor([secret, unitSecret])!;
    expect(redactor.redact(`[${php}]`)).toBe(`[${REDACTED}]`);
    expect(redactor.redact(`[${units}]`)).toBe(`[${REDACTED}]`);
  });

  it("literal backslashes before a secret's first escape (a run of any length) do not hide it", () => {
    const redactor = createRedactor(['tok/live'])!;
    expect(redactor.redact(`"${'\\'.repeat(41)}u0074ok\\/live"`)).toBe(`"${REDACTED}"`);
    expect(redactor.redact(`"${'\\'.repeat(40)}tok\\/live"`)).toBe(`"${'\\'.repeat(40)}${REDACTED}"`);
  });

  it('compares numbers as text: a numeric secret echoed as a number, or rounded past 2^53, is redacted; other numbers stay', () => {
    const redactor = createRedactor(['8675309123', '12345678901234567890'])!;
    const data = JSON.parse('{"a":8675309123,"b":[12345678901234567890],"c":42,"d":8675309124,"e":"8675309123"}') as unknown;
    expect(redactor.redactData(data)).toEqual({ a: REDACTED, b: [REDACTED], c: 42, d: 8675309124, e: REDACTED });
    const untouched = { n: 7 };
    expect(createRedactor(['tok_live'])!.redactData(untouched)).toBe(untouched);
  });

  it('withoutCutSecrets drops the end a cut secret could be in, in its longest form (16 characters per character)', () => {
    const secret = 'tok_abcdef';
    expect(withoutCutSecrets(`${'x'.repeat(200)}tok_ab`, [secret])).toBe('x'.repeat(200 + 6 - 16 * secret.length));
    expect(withoutCutSecrets('short tok_ab', [secret])).toBe('');
    expect(withoutCutSecrets('no secrets', [])).toBe('no secrets');
    // The longest secret decides.
    expect(withoutCutSecrets('y'.repeat(1_000), ['ab', secret])).toHaveLength(1_000 - 160);
  });
});

describe('createRedactor against hostile input', () => {
  it('a secret made of backslashes against a body of backslashes stays linear (no 4^n backtracking)', () => {
    const redactor = createRedactor([`${'\\'.repeat(16)}X`])!;
    const body = '\\'.repeat(20_000);
    // The old pattern never finished here (the test's time limit ends it): no duration is asserted.
    expect(redactor.test(body)).toBe(false);
    expect(redactor.redact(`${body}${'\\'.repeat(16)}X`)).toContain(REDACTED);
  });
});
