/**
 * A manifest whose params carry every RCP 0.2 value detail a model-facing schema can hold
 * (SPEC §16.2), for the adapters' provider-rule tests (rcp-client's docs/behaviour.md): `search_items` has a length-
 * bounded required string, a `uri` and a `date-time` format, a `pattern`, integer bounds with a
 * `default`, a string `enum` and an integer `enum`; `ping` takes no argument. Tool URLs are
 * relative: serve it with `serveManifest` on the test server that answers `GET /search` and
 * `GET /ping`.
 */
export const detailsManifest = {
  rcpVersion: '0.2',
  tools: [
    {
      name: 'search_items',
      description: 'Searches the catalog.',
      method: 'GET',
      url: '/search',
      queryParams: { q: '{{q}}', site: '{{site}}', since: '{{since}}', code: '{{code}}', limit: '{{limit}}', status: '{{status}}', size: '{{size}}' },
      params: [
        { name: 'q', required: true, description: 'Search terms', minLength: 2, maxLength: 40 },
        { name: 'site', description: 'Only this site', format: 'uri' },
        { name: 'since', format: 'date-time' },
        { name: 'code', pattern: '^[A-Z]{3}$' },
        { name: 'limit', type: 'integer', minimum: 1, maximum: 50, default: 10 },
        { name: 'status', enum: ['open', 'closed'] },
        { name: 'size', type: 'integer', enum: [1, 2] },
      ],
    },
    { name: 'ping', description: 'Checks the service.', method: 'GET', url: '/ping' },
  ],
} as const;
