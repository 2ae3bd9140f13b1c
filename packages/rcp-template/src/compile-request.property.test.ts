import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileRequest } from './compile-request';
import { parseTemplate } from './parse-template';
import { RcpTemplateError } from './template-error';

/** Arbitrary strings: ASCII-heavy, full Unicode graphemes, and raw code units (lone surrogates included). */
const anyString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: 'binary' }),
  fc.string({ unit: fc.constantFrom('/', '.', '%', '2', 'e', 'E', '?', '#', '&', '=', '+', ' ', '\\', '@', ':', 'a') }),
  fc.constantFrom('', '.', '..', '...', '%2e%2e', '%2E', '../admin', '..\\..', '/', '//evil.example', '?a=b', '#x', '\u0000'),
);

function isWellFormed(value: string): boolean {
  try {
    encodeURIComponent(value);
    return true;
  } catch {
    return false;
  }
}

function renderOutcome(run: () => string): { url: string } | { error: RcpTemplateError } {
  try {
    return { url: run() };
  } catch (error) {
    if (!(error instanceof RcpTemplateError)) throw error;
    return { error };
  }
}

describe('compileRequest properties', () => {
  const ORIGIN = 'https://api.example.com';
  const absolute = compileRequest({ method: 'GET', url: `${ORIGIN}/v1/users/{{id}}/items/{{item}}` });
  const relative = compileRequest({ method: 'GET', url: '/v1/{{id}}/x{{item}}' }, { baseUrl: `${ORIGIN}/rcp.json` });

  it('keeps the origin and the number of path segments; each segment decodes to its value', () => {
    fc.assert(
      fc.property(anyString, anyString, (id, item) => {
        const outcome = renderOutcome(() => absolute.render({ id, item }).url);
        const refusable = (value: string) => value === '' || value === '.' || value === '..' || !isWellFormed(value);
        if ('error' in outcome) {
          expect(outcome.error.code).toBe('RCP_TEMPLATE_VALUE');
          expect(outcome.error.position).toBe('path');
          expect(refusable(id) || refusable(item)).toBe(true);
          return;
        }
        expect(refusable(id) || refusable(item)).toBe(false);
        const url = new URL(outcome.url);
        expect(url.origin).toBe(ORIGIN);
        expect(url.search).toBe('');
        expect(url.hash).toBe('');
        const segments = url.pathname.split('/');
        expect(segments).toHaveLength(6);
        expect(decodeURIComponent(segments[3] as string)).toBe(id);
        expect(decodeURIComponent(segments[5] as string)).toBe(item);
        expect(url.href).toBe(outcome.url);
      }),
      { numRuns: 500 },
    );
  });

  it('keeps the origin of a relative template resolved against baseUrl', () => {
    fc.assert(
      fc.property(anyString, anyString, (id, item) => {
        const outcome = renderOutcome(() => relative.render({ id, item }).url);
        if ('error' in outcome) {
          expect(outcome.error.code).toBe('RCP_TEMPLATE_VALUE');
          return;
        }
        const url = new URL(outcome.url);
        expect(url.origin).toBe(ORIGIN);
        expect(url.pathname.split('/')).toHaveLength(4);
        expect(decodeURIComponent(url.pathname.split('/')[3] as string)).toBe(`x${item}`);
      }),
      { numRuns: 300 },
    );
  });

  it('never throws anything but RcpTemplateError for any value type, and keeps the origin', () => {
    fc.assert(
      fc.property(fc.anything({ withBigInt: true, withNullPrototype: true }), fc.anything(), (id, item) => {
        const outcome = renderOutcome(() => absolute.render({ id, item }).url);
        if ('error' in outcome) {
          expect(['RCP_TEMPLATE_VALUE', 'RCP_TEMPLATE_MISSING']).toContain(outcome.error.code);
          return;
        }
        expect(new URL(outcome.url).origin).toBe(ORIGIN);
      }),
      { numRuns: 300 },
    );
  });

  it('produces exactly the declared query keys; values decode back', () => {
    const compiled = compileRequest({
      method: 'GET',
      url: `${ORIGIN}/search?fixed=1&a={{a}}`,
      queryParams: { q: '{{q}}', 'x y': 'pre-{{b}}', tag: '{{tags}}' },
    });
    fc.assert(
      fc.property(anyString, anyString, anyString, fc.array(anyString, { maxLength: 4 }), (a, q, b, tags) => {
        const outcome = renderOutcome(() => compiled.render({ a, q, b, tags }).url);
        if ('error' in outcome) {
          expect(outcome.error.code).toBe('RCP_TEMPLATE_VALUE');
          expect([a, q, b, ...tags].some((value) => !isWellFormed(value))).toBe(true);
          return;
        }
        const url = new URL(outcome.url);
        expect(url.origin).toBe(ORIGIN);
        expect(url.pathname).toBe('/search');
        expect(url.hash).toBe('');
        const entries = [...url.searchParams];
        expect(entries.map(([key]) => key)).toEqual(['fixed', 'a', 'q', 'x y', ...tags.map(() => 'tag')]);
        expect(entries.map(([, value]) => value)).toEqual(['1', a, q, `pre-${b}`, ...tags]);
      }),
      { numRuns: 500 },
    );
  });

  it('keeps arbitrary literal query keys intact', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ unit: 'grapheme', minLength: 1 }), { maxLength: 5 }), anyString, (keys, value) => {
        fc.pre(isWellFormed(value));
        const queryParams: Record<string, string> = {};
        for (const key of keys) {
          Object.defineProperty(queryParams, key, { value: '{{v}}', enumerable: true, writable: true, configurable: true });
        }
        const url = new URL(compileRequest({ method: 'GET', url: `${ORIGIN}/`, queryParams }).render({ v: value }).url);
        expect(url.origin).toBe(ORIGIN);
        expect([...url.searchParams]).toEqual(keys.map((key) => [key, value]));
      }),
      { numRuns: 200 },
    );
  });

  it('renders header values that the Fetch API accepts, or refuses them', () => {
    const compiled = compileRequest({ method: 'GET', url: '/x', headers: { 'X-Value': 'v={{v}}' } });
    fc.assert(
      fc.property(anyString, (value) => {
        let headers: Record<string, string>;
        try {
          headers = compiled.render({ v: value }).headers;
        } catch (error) {
          expect(error).toBeInstanceOf(RcpTemplateError);
          expect((error as RcpTemplateError).code).toBe('RCP_TEMPLATE_VALUE');
          // eslint-disable-next-line no-control-regex
          // Refused exactly for what the rule keeps out: controls (tab too, M7.3c), DEL,
          // above U+00FF, or a space at the end (the value starts with "v=").
          expect(/[\u0000-\u001f\u007f]|[^\u0000-\u00ff]| $/u.test(value) || !isWellFormed(value)).toBe(true);
          return;
        }
        expect(headers['X-Value']).toBe(`v=${value}`);
        // What fetch sends is what was checked: nothing trimmed, nothing refused.
        expect(new Headers(headers).get('X-Value')).toBe(`v=${value}`);
      }),
      { numRuns: 300 },
    );
  });

  it('never lets a body value add structure', () => {
    const compiled = compileRequest({ method: 'POST', url: '/x', body: { a: '{{a}}', text: 'say {{b}}', list: ['{{b}}'] } });
    fc.assert(
      fc.property(fc.jsonValue(), anyString, (a, b) => {
        const body = compiled.render({ a, b }).body as Record<string, unknown>;
        const reparsed = JSON.parse(JSON.stringify(body)) as Record<string, unknown>;
        expect(Object.keys(reparsed)).toEqual(a === null ? ['text', 'list'] : ['a', 'text', 'list']);
        expect(reparsed.text).toBe(JSON.parse(JSON.stringify(`say ${b}`)));
        expect(reparsed.list).toEqual([JSON.parse(JSON.stringify(b))]);
      }),
      { numRuns: 300 },
    );
  });
});

