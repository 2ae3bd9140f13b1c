import { isRcpError } from 'rcp-errors';
import { startTestServer } from 'rcp-test-utils';
import { describe, expect, it } from 'vitest';
import { compileRequest, type RequestTemplate } from './compile-request';
import { RcpTemplateError } from './template-error';

function failure(run: () => unknown): RcpTemplateError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(RcpTemplateError);
    return error as RcpTemplateError;
  }
  throw new Error('expected a failure');
}

function get(url: string, extra: Partial<RequestTemplate> = {}) {
  return compileRequest({ method: 'GET', url, ...extra });
}

function urlOf(url: string, values: Record<string, unknown>, extra: Partial<RequestTemplate> = {}): string {
  return get(url, extra).render(values).url;
}

describe('compileRequest: the URL template', () => {
  it('exposes tokens, path tokens and origin', () => {
    const compiled = compileRequest({
      method: 'POST',
      url: 'https://API.Example.com:443/users/{{userId}}/items?mode={{mode}}',
      queryParams: { q: '{{query}}' },
      headers: { 'X-A': '{{tenant}}' },
      body: { id: '{{userId}}', note: '{{note}}' },
    });
    expect(compiled.tokens).toEqual(['userId', 'mode', 'query', 'tenant', 'note']);
    expect(compiled.pathTokens).toEqual(['userId']);
    expect(compiled.origin).toBe('https://api.example.com');
    expect(Object.isFrozen(compiled)).toBe(true);
    expect(Object.isFrozen(compiled.tokens)).toBe(true);
  });

  it('renders method and a normalised absolute URL', () => {
    expect(get('https://a.example.com').render({})).toEqual({ method: 'GET', url: 'https://a.example.com/', headers: {} });
    expect(urlOf('http://a.example.com:8080/x/{{id}}', { id: 7 })).toBe('http://a.example.com:8080/x/7');
    expect(urlOf('https://a.example.com?x=1', {})).toBe('https://a.example.com/?x=1');
  });

  it('resolves a relative URL against the origin of baseUrl', () => {
    const compiled = compileRequest({ method: 'GET', url: '/items/{{id}}?q=1' }, { baseUrl: 'https://api.example.com/.well-known/rcp.json?x=1' });
    expect(compiled.origin).toBe('https://api.example.com');
    expect(compiled.render({ id: 'a b' }).url).toBe('https://api.example.com/items/a%20b?q=1');
  });

  it('keeps a relative URL relative without baseUrl, and ignores baseUrl for an absolute URL', () => {
    const relative = get('/items/{{id}}');
    expect(relative.origin).toBeUndefined();
    expect(relative.render({ id: 1 }).url).toBe('/items/1');
    const absolute = compileRequest({ method: 'GET', url: 'https://a.example.com/x' }, { baseUrl: 'https://b.example.com' });
    expect(absolute.origin).toBe('https://a.example.com');
    expect(absolute.render({}).url).toBe('https://a.example.com/x');
  });

  it('refuses an invalid baseUrl with RCP_INVALID_OPTIONS', () => {
    for (const baseUrl of ['not a url', 'ftp://a.example.com/', 'file:///etc/passwd']) {
      try {
        compileRequest({ method: 'GET', url: '/x' }, { baseUrl });
        expect.unreachable();
      } catch (error) {
        expect(isRcpError(error, 'RCP_INVALID_OPTIONS')).toBe(true);
      }
    }
  });

  it.each([
    ['https://{{host}}/x', 8],
    ['https://{{host}}.example.com/x', 8],
    ['https://api.{{env}}.example.com/x', 12],
    ['https://a.example.com:{{port}}/', 22],
    ['https://{{user}}@a.example.com/', 8],
    ['https://u:{{password}}@a.example.com/', 10],
    ['https://a.example.com{{path}}', 21],
  ])('refuses a token before the path: %s (offset %i)', (url, offset) => {
    const error = failure(() => get(url));
    expect(error.code).toBe('RCP_TEMPLATE_SYNTAX');
    expect(error.offset).toBe(offset);
    expect(error.template).toBe(url);
  });

  it('refuses literal userinfo (fetch refuses URLs with credentials)', () => {
    const error = failure(() => get('https://user:pass@a.example.com/x'));
    expect(error.code).toBe('RCP_TEMPLATE_SYNTAX');
    expect(error.offset).toBe(17);
  });

  it.each([
    ['https://a.example.com/x#frag', 23],
    ['/x/{{id}}#{{frag}}', 9],
    ['/x?y=1#', 6],
  ])('refuses a fragment: %s', (url, offset) => {
    const error = failure(() => get(url));
    expect(error.code).toBe('RCP_TEMPLATE_SYNTAX');
    expect(error.offset).toBe(offset);
  });

  it.each([
    ['//evil.example.com/x', 0],
    ['/\\evil.example.com/x', 1],
    ['\\\\evil.example.com/x', 0],
    ['https:\\\\evil.example.com/x', 6],
    ['https://a.example.com\\@evil.example.com/', 21],
    ['items/{{id}}', 0],
    ['ftp://a.example.com/x', 0],
    ['javascript:alert(1)', 0],
    ['', 0],
    [' https://a.example.com/', 0],
    ['https://a.example.com/a b', 23],
    ['https://a.example.com/a\nb', 23],
    ['http{{s}}://a.example.com/', 0],
    ['https://', 8],
    ['https:///x', 8],
    ['https://a.example.com:99999/', 8],
  ])('refuses the URL %j with RCP_TEMPLATE_SYNTAX', (url, offset) => {
    const error = failure(() => get(url));
    expect(error.code).toBe('RCP_TEMPLATE_SYNTAX');
    expect(error.offset).toBe(offset);
  });

  it('reports a token grammar error with its offset in the URL', () => {
    const error = failure(() => get('https://a.example.com/x/{{ id }}'));
    expect(error.code).toBe('RCP_TEMPLATE_SYNTAX');
    expect(error.offset).toBe(26);
    expect(error.message).toContain('url');
  });

  it('refuses a non-string url and a bad method', () => {
    expect(failure(() => compileRequest({ method: 'GET', url: 5 as unknown as string })).code).toBe('RCP_TEMPLATE_SYNTAX');
    expect(failure(() => compileRequest({ method: 'G ET', url: '/x' })).code).toBe('RCP_TEMPLATE_SYNTAX');
    expect(failure(() => compileRequest({ method: '', url: '/x' })).code).toBe('RCP_TEMPLATE_SYNTAX');
    expect(failure(() => compileRequest(null as unknown as RequestTemplate)).code).toBe('RCP_TEMPLATE_SYNTAX');
  });

  it('normalises literal URL text that is not valid as written', () => {
    expect(urlOf('/a{b}/caf\u00e9/%zz/%2f/x', {})).toBe('/a%7Bb%7D/caf%C3%A9/%25zz/%2F/x');
    expect(urlOf('/x?q=a|b&c=%7e', {})).toBe('/x?q=a%7Cb&c=%7E');
  });
});

