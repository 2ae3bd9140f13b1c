/**
 * A 500-tool catalog for tool-search and tool-count tests (issue 28): 50 resources × 10 verbs,
 * every tool with a `userId` path param only the app may fill (bind a resolver to it) and, for
 * `POST` / `PATCH`, a required `note` body param the model fills. Tool names are
 * `<verb><Resource>` (`createRefund`, `listInvoice`); descriptions `<summary> <resource>`
 * ("Creates a refund"); URLs `/v1/users/{userId}/<resource>s/<verb>`.
 *
 * It comes in two forms with the same tools: {@link largeCatalogManifest}, an RCP manifest to
 * serve as it is, and {@link largeCatalogOpenApi}, an OpenAPI 3.0 document to import with
 * rcp-openapi (`fromOpenApi(document, { resolve: ['userId'], maxTools: 500 })`).
 */

/** The catalog's 50 resources. */
const RESOURCES = [
  'customer',
  'invoice',
  'payment',
  'refund',
  'subscription',
  'product',
  'price',
  'coupon',
  'order',
  'shipment',
  'warehouse',
  'supplier',
  'employee',
  'team',
  'project',
  'task',
  'comment',
  'attachment',
  'label',
  'milestone',
  'repository',
  'branch',
  'release',
  'webhook',
  'event',
  'notification',
  'message',
  'conversation',
  'contact',
  'account',
  'domain',
  'certificate',
  'volume',
  'snapshot',
  'backup',
  'cluster',
  'database',
  'firewall',
  'region',
  'report',
  'dashboard',
  'alert',
  'incident',
  'schedule',
  'calendar',
  'meeting',
  'room',
  'ticket',
  'article',
  'document',
] as const;

/** The catalog's 10 verbs: HTTP method, name prefix, summary. */
const VERBS = [
  ['GET', 'list', 'Lists every'],
  ['GET', 'get', 'Returns one'],
  ['POST', 'create', 'Creates a'],
  ['PATCH', 'update', 'Changes a'],
  ['DELETE', 'delete', 'Deletes a'],
  ['POST', 'archive', 'Archives a'],
  ['POST', 'restore', 'Restores an archived'],
  ['GET', 'export', 'Exports every'],
  ['POST', 'import', 'Imports records of'],
  ['GET', 'count', 'Counts every'],
] as const;

/** The number of tools in the catalog. */
export const LARGE_CATALOG_SIZE = RESOURCES.length * VERBS.length;

interface CatalogEntry {
  readonly name: string;
  readonly description: string;
  readonly method: (typeof VERBS)[number][0];
  readonly path: string;
  readonly resource: string;
  readonly takesNote: boolean;
}

function entries(): CatalogEntry[] {
  return RESOURCES.flatMap((resource) =>
    VERBS.map(([method, verb, summary]) => ({
      name: `${verb}${resource[0]!.toUpperCase()}${resource.slice(1)}`,
      description: `${summary} ${resource}`,
      method,
      path: `/v1/users/{userId}/${resource}s/${verb}`,
      resource,
      takesNote: method === 'POST' || method === 'PATCH',
    })),
  );
}

/**
 * The 500-tool catalog as an RCP 0.1 manifest (a fresh object per call). Tool URLs are relative:
 * serve it with `serveManifest` on the test server that answers the calls.
 *
 * @example
 * ```ts
 * const toolSet = createToolSet(await client.discover(serveManifest(api, largeCatalogManifest())));
 * api.route('POST /v1/users/u-1/refunds/create', (request, res) => sendJson(res, 200, { created: true }));
 * ```
 */
export function largeCatalogManifest() {
  return {
    rcpVersion: '0.1',
    tools: entries().map(({ name, description, method, path, resource, takesNote }) => ({
      name,
      description,
      method,
      url: path.replace('{userId}', '{{userId}}'),
      params: [{ name: 'userId', required: true }, ...(takesNote ? [{ name: 'note', required: true, description: `Text kept with the ${resource}` }] : [])],
      ...(takesNote ? { body: { note: '{{note}}' } } : {}),
    })),
  };
}

/**
 * The same 500 tools as an OpenAPI 3.0 document whose server is `${origin}/v1` (a fresh object
 * per call), for tests of the importer's path: operation ids are the tool names.
 *
 * @example
 * ```ts
 * const { manifest } = await fromOpenApi(largeCatalogOpenApi(api.origin), { resolve: ['userId'], maxTools: 500 });
 * manifest.tools.length; // 500
 * ```
 */
export function largeCatalogOpenApi(origin: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const { name, description, method, path, resource, takesNote } of entries()) {
    const body = takesNote
      ? {
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: { type: 'object', required: ['note'], properties: { note: { type: 'string', description: `Text kept with the ${resource}` } } },
              },
            },
          },
        }
      : {};
    paths[path.slice('/v1'.length)] = {
      [method.toLowerCase()]: {
        operationId: name,
        summary: description,
        parameters: [{ name: 'userId', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: 'ok' } },
        ...body,
      },
    };
  }
  return { openapi: '3.0.3', info: { title: 'Everything API', version: '1' }, servers: [{ url: `${origin}/v1` }], paths };
}