describe('parseTemplate properties', () => {
  const templateText = fc.oneof(
    fc.string({ unit: fc.constantFrom('{', '}', '{{', '}}', 'a', 'Z', '_', '1', ' ', '+', '|', '-', 'é') }),
    fc.string({ unit: 'grapheme' }),
    fc.string({ unit: 'binary' }),
  );

  it('never fails with anything but RCP_TEMPLATE_SYNTAX, and round-trips the text when valid', () => {
    fc.assert(
      fc.property(templateText, (text) => {
        let parsed: ReturnType<typeof parseTemplate>;
        try {
          parsed = parseTemplate(text);
        } catch (error) {
          expect(error).toBeInstanceOf(RcpTemplateError);
          const syntax = error as RcpTemplateError;
          expect(syntax.code).toBe('RCP_TEMPLATE_SYNTAX');
          expect(syntax.template).toBe(text);
          expect(syntax.offset).toBeGreaterThanOrEqual(0);
          expect(syntax.offset).toBeLessThan(text.length);
          expect(text).toContain('{{');
          return;
        }
        const rebuilt = parsed.parts.map((part) => (part.kind === 'text' ? part.text : `{{${part.name}}}`)).join('');
        expect(rebuilt).toBe(text);
        for (const part of parsed.parts) {
          if (part.kind === 'token') {
            expect(part.name).toMatch(/^[A-Za-z_][A-Za-z0-9_]*$/);
            expect(text.startsWith(`{{${part.name}}}`, part.offset)).toBe(true);
          } else {
            expect(part.text).not.toContain('{{');
          }
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('never fails compileRequest with anything but RcpTemplateError for arbitrary URL text', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.string({ unit: 'binary' }),
          fc.string().map((s) => `https://a.example.com/${s}`),
          fc.string().map((s) => `/${s}`),
          fc.webUrl({ withQueryParameters: true, withFragments: true }),
        ),
        (url) => {
          let compiled: ReturnType<typeof compileRequest>;
          try {
            compiled = compileRequest({ method: 'GET', url });
          } catch (error) {
            expect(error).toBeInstanceOf(RcpTemplateError);
            expect((error as RcpTemplateError).code).toBe('RCP_TEMPLATE_SYNTAX');
            return;
          }
          const values: Record<string, unknown> = {};
          for (const name of compiled.tokens) values[name] = 'v';
          const rendered = compiled.render(values).url;
          if (compiled.origin !== undefined) expect(new URL(rendered).origin).toBe(compiled.origin);
          else expect(rendered.startsWith('/') && !rendered.startsWith('//')).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });
});
