import { isRcpError } from 'rcp-errors';
import { describe, expect, it } from 'vitest';
import { compileRequest, type RequestTemplate } from './compile-request';
import { RcpTemplateError } from './template-error';

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
    Object.freeze(value);
  }
  return value;
}

/** A frozen template whose `url` reads are counted (through a Proxy, which must keep frozen values). */
function countingTemplate(template: RequestTemplate): { template: RequestTemplate; urlReads: () => number } {
  let reads = 0;
  const proxy = new Proxy(deepFreeze(template), {
    get(target, key, receiver) {
      if (key === 'url') reads++;
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  return { template: proxy, urlReads: () => reads };
}

const TEMPLATE: RequestTemplate = {
  method: 'POST',
  url: '/users/{{id}}/items?mode=full',
  queryParams: { q: '{{query}}' },
  headers: { 'X-Tenant': '{{tenant}}' },
  body: { note: 'for {{id}}', tags: ['{{tag}}', 'fixed'] },
};
const VALUES = { id: 'a/b', query: 'x y', tenant: 't', tag: 'z' };

describe('compileRequest: deep-frozen templates are compiled once', () => {
  it('compiles a deep-frozen template again without reading it again', () => {
    const { template, urlReads } = countingTemplate(structuredClone(TEMPLATE));
    const first = compileRequest(template);
    const reads = urlReads();
    expect(reads).toBeGreaterThan(0);
    const second = compileRequest(template, { baseUrl: 'https://api.example.com/rcp.json' });
    expect(urlReads()).toBe(reads);
    expect(second).not.toBe(first);
    expect(Object.isFrozen(second)).toBe(true);
  });

  it('renders exactly like a fresh compile, with and without a base URL', () => {
    const frozen = deepFreeze(structuredClone(TEMPLATE));
    for (const baseUrl of [undefined, 'https://api.example.com/rcp.json', 'http://127.0.0.1:8080/x', undefined]) {
      const options = baseUrl === undefined ? {} : { baseUrl };
      const reused = compileRequest(frozen, options);
      const fresh = compileRequest(structuredClone(TEMPLATE), options);
      expect(reused.origin).toBe(fresh.origin);
      expect(reused.tokens).toEqual(fresh.tokens);
      expect(reused.pathTokens).toEqual(fresh.pathTokens);
      expect(reused.render(VALUES)).toEqual(fresh.render(VALUES));
    }
  });

  it('keeps an absolute URL whatever the base URL', () => {
    const frozen = deepFreeze({ method: 'GET', url: 'https://a.example.com/x/{{id}}' });
    expect(compileRequest(frozen).render({ id: 1 }).url).toBe('https://a.example.com/x/1');
    expect(compileRequest(frozen, { baseUrl: 'https://b.example.com' }).render({ id: 1 }).url).toBe('https://a.example.com/x/1');
  });

  it('still refuses an invalid base URL, and reports template errors the same way every time', () => {
    const relative = deepFreeze({ method: 'GET', url: '/x' });
    compileRequest(relative);
    for (const baseUrl of ['not a url', 'ftp://a.example.com/']) {
      try {
        compileRequest(relative, { baseUrl });
        throw new Error('expected a failure');
      } catch (error) {
        expect(isRcpError(error, 'RCP_INVALID_OPTIONS')).toBe(true);
      }
    }
    const broken = deepFreeze({ method: 'GET', url: '/x/{{ id}}' });
    const errors = [0, 1].map(() => {
      try {
        compileRequest(broken, { baseUrl: 'not a url' });
      } catch (error) {
        return error as RcpTemplateError;
      }
      throw new Error('expected a failure');
    });
    expect(errors[0]).toBeInstanceOf(RcpTemplateError);
    expect(errors[1]).toMatchObject({ code: errors[0]!.code, message: errors[0]!.message, offset: errors[0]!.offset });
  });

  it('compiles again what could change: unfrozen templates, getters, unfrozen parts', () => {
    const open = structuredClone(TEMPLATE) as { url: string } & RequestTemplate;
    expect(compileRequest(open).render(VALUES).url).toBe('/users/a%2Fb/items?mode=full&q=x%20y');
    open.url = '/other/{{id}}';
    expect(compileRequest(open).render(VALUES).url).toBe('/other/a%2Fb?q=x%20y');

    let url = '/one';
    const withGetter = Object.freeze({
      method: 'GET',
      get url() {
        return url;
      },
    });
    expect(compileRequest(withGetter).render({}).url).toBe('/one');
    url = '/two';
    expect(compileRequest(withGetter).render({}).url).toBe('/two');

    const body = { a: 'x' };
    const shallow = Object.freeze({ method: 'POST', url: '/', body });
    expect(compileRequest(shallow).render({}).body).toEqual({ a: 'x' });
    body.a = 'y';
    expect(compileRequest(shallow).render({}).body).toEqual({ a: 'y' });
  });
});
