// Builders imported one by one (not the `Type` namespace, which holds every builder) so that a
// bundler keeps only these.
import {
  Array as TArray,
  Boolean as TBoolean,
  Literal,
  Object as TObject,
  Optional,
  Record as TRecord,
  String as TString,
  Union,
  Unknown,
  type Static,
} from '@sinclair/typebox';

import {
  HTTP_TOKEN_PATTERN,
  MAPPING_PATH_PATTERN,
  NON_BLANK_PATTERN,
  PARAM_NAME_PATTERN,
  TOOL_NAME_PATTERN,
} from './manifest-patterns';

export { HTTP_TOKEN_PATTERN, MAPPING_PATH_PATTERN, NON_BLANK_PATTERN, PARAM_NAME_PATTERN, TOOL_NAME_PATTERN };

/** Any key at all, including ones with line breaks (TypeBox's default record key skips those). */
const ANY_KEY = /* @__PURE__ */ TString({ pattern: '^[\\s\\S]*$' });

/**
 * TypeBox schema of a tool or server `auth` object: `{ type: "none" }` or
 * `{ type: "header", name, scheme? }`.
 *
 * @example
 * ```ts
 * import { RcpAuthSchema } from 'rcp-manifest';
 * import { Value } from '@sinclair/typebox/value';
 * Value.Check(RcpAuthSchema, { type: 'header', name: 'Authorization', scheme: 'Bearer' }); // true
 * ```
 */
export const RcpAuthSchema = /* @__PURE__ */ Union(
  [
    /* @__PURE__ */ TObject(
      { type: /* @__PURE__ */ Literal('none', { description: 'No credential is sent.' }) },
      { title: 'No auth', description: 'The tool is called without a credential.' },
    ),
    /* @__PURE__ */ TObject(
      {
        type: /* @__PURE__ */ Literal('header', { description: 'The credential is sent in one request header.' }),
        name: /* @__PURE__ */ TString({
          pattern: HTTP_TOKEN_PATTERN,
          description:
            'Header name (an RFC 9110 token), e.g. "Authorization". Not Host, Content-Length, Transfer-Encoding, Connection, Cookie or another hop-by-hop header.',
        }),
        scheme: /* @__PURE__ */ Optional(
          /* @__PURE__ */ TString({
            pattern: HTTP_TOKEN_PATTERN,
            description: 'Scheme written before the credential, e.g. "Bearer" sends "Authorization: Bearer <credential>". Omitted: the bare credential is sent.',
          }),
        ),
      },
      { title: 'Header auth', description: 'The client sends a credential it obtains for the user in one header.' },
    ),
  ],
  {
    title: 'RCP auth',
    description: 'How a tool call is authenticated. On a tool it overrides the server-level auth; omitted, the tool inherits it.',
  },
);

/**
 * TypeBox schema of one declared tool parameter.
 *
 * @example
 * ```ts
 * import { RcpParamSchema } from 'rcp-manifest';
 * import { Value } from '@sinclair/typebox/value';
 * Value.Check(RcpParamSchema, { name: 'query', type: 'string', required: true }); // true
 * ```
 */
export const RcpParamSchema = /* @__PURE__ */ TObject(
  {
    name: /* @__PURE__ */ TString({
      pattern: PARAM_NAME_PATTERN,
      description: 'The {{token}} name ([A-Za-z_][A-Za-z0-9_]*), unique within the tool; not __proto__, constructor or prototype.',
    }),
    type: /* @__PURE__ */ Optional(
      /* @__PURE__ */ Union(
        [
          /* @__PURE__ */ Literal('string'),
          /* @__PURE__ */ Literal('number'),
          /* @__PURE__ */ Literal('integer'),
          /* @__PURE__ */ Literal('boolean'),
          /* @__PURE__ */ Literal('array'),
          /* @__PURE__ */ Literal('object'),
        ],
        { description: 'JSON type of the argument. Default "string".' },
      ),
    ),
    description: /* @__PURE__ */ Optional(/* @__PURE__ */ TString({ description: 'What the model is told about this argument.' })),
    required: /* @__PURE__ */ Optional(
      /* @__PURE__ */ TBoolean({ description: 'Whether the argument must be given. Default false; a param used in the URL path is always required.' }),
    ),
  },
  { title: 'RCP param', description: 'One argument of a tool: declares a {{token}} used in url, queryParams, headers or body.' },
);

/**
 * TypeBox schema of one tool in a manifest.
 *
 * @example
 * ```ts
 * import { RcpToolSchema } from 'rcp-manifest';
 * import { Value } from '@sinclair/typebox/value';
 * Value.Check(RcpToolSchema, { name: 'ping', description: 'Ping.', method: 'GET', url: '/ping' }); // true
 * ```
 */