describe('compileRequest: path encoding', () => {
  const template = '/users/{{id}}/profile';

  it.each([
    ['a/b', 'a%2Fb'],
    ['a?b', 'a%3Fb'],
    ['a#b', 'a%23b'],
    ['100%', '100%25'],
    ['me@host', 'me%40host'],
    ['a\\b', 'a%5Cb'],
    ['a b', 'a%20b'],
    ['a+b', 'a%2Bb'],
    ["it's (x)*!", 'it%27s%20%28x%29%2A%21'],
    ['caf\u00e9', 'caf%C3%A9'],
    ['\u{1f600}', '%F0%9F%98%80'],
    ['../admin', '..%2Fadmin'],
    ['%2e%2e', '%252e%252e'],
    ['.hidden', '.hidden'],
    ['...', '...'],
    ['a.b-c_d~e', 'a.b-c_d~e'],
    ['&=;:,$', '%26%3D%3B%3A%2C%24'],
  ])('encodes %j as one segment: %s', (value, encoded) => {
    const url = urlOf(`https://a.example.com${template}`, { id: value });
    expect(url).toBe(`https://a.example.com/users/${encoded}/profile`);
    const parsed = new URL(url);
    expect(parsed.origin).toBe('https://a.example.com');
    expect(parsed.pathname.split('/')).toHaveLength(4);
    expect(decodeURIComponent(parsed.pathname.split('/')[2] as string)).toBe(value);
  });

  it('stringifies finite numbers and booleans', () => {
    expect(urlOf(template, { id: 42 })).toBe('/users/42/profile');
    expect(urlOf(template, { id: -1.5 })).toBe('/users/-1.5/profile');
    expect(urlOf(template, { id: 1e21 })).toBe('/users/1e%2B21/profile');
    expect(urlOf(template, { id: false })).toBe('/users/false/profile');
  });

  it.each(['.', '..', ''])('refuses a value that makes the whole segment %j (RCP_TEMPLATE_VALUE)', (value) => {
    const error = failure(() => urlOf(template, { id: value }));
    expect(error.code).toBe('RCP_TEMPLATE_VALUE');
    expect(error.token).toBe('id');
    expect(error.position).toBe('path');
  });

  it('checks the whole rendered segment, literal text included', () => {
    expect(failure(() => urlOf('/x/.{{a}}', { a: '' })).code).toBe('RCP_TEMPLATE_VALUE');
    expect(failure(() => urlOf('/x/.{{a}}', { a: '.' })).code).toBe('RCP_TEMPLATE_VALUE');
    expect(failure(() => urlOf('/x/%2E{{a}}', { a: '' })).code).toBe('RCP_TEMPLATE_VALUE');
    expect(failure(() => urlOf('/x/{{a}}{{b}}', { a: '.', b: '.' })).code).toBe('RCP_TEMPLATE_VALUE');
    expect(urlOf('/x/v{{a}}', { a: '' })).toBe('/x/v');
    expect(urlOf('/x/{{a}}.json', { a: '.' })).toBe('/x/..json');
    expect(urlOf('/x/{{a}}-{{b}}', { a: 'a/b', b: 2 })).toBe('/x/a%2Fb-2');
  });

  it.each([
    ['an array', ['a', 'b']],
    ['an object', { a: 1 }],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['a bigint', 10n],
    ['a function', () => 'x'],
    ['a symbol', Symbol('x')],
  ])('refuses %s in the path (RCP_TEMPLATE_VALUE)', (_label, value) => {
    const error = failure(() => urlOf(template, { id: value }));
    expect(error.code).toBe('RCP_TEMPLATE_VALUE');
    expect(error.token).toBe('id');
    expect(error.position).toBe('path');
  });

  it('refuses a lone surrogate in the path (not encodable as UTF-8)', () => {
    const error = failure(() => urlOf(template, { id: 'a\ud800b' }));
    expect(error.code).toBe('RCP_TEMPLATE_VALUE');
    expect(error.position).toBe('path');
  });

  it.each([
    ['absent', {}],
    ['undefined', { id: undefined }],
    ['null', { id: null }],
  ])('throws RCP_TEMPLATE_MISSING for a path token that is %s', (_label, values) => {
    const error = failure(() => urlOf(template, values));
    expect(error.code).toBe('RCP_TEMPLATE_MISSING');
    expect(error.token).toBe('id');
    expect(error.position).toBe('path');
  });

  it('never puts the value in the error message', () => {
    const error = failure(() => urlOf(template, { id: ['secret-value-123'] }));
    expect(error.message).not.toContain('secret-value-123');
    expect(JSON.stringify(error)).not.toContain('secret-value-123');
  });
});

