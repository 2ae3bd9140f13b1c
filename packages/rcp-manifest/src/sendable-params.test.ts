import { describe, expect, it } from 'vitest';
import { safeParseManifest } from './index';

// Issue 41 item 2: a param no value of its declared type can be sent where the manifest uses it is a warning at
// that position (Stripe's `created` object in the query failed every call, and `rcp lint` said nothing).
function warningsOf(tool: Record<string, unknown>): { path: string; message: string }[] {
  const result = safeParseManifest({ rcpVersion: '0.1', tools: [{ name: 't', description: 'T.', method: 'GET', ...tool }] });
  expect(result.ok).toBe(true);
  return result.warnings.map(({ path, message }) => ({ path, message }));
}

describe('params that cannot be sent where they are used', () => {
  it('an object in the query, in a path segment and in a header is a warning at each position, naming the param', () => {
    const warnings = warningsOf({
      url: 'https://api.example.com/charges/{{where}}',
      params: [
        { name: 'where', type: 'object' },
        { name: 'created', type: 'object', properties: { gte: { type: 'integer' } } },
        { name: 'trace', type: 'object' },
      ],
      queryParams: { created: '{{created}}' },
      headers: { 'X-Trace': '{{trace}}' },
    });
    expect(warnings).toEqual([
      {
        path: '/tools/0/headers/X-Trace',
        message: expect.stringMatching(/^param "trace" is an object, which a header value cannot carry .*RCP_TEMPLATE_VALUE/),
      },
      { path: '/tools/0/queryParams/created', message: expect.stringMatching(/^param "created" is an object, which a query entry cannot carry/) },
      { path: '/tools/0/url', message: expect.stringMatching(/^param "where" is an object, which a path segment cannot carry/) },
    ]);
  });

  it('an array is sendable as a whole query value of scalars only', () => {
    const warnings = warningsOf({
      url: 'https://api.example.com/items?ids={{ids}}&tag=x-{{tags}}',
      params: [
        { name: 'ids', type: 'array', items: { type: 'integer' } },
        { name: 'tags', type: 'array', items: { type: 'string' } },
        { name: 'filters', type: 'array', items: { type: 'object' } },
        { name: 'expand', type: 'array', items: { type: 'string' } },
      ],
      queryParams: { filters: '{{filters}}', expand: '{{expand}}' },
    });
    expect(warnings.map(({ path, message }) => `${path} ${message.split(':')[0]}`)).toEqual([
      '/tools/0/queryParams/filters param "filters" is an array of objects, which a query entry cannot carry (an array of scalars only)',
      '/tools/0/url param "tags" is an array inside a longer value, which a query entry cannot carry (an array must be the whole value)',
    ]);
  });

  it('scalars anywhere, and objects in a JSON body, give no warning', () => {
    expect(
      warningsOf({
        method: 'POST',
        url: 'https://api.example.com/items/{{id}}?limit={{limit}}',
        params: [
          { name: 'id', type: 'string' },
          { name: 'limit', type: 'integer' },
          { name: 'meta', type: 'object' },
          { name: 'flag', type: 'boolean' },
        ],
        headers: { 'X-Flag': '{{flag}}' },
        body: { meta: '{{meta}}' },
      }),
    ).toEqual([]);
  });
});