export const RcpToolSchema = /* @__PURE__ */ TObject(
  {
    name: /* @__PURE__ */ TString({
      pattern: TOOL_NAME_PATTERN,
      description: 'Unique tool name, 1-64 characters from A-Z a-z 0-9 _ -.',
    }),
    description: /* @__PURE__ */ TString({
      pattern: NON_BLANK_PATTERN,
      description: 'What the model sees when deciding whether to call the tool. Not blank.',
    }),
    method: /* @__PURE__ */ Union(
      [/* @__PURE__ */ Literal('GET'), /* @__PURE__ */ Literal('POST'), /* @__PURE__ */ Literal('PUT'), /* @__PURE__ */ Literal('PATCH'), /* @__PURE__ */ Literal('DELETE')],
      { description: 'HTTP method, uppercase.' },
    ),
    url: /* @__PURE__ */ TString({
      description:
        'Absolute http(s) URL, or a path starting with a single "/" (resolved against the manifest URL\'s origin). May contain {{token}} placeholders in the path and query only; no #fragment.',
    }),
    params: /* @__PURE__ */ Optional(
      /* @__PURE__ */ TArray(RcpParamSchema, { description: 'Declares every {{token}} used in url, queryParams, headers and body.' }),
    ),
    queryParams: /* @__PURE__ */ Optional(
      /* @__PURE__ */ TRecord(ANY_KEY, /* @__PURE__ */ TString(), {
        description: 'Query parameters appended to the url: literal keys, {{token}}-templated values.',
      }),
    ),
    headers: /* @__PURE__ */ Optional(
      /* @__PURE__ */ TRecord(ANY_KEY, /* @__PURE__ */ TString(), {
        propertyNames: { pattern: HTTP_TOKEN_PATTERN },
        description: 'Request headers: literal names (RFC 9110 tokens), {{token}}-templated values.',
      }),
    ),
    body: /* @__PURE__ */ Optional(
      /* @__PURE__ */ Unknown({
        description: 'JSON body template; its presence means the request has a JSON body. A string that is exactly "{{x}}" becomes the typed argument.',
      }),
    ),
    auth: /* @__PURE__ */ Optional(RcpAuthSchema),
    responseMappings: /* @__PURE__ */ Optional(
      /* @__PURE__ */ TRecord(ANY_KEY, /* @__PURE__ */ TString({ pattern: MAPPING_PATH_PATTERN }), {
        propertyNames: { minLength: 1, not: { const: '__proto__' } },
        description:
          'Reshapes the response before the model sees it: { field: "@json.path" }. "@data.name" is the RFC 9535 query $.data.name; a singular query yields a value (or leaves the field out), any other an array.',
      }),
    ),
  },
  { title: 'RCP tool', description: 'One HTTP endpoint a model may call.' },
);

/**
 * TypeBox schema of a whole RCP manifest (`GET <manifest-url>`). This is the structural part of
 * validation; {@link parseManifest} adds the semantic rules (unique names, declared tokens, URL
 * shape, header names, JSONPath syntax, ...).
 *
 * @example
 * ```ts
 * import { RcpManifestSchema } from 'rcp-manifest';
 * import { TypeCompiler } from '@sinclair/typebox/compiler';
 * const check = TypeCompiler.Compile(RcpManifestSchema);
 * check.Check({ rcpVersion: '0.1', tools: [] }); // true
 * ```
 */
export const RcpManifestSchema = /* @__PURE__ */ TObject(
  {
    rcpVersion: /* @__PURE__ */ Literal('0.1', { description: 'Protocol version. A client refuses a version it does not support.' }),
    auth: /* @__PURE__ */ Optional(RcpAuthSchema),
    tools: /* @__PURE__ */ TArray(RcpToolSchema, { description: 'The tools this server offers.' }),
  },
  {
    title: 'RCP manifest',
    description: 'The directory of tools an RCP server publishes at its manifest URL. Unknown fields are ignored.',
  },
);

/** Recursively readonly view of a manifest type (manifests returned by the parser are deep-frozen). */
type DeepReadonly<T> = T extends (infer E)[]
  ? readonly DeepReadonly<E>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

/**
 * An `auth` object: `{ type: 'none' }` or `{ type: 'header', name, scheme? }`.
 *
 * @example
 * ```ts
 * const auth: RcpAuth = { type: 'header', name: 'Authorization', scheme: 'Bearer' };
 * ```
 */
export type RcpAuth = DeepReadonly<Static<typeof RcpAuthSchema>>;

/**
 * A declared tool parameter, as written in the manifest (see `toolParams` for defaults applied).
 *
 * @example
 * ```ts
 * const param: RcpParam = { name: 'learnerId', type: 'string', description: "The learner's id" };
 * ```
 */
export type RcpParam = DeepReadonly<Static<typeof RcpParamSchema>>;

/**
 * A param's JSON type.
 *
 * @example
 * ```ts
 * const type: RcpParamType = 'integer';
 * ```
 */
export type RcpParamType = NonNullable<RcpParam['type']>;

/**
 * One tool of a manifest.
 *
 * @example
 * ```ts
 * const tool: RcpTool = { name: 'ping', description: 'Ping the server.', method: 'GET', url: '/ping' };
 * ```
 */
export type RcpTool = DeepReadonly<Static<typeof RcpToolSchema>>;

/**
 * An HTTP method a tool may use.
 *
 * @example
 * ```ts
 * const method: RcpHttpMethod = 'POST';
 * ```
 */
export type RcpHttpMethod = RcpTool['method'];

/**
 * A whole manifest. Manifests returned by `parseManifest` are validated, deep-frozen copies.
 *
 * @example
 * ```ts
 * const manifest: RcpManifest = { rcpVersion: '0.1', auth: { type: 'none' }, tools: [] };
 * ```
 */
export type RcpManifest = DeepReadonly<Static<typeof RcpManifestSchema>>;