describe('compileRequest: query encoding', () => {
  it('encodes values and keys as query components (unreserved only, space as %20)', () => {
    const compiled = get('https://a.example.com/s', {
      queryParams: { q: '{{query}}', 'sort by': 'name asc', 'a+b': '{{n}}' },
    });
    const url = compiled.render({ query: 'a b+c/d?e#f%&=\u00e9', n: 3 }).url;
    expect(url).toBe('https://a.example.com/s?q=a%20b%2Bc%2Fd%3Fe%23f%25%26%3D%C3%A9&sort%20by=name%20asc&a%2Bb=3');
    expect([...new URL(url).searchParams]).toEqual([
      ['q', 'a b+c/d?e#f%&=\u00e9'],
      ['sort by', 'name asc'],
      ['a+b', '3'],
    ]);
  });

  it('keeps "a&tenant=evil" as one value', () => {
    const url = urlOf('/s?tenant=acme', { q: 'a&tenant=evil' }, { queryParams: { q: '{{q}}' } });
    expect(url).toBe('/s?tenant=acme&q=a%26tenant%3Devil');
    const params = new URL(url, 'http://h.example').searchParams;
    expect(params.getAll('tenant')).toEqual(['acme']);
    expect(params.get('q')).toBe('a&tenant=evil');
  });

  it('encodes literal text of a queryParams value so it cannot add entries', () => {
    expect(urlOf('/s', { x: 1 }, { queryParams: { filter: 'a&b={{x}}' } })).toBe('/s?filter=a%26b%3D1');
  });

  it('repeats the key for an array value, in order', () => {
    expect(urlOf('/s', { tags: ['x', 'y z', 3, true] }, { queryParams: { tag: '{{tags}}', after: '1' } })).toBe('/s?tag=x&tag=y%20z&tag=3&tag=true&after=1');
  });

  it('drops an entry whose array is empty', () => {
    expect(urlOf('/s', { tags: [] }, { queryParams: { tag: '{{tags}}', after: '1' } })).toBe('/s?after=1');
  });

  it('drops an entry whose token is missing (absent, undefined or null), never half-rendered', () => {
    const compiled = get('/s?keep=1', { queryParams: { a: '{{a}}', b: 'x-{{b}}-{{c}}', d: '{{d}}' } });
    expect(compiled.render({ b: 'B', d: null }).url).toBe('/s?keep=1');
    expect(compiled.render({ a: undefined, b: 'B', c: 'C', d: 0 }).url).toBe('/s?keep=1&b=x-B-C&d=0');
    expect(get('/s', { queryParams: { a: '{{a}}' } }).render({}).url).toBe('/s');
  });

  it('keeps an empty string value', () => {
    expect(urlOf('/s', { a: '' }, { queryParams: { a: '{{a}}' } })).toBe('/s?a=');
  });

  it('applies the same rules to tokens in the URL query, keeping its literal entries', () => {
    const compiled = get('https://a.example.com/s?fixed=1&q={{q}}&flag&tag={{tags}}&x=pre-{{x}}', {
      queryParams: { page: '{{page}}' },
    });
    expect(compiled.tokens).toEqual(['q', 'tags', 'x', 'page']);
    expect(compiled.pathTokens).toEqual([]);
    expect(compiled.render({ q: 'a&b=c', tags: ['1', '2'], x: 'y z', page: 2 }).url).toBe(
      'https://a.example.com/s?fixed=1&q=a%26b%3Dc&flag&tag=1&tag=2&x=pre-y%20z&page=2',
    );
    expect(compiled.render({}).url).toBe('https://a.example.com/s?fixed=1&flag');
  });

  it('refuses a token in a query key of the URL (RCP_TEMPLATE_SYNTAX)', () => {
    const error = failure(() => get('/s?{{key}}=1'));
    expect(error.code).toBe('RCP_TEMPLATE_SYNTAX');
    expect(error.offset).toBe(3);
    expect(failure(() => get('/s?a=1&k{{key}}')).offset).toBe(8);
  });

  it.each([
    ['an object', { a: 1 }],
    ['an array inside longer text', ['a']],
    ['an array of objects', [{ a: 1 }]],
    ['an array of arrays', [['a']]],
    ['an array with null', ['a', null]],
    ['NaN', Number.NaN],
  ])('refuses %s (RCP_TEMPLATE_VALUE)', (label, value) => {
    const template = label === 'an array inside longer text' ? 'x-{{v}}' : '{{v}}';
    const error = failure(() => urlOf('/s', { v: value }, { queryParams: { k: template } }));
    expect(error.code).toBe('RCP_TEMPLATE_VALUE');
    expect(error.token).toBe('v');
    expect(error.position).toBe('query');
  });

  it('refuses a non-string queryParams value and a non-object queryParams', () => {
    expect(failure(() => get('/s', { queryParams: { a: 1 as unknown as string } })).code).toBe('RCP_TEMPLATE_SYNTAX');
    expect(failure(() => get('/s', { queryParams: [] as unknown as Record<string, string> })).code).toBe('RCP_TEMPLATE_SYNTAX');
    const error = failure(() => get('/s', { queryParams: { a: '{{ a}}' } }));
    expect(error.code).toBe('RCP_TEMPLATE_SYNTAX');
    expect(error.offset).toBe(2);
    expect(error.template).toBe('{{ a}}');
    expect(error.message).toContain('queryParams "a"');
  });
});

describe('compileRequest: headers', () => {
  const compiled = get('/x', { headers: { Authorization: 'Bearer {{token}}', 'X-Tenant': '{{tenant}}', Accept: 'application/json' } });

  it('renders header values exactly', () => {
    expect(compiled.render({ token: 'abc.def', tenant: 'caf\u00e9 & co' }).headers).toEqual({
      Authorization: 'Bearer abc.def',
      'X-Tenant': 'caf\u00e9 & co',
      Accept: 'application/json',
    });
    expect(compiled.render({ token: 1, tenant: true }).headers).toEqual({
      Authorization: 'Bearer 1',
      'X-Tenant': 'true',
      Accept: 'application/json',
    });
  });

  it('drops an entry whose token is missing', () => {
    expect(compiled.render({ tenant: null }).headers).toEqual({ Accept: 'application/json' });
  });

  it.each([
    ['CR', 'a\rb'],
    ['LF', 'a\nX-Admin: true'],
    ['CRLF', 'a\r\nb'],
    ['NUL', 'a\0b'],
    ['ESC', 'a\u001bb'],
    ['DEL', 'a\u007fb'],
    ['non-Latin-1', '\u0100'],
    ['emoji', '\u{1f600}'],
    ['TAB', 'a\tb'],
    ['a leading space', ' a'],
    ['a leading tab', '\ta'],
  ])('refuses %s in a value (RCP_TEMPLATE_VALUE)', (_label, value) => {
    const error = failure(() => compiled.render({ tenant: value }));
    expect(error.code).toBe('RCP_TEMPLATE_VALUE');
    expect(error.token).toBe('tenant');
    expect(error.position).toBe('header');
  });

  it('accepts a space inside a value', () => {
    expect(compiled.render({ tenant: 'a b' }).headers).toMatchObject({ 'X-Tenant': 'a b' });
  });

  it('refuses a template that starts or ends with a space or a tab (RCP_TEMPLATE_SYNTAX)', () => {
    for (const template of [' {{v}}', '{{v}}\t', 'Bearer ']) {
      expect(failure(() => compileRequest({ method: 'GET', url: '/x', headers: { 'X-A': template } })).code).toBe('RCP_TEMPLATE_SYNTAX');
    }
  });

  it('refuses a value that would end the header with a space (fetch would trim it)', () => {
    const error = failure(() => compileRequest({ method: 'GET', url: '/x', headers: { 'X-A': 'Bearer {{t}}' } }).render({ t: 'abc ' }));
    expect(error.code).toBe('RCP_TEMPLATE_VALUE');
    expect(error.token).toBe('t');
  });

  it.each([
    ['an array', ['a']],
    ['an object', { a: 1 }],
    ['NaN', Number.NaN],
  ])('refuses %s (RCP_TEMPLATE_VALUE)', (_label, value) => {
    const error = failure(() => compiled.render({ tenant: value }));
    expect(error.code).toBe('RCP_TEMPLATE_VALUE');
    expect(error.position).toBe('header');
  });

  it('refuses invalid header names and values in the template (RCP_TEMPLATE_SYNTAX)', () => {
    expect(failure(() => get('/x', { headers: { 'X {{a}}': 'v' } })).offset).toBe(1);
    expect(failure(() => get('/x', { headers: { 'X:A': 'v' } })).code).toBe('RCP_TEMPLATE_SYNTAX');
    expect(failure(() => get('/x', { headers: { '': 'v' } })).code).toBe('RCP_TEMPLATE_SYNTAX');
    expect(failure(() => get('/x', { headers: { 'X-A': 'a\r\nb' } })).offset).toBe(1);
    expect(failure(() => get('/x', { headers: { 'X-A': 5 as unknown as string } })).code).toBe('RCP_TEMPLATE_SYNTAX');
    const error = failure(() => get('/x', { headers: { 'X-A': '{{+a}}' } }));
    expect(error.offset).toBe(2);
    expect(error.message).toContain('header "X-A"');
  });

  it('keeps a "__proto__" header name as an own key', () => {
    const headers = get('/x', { headers: JSON.parse('{"__proto__": "{{v}}"}') as Record<string, string> }).render({ v: 'x' }).headers;
    expect(Object.keys(headers)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(headers)).toBe(Object.prototype);
  });
});

describe('compileRequest: body', () => {
  function post(body: unknown) {
    return compileRequest({ method: 'POST', url: '/x', body });
  }

  it.each([
    ['a number', 42],
    ['zero', 0],
    ['a boolean', false],
    ['a string', 'text'],
    ['an empty string', ''],
    ['an object', { a: [1, { b: 'c' }] }],
    ['an array', [1, 'two', null]],
  ])('replaces an exact token with %s, typed', (_label, value) => {
    expect(post({ v: '{{v}}' }).render({ v: value }).body).toEqual({ v: value });
  });

  it('removes a property or element whose exact token is missing', () => {
    const compiled = post({ a: '{{a}}', b: '{{b}}', list: ['{{a}}', 'fixed', '{{b}}', 3], nested: { c: '{{c}}' } });
    expect(compiled.render({ b: 2 }).body).toEqual({ b: 2, list: ['fixed', 2, 3], nested: {} });
    expect(compiled.render({ a: null, b: undefined }).body).toEqual({ list: ['fixed', 3], nested: {} });
  });

  it('interpolates scalars inside longer strings', () => {
    expect(post({ text: 'Hi {{name}}, you are {{age}} ({{ok}})' }).render({ name: 'Ann', age: 30, ok: true }).body).toEqual({
      text: 'Hi Ann, you are 30 (true)',
    });
  });

  it('removes an interpolated string if any of its tokens is missing', () => {
    expect(post({ text: 'Hi {{name}} {{last}}', keep: 1 }).render({ name: 'Ann' }).body).toEqual({ keep: 1 });
    expect(post(['a {{x}}', 'b']).render({}).body).toEqual(['b']);
  });

  it.each([
    ['an array', ['a']],
    ['an object', { a: 1 }],
    ['NaN', Number.NaN],
  ])('refuses %s inside a longer string (RCP_TEMPLATE_VALUE)', (_label, value) => {
    const error = failure(() => post({ text: 'x {{v}}' }).render({ v: value }));
    expect(error.code).toBe('RCP_TEMPLATE_VALUE');
    expect(error.token).toBe('v');
    expect(error.position).toBe('body');
  });

  it.each([
    ['NaN', Number.NaN],
    ['Infinity', Number.NEGATIVE_INFINITY],
    ['a bigint', 1n],
    ['a function', () => 1],
    ['a symbol', Symbol('s')],
  ])('refuses %s as an exact token value (RCP_TEMPLATE_VALUE)', (_label, value) => {
    const error = failure(() => post({ v: '{{v}}' }).render({ v: value }));
    expect(error.code).toBe('RCP_TEMPLATE_VALUE');
    expect(error.position).toBe('body');
  });

  it('keeps an injection attempt a plain string', () => {
    const attack = '"}, "admin": true, {"';
    const body = post({ name: '{{name}}', greeting: 'Hello {{name}}' }).render({ name: attack }).body;
    expect(body).toEqual({ name: attack, greeting: `Hello ${attack}` });
    const reparsed = JSON.parse(JSON.stringify(body)) as Record<string, unknown>;
    expect(Object.keys(reparsed)).toEqual(['name', 'greeting']);
    expect(reparsed.admin).toBeUndefined();
  });

  it('never templates keys', () => {
    expect(post({ '{{key}}': '{{v}}', 'a {{ b': 'c' }).render({ key: 'k', v: 1 }).body).toEqual({ '{{key}}': 1, 'a {{ b': 'c' });
  });

  it('throws RCP_TEMPLATE_MISSING when the whole body is a missing token', () => {
    const error = failure(() => post('{{payload}}').render({}));
    expect(error.code).toBe('RCP_TEMPLATE_MISSING');
    expect(error.token).toBe('payload');
    expect(error.position).toBe('body');
    expect(post('{{payload}}').render({ payload: { a: 1 } }).body).toEqual({ a: 1 });
    const interpolated = failure(() => post('{{a}}-{{b}}').render({ a: 1 }));
    expect(interpolated.code).toBe('RCP_TEMPLATE_MISSING');
    expect(interpolated.token).toBe('b');
  });

  it('renders constant bodies as fresh values and keeps null', () => {
    const compiled = post({ a: [1, { b: 2 }], c: null });
    const first = compiled.render({}).body as { a: [number, { b: number }] };
    first.a[1].b = 99;
    expect(compiled.render({}).body).toEqual({ a: [1, { b: 2 }], c: null });
    expect(post(null).render({})).toEqual({ method: 'POST', url: '/x', headers: {}, body: null });
  });

  it('has no body key when the template has no body', () => {
    expect('body' in get('/x').render({})).toBe(false);
    expect('body' in compileRequest({ method: 'GET', url: '/x', body: undefined }).render({})).toBe(false);
  });

  it('does not mutate the template body', () => {
    const body = { a: '{{a}}', list: ['{{b}}', 'x {{a}}'], nested: { c: '{{c}}' } };
    const snapshot = structuredClone(body);
    const compiled = post(body);
    compiled.render({ a: 1, b: [2], c: { d: 3 } });
    compiled.render({});
    expect(body).toEqual(snapshot);
  });

  it('keeps a "__proto__" key from JSON.parse as an own key', () => {
    const body = compiledBody(JSON.parse('{"__proto__": "{{x}}", "y": "{{x}}"}'), { x: { polluted: true } });
    expect(Object.keys(body)).toEqual(['__proto__', 'y']);
    expect(Object.getPrototypeOf(body)).toBe(Object.prototype);
    expect((body as { polluted?: unknown }).polluted).toBeUndefined();
    expect(JSON.stringify(body)).toBe('{"__proto__":{"polluted":true},"y":{"polluted":true}}');
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('reports a bad template string with its pointer', () => {
    const error = failure(() => post({ a: [{ 'b/c': 'x {{ y}}' }] }));
    expect(error.code).toBe('RCP_TEMPLATE_SYNTAX');
    expect(error.offset).toBe(4);
    expect(error.message).toContain('/a/0/b~1c');
  });

  function compiledBody(body: unknown, values: Record<string, unknown>): Record<string, unknown> {
    return post(body).render(values).body as Record<string, unknown>;
  }
});

describe('compileRequest: values', () => {
  const compiled = compileRequest({
    method: 'POST',
    url: '/x/{{p}}',
    queryParams: { q: '{{q}}' },
    headers: { 'X-H': '{{h}}' },
    body: { b: '{{b}}' },
  });

  it('reads own properties only', () => {
    const inherited = Object.create({ p: 'proto', q: 'proto', h: 'proto', b: 'proto' }) as Record<string, unknown>;
    expect(failure(() => compiled.render(inherited)).code).toBe('RCP_TEMPLATE_MISSING');
    inherited.p = 'own';
    expect(compiled.render(inherited)).toEqual({ method: 'POST', url: '/x/own', headers: {}, body: {} });
  });

  it('ignores values on Object.prototype', () => {
    const proto = Object.prototype as Record<string, unknown>;
    proto.q = 'polluted';
    proto.b = 'polluted';
    try {
      expect(compiled.render({ p: 1 })).toEqual({ method: 'POST', url: '/x/1', headers: {}, body: {} });
    } finally {
      delete proto.q;
      delete proto.b;
    }
  });

  it('does not read "constructor", "toString" or "__proto__" through the prototype', () => {
    const names = compileRequest({ method: 'GET', url: '/x', queryParams: { a: '{{constructor}}', b: '{{toString}}', c: '{{__proto__}}' } });
    expect(names.render({}).url).toBe('/x');
    expect(names.render(JSON.parse('{"__proto__": "p", "constructor": "c"}') as Record<string, unknown>).url).toBe('/x?a=c&c=p');
  });

  it('accepts a null-prototype values object', () => {
    const values = Object.assign(Object.create(null) as Record<string, unknown>, { p: 'v', q: 'w' });
    expect(compiled.render(values).url).toBe('/x/v?q=w');
  });

  it('returns a fresh result every call', () => {
    const first = compiled.render({ p: 1, h: 'a' });
    first.headers['X-Other'] = 'y';
    expect(compiled.render({ p: 1, h: 'a' }).headers).toEqual({ 'X-H': 'a' });
  });
});

describe('compileRequest: no state between calls', () => {
  it('gives interleaved callers their own results for the same template text', () => {
    // Two clients compiling one relative template against different manifests, alternately:
    // nothing one compile learned (a base URL's origin, an authority) reaches the other.
    const template = { method: 'GET', url: '/items/{{id}}?q={{q}}' } as const;
    const bases = ['https://a.example/rcp.json', 'https://b.example:8443/rcp.json', 'https://a.example/other.json', 'http://a.example/rcp.json'];
    const origins = ['https://a.example', 'https://b.example:8443', 'https://a.example', 'http://a.example'];
    for (let round = 0; round < 2; round++) {
      bases.forEach((baseUrl, index) => {
        const compiled = compileRequest(template, { baseUrl });
        expect(compiled.origin).toBe(origins[index]);
        expect(compiled.render({ id: 'x', q: 'y' }).url).toBe(`${origins[index]}/items/x?q=y`);
      });
    }
    for (const [url, origin] of [
      ['HTTPS://API.EXAMPLE.COM/a', 'https://api.example.com'],
      ['https://api.example.com:443/a', 'https://api.example.com'],
      ['https://api.example.com:8443/a', 'https://api.example.com:8443'],
      ['HTTPS://API.EXAMPLE.COM/a', 'https://api.example.com'],
    ] as const) {
      expect(get(url).origin).toBe(origin);
    }
  });

  it('compiles a template object afresh every time: a changed object is read again', () => {
    const template: RequestTemplate = { method: 'GET', url: 'https://a.example/users/{{id}}', headers: { 'X-Tenant': '{{tenant}}' } };
    const first = compileRequest(template);
    template.url = 'https://b.example/teams/{{team}}';
    template.headers = {};
    const second = compileRequest(template);
    expect(first.tokens).toEqual(['id', 'tenant']);
    expect(first.render({ id: '1', tenant: 't' })).toEqual({ method: 'GET', url: 'https://a.example/users/1', headers: { 'X-Tenant': 't' } });
    expect(second.tokens).toEqual(['team']);
    expect(second.render({ team: '2' })).toEqual({ method: 'GET', url: 'https://b.example/teams/2', headers: {} });
  });

  it('compiles a frozen template with each baseUrl on its own', () => {
    const template = Object.freeze({ method: 'GET', url: '/items/{{id}}' });
    const a = compileRequest(template, { baseUrl: 'https://a.example/rcp.json' });
    const b = compileRequest(template, { baseUrl: 'https://b.example/rcp.json' });
    expect(a).not.toBe(b);
    expect([a.origin, b.origin]).toEqual(['https://a.example', 'https://b.example']);
    expect(a.render({ id: '1' }).url).toBe('https://a.example/items/1');
  });
});

describe('compileRequest: on the wire', () => {
  it('sends what the template says to a real server', async () => {
    const server = await startTestServer();
    try {
      const compiled = compileRequest(
        {
          method: 'POST',
          url: '/learners/{{learnerId}}/notes?source=rcp',
          queryParams: { q: '{{query}}', tag: '{{tags}}', missing: '{{nothing}}' },
          headers: { 'X-Tenant': '{{tenant}}', 'Content-Type': 'application/json' },
          body: { text: '{{text}}', count: '{{count}}', skip: '{{nothing}}' },
        },
        { baseUrl: server.url('/.well-known/rcp.json') },
      );
      const rendered = compiled.render({
        learnerId: '../admin/x?y#z',
        query: 'a&tenant=evil b+c',
        tags: ['one', 'two/three'],
        tenant: 'acme caf\u00e9',
        text: '"}, "admin": true, {"',
        count: 3,
      });
      expect(compiled.origin).toBe(server.origin);
      const response = await fetch(rendered.url, {
        method: rendered.method,
        headers: rendered.headers,
        body: JSON.stringify(rendered.body),
      });
      expect(response.status).toBe(404);
      await response.arrayBuffer();

      expect(server.count).toBe(1);
      const received = server.requests[0];
      expect(received?.method).toBe('POST');
      expect(received?.path).toBe('/learners/..%2Fadmin%2Fx%3Fy%23z/notes');
      expect(received?.path.split('/')).toHaveLength(4);
      expect(received?.query).toEqual([
        ['source', 'rcp'],
        ['q', 'a&tenant=evil b+c'],
        ['tag', 'one'],
        ['tag', 'two/three'],
      ]);
      // node:http decodes header bytes as Latin-1: the value arrived byte for byte.
      expect(received?.headers['x-tenant']).toBe('acme caf\u00e9');
      expect(received?.json).toEqual({ text: '"}, "admin": true, {"', count: 3 });
    } finally {
      await server.close();
    }
  });
});
