// Builders imported one by one (not the `Type` namespace, which holds every builder) so that a
// bundler keeps only these.
import {
  Array as TArray,
  Boolean as TBoolean,
  Integer as TInteger,
  Literal,
  Number as TNumber,
  Recursive,
  type TSchema,
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
  MEDIA_RANGE_PATTERN,
  NON_BLANK_PATTERN,
  PARAM_NAME_PATTERN,
  SCOPE_TOKEN_PATTERN,
  TOOL_NAME_PATTERN,
  TOOL_NAME_RULE,
  MAX_POLL_SECONDS,
  STATUS_HEADER_PATTERN,
} from './manifest-patterns';

export { HTTP_TOKEN_PATTERN, MAPPING_PATH_PATTERN, NON_BLANK_PATTERN, PARAM_NAME_PATTERN, TOOL_NAME_PATTERN };

/** Any key at all, including ones with line breaks (TypeBox's default record key skips those). */
const ANY_KEY = /* @__PURE__ */ TString({ pattern: '^[\\s\\S]*$' });

/**
 * TypeBox schema of a header auth's OAuth hint (RCP 0.3): that the credential is an OAuth 2
 * access token, and what a login needs — the scopes, the authorization server's issuer, the
 * grant types it offers. Informational: shown by `describeManifest`, the CLI and the
 * inspector; the client never sends anything to a URL it reads here (tokens come from the
 * operator's configuration, rcp-oauth's docs/behaviour.md).
 *
 * @example
 * ```ts
 * import { RcpOAuthHintSchema } from 'rcp-manifest/schema';
 * import { Value } from '@sinclair/typebox/value';
 * Value.Check(RcpOAuthHintSchema, { scopes: ['notes.read'], issuer: 'https://login.example.com' }); // true
 * ```
 */
export const RcpOAuthHintSchema = /* @__PURE__ */ TObject(
  {
    scopes: /* @__PURE__ */ Optional(
      /* @__PURE__ */ TArray(/* @__PURE__ */ TString({ pattern: SCOPE_TOKEN_PATTERN }), {
        description: 'OAuth 2 scopes a call needs (RFC 6749 scope tokens), shown to whoever sets up the login.',
      }),
    ),
    issuer: /* @__PURE__ */ Optional(
      /* @__PURE__ */ TString({
        description:
          "The authorization server's issuer identifier (RFC 8414: an https URL without query or fragment). Shown only: the client never fetches it.",
      }),
    ),
    grantTypes: /* @__PURE__ */ Optional(
      /* @__PURE__ */ TArray(/* @__PURE__ */ TString({ pattern: NON_BLANK_PATTERN }), {
        description: 'Grant types the authorization server offers for this API (e.g. "authorization_code", "client_credentials").',
      }),
    ),
  },
  { title: 'OAuth hint', description: 'The credential is an OAuth 2 access token (RCP 0.3). Informational only.' },
);

/**
 * TypeBox schema of a tool's declared effects (RCP 0.3, the MCP annotation set): the server's
 * claims about what a call does. Absent, each defaults from the method; declared, each is
 * combined with the method's so that a claim can only add caution (see `toolEffects`).
 *
 * @example
 * ```ts
 * import { RcpEffectsSchema } from 'rcp-manifest/schema';
 * import { Value } from '@sinclair/typebox/value';
 * Value.Check(RcpEffectsSchema, { destructive: true, openWorld: false }); // true
 * ```
 */
export const RcpEffectsSchema = /* @__PURE__ */ TObject(
  {
    readOnly: /* @__PURE__ */ Optional(
      /* @__PURE__ */ TBoolean({
        description: 'The call changes nothing. Not allowed on PUT, PATCH or DELETE, nor with destructive: true or idempotent: false.',
      }),
    ),
    destructive: /* @__PURE__ */ Optional(/* @__PURE__ */ TBoolean({ description: 'The call may destroy or overwrite data.' })),
    idempotent: /* @__PURE__ */ Optional(/* @__PURE__ */ TBoolean({ description: 'Calling it again with the same arguments has no further effect.' })),
    openWorld: /* @__PURE__ */ Optional(
      /* @__PURE__ */ TBoolean({ description: 'The call reaches entities outside the API (the web, other people). Default true.' }),
    ),
  },
  {
    title: 'RCP tool effects',
    description: "What the tool does, by the server's own claim (RCP 0.3): hints for approval policy and hosts, never a reason to trust more.",
  },
);

/**
 * TypeBox schema of a tool's pagination (RCP 0.3): where the next page's cursor is in a JSON
 * response (`nextCursor`, a singular `@` path), the declared param that takes it (`param`), and
 * optionally where the response says whether there is more (`hasMore`). The client tells the
 * model the exact arguments of the next call (SPEC §18.4).
 *
 * @example
 * ```ts
 * import { RcpPaginationSchema } from 'rcp-manifest/schema';
 * import { Value } from '@sinclair/typebox/value';
 * Value.Check(RcpPaginationSchema, { nextCursor: '@meta.next', param: 'cursor' }); // true
 * ```
 */
export const RcpPaginationSchema = /* @__PURE__ */ TObject(
  {
    nextCursor: /* @__PURE__ */ TString({
      pattern: MAPPING_PATH_PATTERN,
      description: 'Where the next page\'s cursor is in the JSON response: a singular "@" path (e.g. "@meta.next"). Absent, null, "" or false: no more pages.',
    }),
    param: /* @__PURE__ */ TString({
      pattern: PARAM_NAME_PATTERN,
      description: 'The declared param (string, integer or number) that takes the cursor in the next call.',
    }),
    hasMore: /* @__PURE__ */ Optional(
      /* @__PURE__ */ TString({
        pattern: MAPPING_PATH_PATTERN,
        description:
          'Where the response says whether there is a next page (a singular "@" path to a boolean, e.g. "@has_more"); when given, only true means more.',
      }),
    ),
  },
  { title: 'RCP pagination', description: "How the tool's next page is asked for (RCP 0.3): the cursor in the response and the param that takes it." },
);

/**
 * TypeBox schema of a tool's streamed answer (RCP 0.4): the answer is Server-Sent Events
 * (`"sse"`, `text/event-stream`) or JSON one value a line (`"ndjson"`), and the client collects
 * its events into one result — `"concat"` joins each event's text, `"last"` keeps the last value,
 * `"array"` keeps them all — taking `field` (a singular `@` path, as in responseMappings) from
 * each event's JSON, and stops after `maxEvents` events (`truncated: true`). SPEC §20.6.
 *
 * @example
 * ```ts
 * import { RcpStreamSchema } from 'rcp-manifest/schema';
 * import { Value } from '@sinclair/typebox/value';
 * Value.Check(RcpStreamSchema, { format: 'sse', collect: 'concat', field: '@delta.text', maxEvents: 10000 }); // true
 * ```
 */
export const RcpStreamSchema = /* @__PURE__ */ TObject(
  {
    format: /* @__PURE__ */ Union([/* @__PURE__ */ Literal('sse'), /* @__PURE__ */ Literal('ndjson')], {
      description: 'The answer\'s format: "sse" (Server-Sent Events, text/event-stream) or "ndjson" (one JSON value a line, application/x-ndjson).',
    }),
    collect: /* @__PURE__ */ Union([/* @__PURE__ */ Literal('concat'), /* @__PURE__ */ Literal('last'), /* @__PURE__ */ Literal('array')], {
      description: 'How the events become one result: "concat" joins their text, "last" keeps the last value, "array" keeps every value in order.',
    }),
    field: /* @__PURE__ */ Optional(
      /* @__PURE__ */ TString({
        pattern: MAPPING_PATH_PATTERN,
        description:
          'A singular "@" path (as in responseMappings, e.g. "@choices[0].delta.content") taken from each event\'s JSON; an event where it matches nothing is skipped. Without it an SSE event\'s value is its data text, an NDJSON line\'s its JSON.',
      }),
    ),
    maxEvents: /* @__PURE__ */ Optional(
      /* @__PURE__ */ TInteger({ minimum: 1, description: 'Events read at most; the client then closes the stream and the result says truncated.' }),
    ),
  },
  {
    title: 'RCP stream',
    description: 'The tool answers with a stream of events, collected into one result (RCP 0.4; ignored in an older manifest).',
  },
);

/**
 * TypeBox schema of a tool's long-running operation (RCP 0.4): when the tool answers `202`, the
 * client follows the operation — it reads the status URL from a header (`"header:Location"`) or
 * the 202's JSON (a singular `@` path), polls it with GET on the tool's origin, every
 * `pollSeconds` or as `Retry-After` says, until a status answer's `state` is one of `done`
 * (the result: the `result` path of that answer, or all of it) or `failed`; without `state`, a
 * `202` means pending and another 2xx done. Past the call's deadline the result is pending, with a
 * sealed handle to resume it. SPEC §20.8.
 *
 * @example
 * ```ts
 * import { RcpOperationSchema } from 'rcp-manifest/schema';
 * import { Value } from '@sinclair/typebox/value';
 * Value.Check(RcpOperationSchema, { statusUrl: 'header:Location', state: '@status', done: ['succeeded'], failed: ['failed'], result: '@output' }); // true
 * ```
 */
export const RcpOperationSchema = /* @__PURE__ */ TObject(
  {
    statusUrl: /* @__PURE__ */ Union(
      [/* @__PURE__ */ TString({ pattern: STATUS_HEADER_PATTERN }), /* @__PURE__ */ TString({ pattern: MAPPING_PATH_PATTERN })],
      {
        description:
          'Where the 202 answer names the status URL: "header:<Name>" (e.g. "header:Location") or a singular "@" path into its JSON (e.g. "@links.status"). The URL must be on the tool\'s origin.',
      },
    ),
    state: /* @__PURE__ */ Optional(
      /* @__PURE__ */ TString({ pattern: MAPPING_PATH_PATTERN, description: 'A singular "@" path to the state in a status answer (e.g. "@status").' }),
    ),
    done: /* @__PURE__ */ Optional(
      /* @__PURE__ */ TArray(/* @__PURE__ */ TString(), { minItems: 1, description: 'The states that mean the operation succeeded (required with "state").' }),
    ),
    failed: /* @__PURE__ */ Optional(
      /* @__PURE__ */ TArray(/* @__PURE__ */ TString(), { minItems: 1, description: 'The states that mean the operation failed (with "state").' }),
    ),
    result: /* @__PURE__ */ Optional(
      /* @__PURE__ */ TString({
        pattern: MAPPING_PATH_PATTERN,
        description: 'A singular "@" path to the result in the done status answer; without it, the whole answer is the result.',
      }),
    ),
    pollSeconds: /* @__PURE__ */ Optional(
      /* @__PURE__ */ TNumber({
        minimum: 0,
        maximum: MAX_POLL_SECONDS,
        description: 'Seconds between polls when the answer sends no Retry-After (default 2).',
      }),
    ),
  },
  {
    title: 'RCP operation',
    description: 'The tool may answer 202 and finish later: how the client follows it (RCP 0.4; ignored in an older manifest).',
  },
);

/**
 * TypeBox schema of a tool's idempotency (RCP 0.4): the request header the tool takes an
 * idempotency key in (the IETF httpapi draft's `Idempotency-Key`, or the header an API already
 * uses) and, optionally, how long the server keeps a key. A client sends a key with every call of
 * such a tool, the same on each retry of one call (SPEC §20.1).
 *
 * @example
 * ```ts
 * import { RcpIdempotencySchema } from 'rcp-manifest/schema';
 * import { Value } from '@sinclair/typebox/value';
 * Value.Check(RcpIdempotencySchema, { header: 'Idempotency-Key', expiresAfterSeconds: 86400 }); // true
 * ```
 */
export const RcpIdempotencySchema = /* @__PURE__ */ TObject(
  {
    header: /* @__PURE__ */ TString({
      pattern: HTTP_TOKEN_PATTERN,
      description:
        'The request header that carries the key (an RFC 9110 token, e.g. "Idempotency-Key"); its value is a Structured Fields string. Not a header the HTTP client controls, the auth header or one of the tool\'s own headers.',
    }),
    expiresAfterSeconds: /* @__PURE__ */ Optional(
      /* @__PURE__ */ TInteger({
        minimum: 1,
        description: 'How long the server keeps a key and replays its first response, in seconds; a retry after that may run again.',
      }),
    ),
  },
  {
    title: 'RCP idempotency',
    description: 'The tool takes an idempotency key (RCP 0.4): a retry with the same key is answered with the first response, never run twice.',
  },
);

/**
 * TypeBox schema of a tool or server `auth` object: `{ type: "none" }`,
 * `{ type: "header", name, scheme? }` or (RCP 0.2) `{ type: "query", name }`.
 *
 * @example
 * ```ts
 * import { RcpAuthSchema } from 'rcp-manifest/schema';
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
            description:
              'Scheme written before the credential, e.g. "Bearer" sends "Authorization: Bearer <credential>". Omitted: the bare credential is sent.',
          }),
        ),
        oauth: /* @__PURE__ */ Optional(RcpOAuthHintSchema),
      },
      { title: 'Header auth', description: 'The client sends a credential it obtains for the user in one header.' },
    ),
    /* @__PURE__ */ TObject(
      {
        type: /* @__PURE__ */ Literal('query', { description: 'The credential is sent as one query parameter (RCP 0.2).' }),
        name: /* @__PURE__ */ TString({
          pattern: HTTP_TOKEN_PATTERN,
          description: 'Query key, e.g. "api_key"; no tool query entry may use it.',
        }),
      },
      { title: 'Query auth', description: 'The client sends a credential it obtains for the user as a query parameter (RCP 0.2).' },
    ),
  ],
  {
    title: 'RCP auth',
    description: 'How a tool call is authenticated. On a tool it overrides the server-level auth; omitted, the tool inherits it.',
  },
);

const PARAM_TYPE = /* @__PURE__ */ Union(
  [
    /* @__PURE__ */ Literal('string'),
    /* @__PURE__ */ Literal('number'),
    /* @__PURE__ */ Literal('integer'),
    /* @__PURE__ */ Literal('boolean'),
    /* @__PURE__ */ Literal('array'),
    /* @__PURE__ */ Literal('object'),
  ],
  { description: 'JSON type of the value.' },
);

/**
 * `fields` plus the value details a param or a nested value may carry (JSON Schema keywords),
 * `self` for nesting. Called as a pure function so that a bundle without the schemas drops it.
 */
function withDetails<F extends object, T extends TSchema>(fields: F, self: T) {
  return {
    ...fields,
    enum: /* @__PURE__ */ Optional(
      /* @__PURE__ */ TArray(/* @__PURE__ */ Union([/* @__PURE__ */ TString(), /* @__PURE__ */ TNumber(), /* @__PURE__ */ TBoolean()]), {
        minItems: 1,
        description: 'The only values allowed (strings, numbers or booleans of the declared type).',
      }),
    ),
    items: /* @__PURE__ */ Optional(self),
    properties: /* @__PURE__ */ Optional(/* @__PURE__ */ TRecord(ANY_KEY, self, { description: 'For an object: its properties (no others are allowed).' })),
    format: /* @__PURE__ */ Optional(
      /* @__PURE__ */ TString({ description: 'A JSON Schema format shown to the model (date-time, email, uri, uuid ...); not checked.' }),
    ),
    minimum: /* @__PURE__ */ Optional(/* @__PURE__ */ TNumber()),
    maximum: /* @__PURE__ */ Optional(/* @__PURE__ */ TNumber()),
    minLength: /* @__PURE__ */ Optional(/* @__PURE__ */ TInteger({ minimum: 0 })),
    maxLength: /* @__PURE__ */ Optional(/* @__PURE__ */ TInteger({ minimum: 0 })),
    pattern: /* @__PURE__ */ Optional(
      /* @__PURE__ */ TString({
        description: 'An ECMAScript regular expression the string must contain a match of; refused when it could backtrack exponentially.',
      }),
    ),
    default: /* @__PURE__ */ Optional(
      /* @__PURE__ */ Unknown({ description: 'The value the server uses when the argument is not given; shown to the model, never sent by the client.' }),
    ),
  };
}

/**
 * TypeBox schema of a nested value (an array's `items`, an object's `properties`): a JSON Schema
 * subset — `type` (required), `description`, `enum`, `items`, `properties`, `required` (names),
 * `format`, `minimum`, `maximum`, `minLength`, `maxLength`, `pattern`, `default`.
 *
 * @example
 * ```ts
 * import { RcpValueSchema } from 'rcp-manifest/schema';
 * import { Value } from '@sinclair/typebox/value';
 * Value.Check(RcpValueSchema, { type: 'array', items: { type: 'string', enum: ['a', 'b'] } }); // true
 * ```
 */
export const RcpValueSchema = /* @__PURE__ */ Recursive(
  (Self) =>
    /* @__PURE__ */ TObject(
      /* @__PURE__ */ withDetails(
        {
          type: PARAM_TYPE,
          description: /* @__PURE__ */ Optional(/* @__PURE__ */ TString()),
          required: /* @__PURE__ */ Optional(
            /* @__PURE__ */ TArray(/* @__PURE__ */ TString(), { description: 'For an object: the properties that must be given.' }),
          ),
        },
        Self,
      ),
    ),
  { $id: 'RcpValue', title: 'RCP value schema', description: 'What a nested value may be (a subset of JSON Schema).' },
);

/**
 * TypeBox schema of one declared tool parameter.
 *
 * @example
 * ```ts
 * import { RcpParamSchema } from 'rcp-manifest/schema';
 * import { Value } from '@sinclair/typebox/value';
 * Value.Check(RcpParamSchema, { name: 'query', type: 'string', required: true }); // true
 * ```
 */
export const RcpParamSchema = /* @__PURE__ */ TObject(
  /* @__PURE__ */ withDetails(
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
            /* @__PURE__ */ Literal('file'),
          ],
          {
            description:
              'JSON type of the value; "file" (RCP 0.4): a reference to an attachment the host holds, which the client resolves to bytes and sends as a part of a multipart body.',
          },
        ),
      ),
      description: /* @__PURE__ */ Optional(/* @__PURE__ */ TString({ description: 'What the model is told about this argument.' })),
      required: /* @__PURE__ */ Optional(
        /* @__PURE__ */ TBoolean({ description: 'Whether the argument must be given. Default false; a param used in the URL path is always required.' }),
      ),
      requiredProperties: /* @__PURE__ */ Optional(
        /* @__PURE__ */ TArray(/* @__PURE__ */ TString(), {
          description: "For an object param: the properties that must be given (JSON Schema's `required`; a param's own `required` is a boolean).",
        }),
      ),
      filledBy: /* @__PURE__ */ Optional(
        /* @__PURE__ */ Literal('client', {
          description:
            "RCP 0.4, informational: the API expects the client to fill this param from the caller's context (a resolver), not the model. A hint for people and linters, never a reason to trust: the API checks the value it receives.",
        }),
      ),
      mediaTypes: /* @__PURE__ */ Optional(
        /* @__PURE__ */ TArray(/* @__PURE__ */ TString({ pattern: MEDIA_RANGE_PATTERN }), {
          minItems: 1,
          description: 'RCP 0.4, a file param only: the media types the file may have, "type/subtype" or "type/*", no parameters.',
        }),
      ),
      maxBytes: /* @__PURE__ */ Optional(
        /* @__PURE__ */ TInteger({ minimum: 1, description: 'RCP 0.4, a file param only: the largest file accepted, in bytes.' }),
      ),
      queryStyle: /* @__PURE__ */ Optional(
        /* @__PURE__ */ Union([/* @__PURE__ */ Literal('repeat'), /* @__PURE__ */ Literal('comma'), /* @__PURE__ */ Literal('deepObject')], {
          description:
            'RCP 0.4: how this param is written when it is the whole value of a query entry. "repeat" (default): an array repeats the key (k=a&k=b). "comma": an array is one entry, elements joined by commas (k=a,b). "deepObject": an object is written property by property (k[a]=1&k[b][c]=2), arrays inside by index.',
        }),
      ),
    },
    RcpValueSchema,
  ),
  { title: 'RCP param', description: 'One argument of a tool: declares a {{token}} used in url, queryParams, headers or body.' },
);

// Built outside the schema call: a template literal among a pure call's arguments counts as a side
// effect to bundlers, which then keep every schema (and TypeBox) in a browser bundle.
const TOOL_NAME_DESCRIPTION = `Unique tool name, ${TOOL_NAME_RULE}.`;

/**
 * TypeBox schema of one tool in a manifest.
 *
 * @example
 * ```ts
 * import { RcpToolSchema } from 'rcp-manifest/schema';
 * import { Value } from '@sinclair/typebox/value';
 * Value.Check(RcpToolSchema, { name: 'ping', description: 'Ping.', method: 'GET', url: '/ping' }); // true
 * ```
 */
export const RcpToolSchema = /* @__PURE__ */ TObject(
  {
    name: /* @__PURE__ */ TString({
      pattern: TOOL_NAME_PATTERN,
      description: TOOL_NAME_DESCRIPTION,
    }),
    description: /* @__PURE__ */ TString({
      pattern: NON_BLANK_PATTERN,
      description: 'What the model sees when deciding whether to call the tool. Not blank.',
    }),
    method: /* @__PURE__ */ Union(
      [
        /* @__PURE__ */ Literal('GET'),
        /* @__PURE__ */ Literal('POST'),
        /* @__PURE__ */ Literal('PUT'),
        /* @__PURE__ */ Literal('PATCH'),
        /* @__PURE__ */ Literal('DELETE'),
      ],
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
        description: 'Body template; its presence means the request has a body. A string that is exactly "{{x}}" becomes the typed argument.',
      }),
    ),
    bodyEncoding: /* @__PURE__ */ Optional(
      /* @__PURE__ */ Union([/* @__PURE__ */ Literal('json'), /* @__PURE__ */ Literal('form'), /* @__PURE__ */ Literal('multipart')], {
        description:
          'How the body is sent: "json" (default), "form", application/x-www-form-urlencoded (RCP 0.2), or "multipart", multipart/form-data with one part per field and a file part for each file param (RCP 0.4). A form or multipart body must be an object.',
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
    effects: /* @__PURE__ */ Optional(RcpEffectsSchema),
    responseMediaTypes: /* @__PURE__ */ Optional(
      /* @__PURE__ */ TArray(/* @__PURE__ */ TString({ pattern: MEDIA_RANGE_PATTERN }), {
        minItems: 1,
        description:
          'Media types the tool answers with besides JSON and text (RCP 0.3): "type/subtype" or "type/*", no parameters. A response of one of them reaches the model as a media part (the bytes, never decoded text).',
      }),
    ),
    pagination: /* @__PURE__ */ Optional(RcpPaginationSchema),
    idempotency: /* @__PURE__ */ Optional(RcpIdempotencySchema),
    stream: /* @__PURE__ */ Optional(RcpStreamSchema),
    operation: /* @__PURE__ */ Optional(RcpOperationSchema),
    group: /* @__PURE__ */ Optional(
      /* @__PURE__ */ TString({
        pattern: TOOL_NAME_PATTERN,
        description: "RCP 0.4: the name of the group this tool belongs to, one of the manifest's `groups` (same case).",
      }),
    ),
  },
  { title: 'RCP tool', description: 'One HTTP endpoint a model may call.' },
);

// Built outside the schema call, like TOOL_NAME_DESCRIPTION.
const GROUP_NAME_DESCRIPTION = `The group's name, ${TOOL_NAME_RULE}, unique regardless of case.`;

/**
 * TypeBox schema of a tool group (RCP 0.4): a name, written as a tool name, and a description of
 * what its tools are for. Tools name their group in `group`; adapters with a native notion of
 * groups (OpenAI Responses namespaces) and search use it. The description is the server's text:
 * untrusted, shown as such (SPEC §20.3).
 *
 * @example
 * ```ts
 * import { RcpGroupSchema } from 'rcp-manifest/schema';
 * import { Value } from '@sinclair/typebox/value';
 * Value.Check(RcpGroupSchema, { name: 'invoices', description: 'Invoices and their payments.' }); // true
 * ```
 */
export const RcpGroupSchema = /* @__PURE__ */ TObject(
  {
    name: /* @__PURE__ */ TString({ pattern: TOOL_NAME_PATTERN, description: GROUP_NAME_DESCRIPTION }),
    description: /* @__PURE__ */ Optional(
      /* @__PURE__ */ TString({ description: "What the group's tools are for (the server's text, untrusted). Omitted: none." }),
    ),
  },
  { title: 'RCP tool group', description: 'A named group of tools (RCP 0.4), such as an OpenAPI tag.' },
);

/**
 * TypeBox schema of a whole RCP manifest (`GET <manifest-url>`). This is the structural part of
 * validation; {@link parseManifest} adds the semantic rules (unique names, declared tokens, URL
 * shape, header names, JSONPath syntax, ...).
 *
 * @example
 * ```ts
 * import { RcpManifestSchema } from 'rcp-manifest/schema';
 * import { TypeCompiler } from '@sinclair/typebox/compiler';
 * const check = TypeCompiler.Compile(RcpManifestSchema);
 * check.Check({ rcpVersion: '0.1', tools: [] }); // true
 * ```
 */
export const RcpManifestSchema = /* @__PURE__ */ TObject(
  {
    rcpVersion: /* @__PURE__ */ Union(
      [/* @__PURE__ */ Literal('0.1'), /* @__PURE__ */ Literal('0.2'), /* @__PURE__ */ Literal('0.3'), /* @__PURE__ */ Literal('0.4')],
      {
        description:
          "Protocol version. A client refuses a version it does not support; a 0.1 manifest may not use what 0.2 added to the wire (form bodies, query auth), only 0.3 and later may declare response media types and pagination, and only 0.4 idempotency and query styles. Groups, streams and operations are read in a 0.4 manifest only (an older one's are ignored, with a warning). Effects and the OAuth hint (0.3) are informational and allowed in every version.",
      },
    ),
    auth: /* @__PURE__ */ Optional(RcpAuthSchema),
    groups: /* @__PURE__ */ Optional(
      /* @__PURE__ */ TArray(RcpGroupSchema, {
        description: 'RCP 0.4: the groups tools may name in their `group` (names unique regardless of case). Ignored in an older manifest.',
      }),
    ),
    tools: /* @__PURE__ */ TArray(RcpToolSchema, { description: 'The tools this server offers.' }),
  },
  {
    title: 'RCP manifest',
    description: 'The directory of tools an RCP server publishes at its manifest URL. Unknown fields are ignored.',
  },
);

/** Recursively readonly view of a manifest type (manifests returned by the parser are deep-frozen). */
type DeepReadonly<T> = T extends (infer E)[] ? readonly DeepReadonly<E>[] : T extends object ? { readonly [K in keyof T]: DeepReadonly<T[K]> } : T;

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
 * A header auth's OAuth hint (RCP 0.3): scopes, issuer and grant types, for people to read.
 *
 * @example
 * ```ts
 * const hint: RcpOAuthHint = { scopes: ['notes.read', 'notes.write'], issuer: 'https://login.example.com' };
 * ```
 */
export type RcpOAuthHint = DeepReadonly<Static<typeof RcpOAuthHintSchema>>;

/**
 * A tool's declared effects (RCP 0.3), as written in the manifest; `toolEffects` gives the
 * effective ones.
 *
 * @example
 * ```ts
 * const declared: RcpDeclaredEffects = { destructive: true };
 * ```
 */
export type RcpDeclaredEffects = DeepReadonly<Static<typeof RcpEffectsSchema>>;

/**
 * A tool's pagination (RCP 0.3): the next cursor's path, the param that takes it, and where the
 * response says whether there is more.
 *
 * @example
 * ```ts
 * const pagination: RcpPagination = { nextCursor: '@meta.next', param: 'cursor' };
 * ```
 */
export type RcpPagination = DeepReadonly<Static<typeof RcpPaginationSchema>>;

/**
 * A tool's idempotency (RCP 0.4): the header that carries the key and how long the server keeps one.
 *
 * @example
 * ```ts
 * const idempotency: RcpIdempotency = { header: 'Idempotency-Key', expiresAfterSeconds: 86400 };
 * ```
 */
export type RcpIdempotency = DeepReadonly<Static<typeof RcpIdempotencySchema>>;

/**
 * A tool's streamed answer (RCP 0.4): its format and how its events are collected into one result.
 *
 * @example
 * ```ts
 * const stream: RcpStream = { format: 'ndjson', collect: 'array', maxEvents: 500 };
 * ```
 */
export type RcpStream = DeepReadonly<Static<typeof RcpStreamSchema>>;

/**
 * A tool's long-running operation (RCP 0.4): where its 202 names the status URL and how a status
 * answer says done, failed and the result.
 *
 * @example
 * ```ts
 * const operation: RcpOperation = { statusUrl: 'header:Location', state: '@status', done: ['succeeded'], failed: ['failed'] };
 * ```
 */
export type RcpOperation = DeepReadonly<Static<typeof RcpOperationSchema>>;

/**
 * A tool group (RCP 0.4): its name and, when the manifest gives one, its description.
 *
 * @example
 * ```ts
 * const group: RcpGroup = { name: 'invoices', description: 'Invoices and their payments.' };
 * ```
 */
export type RcpGroup = DeepReadonly<Static<typeof RcpGroupSchema>>;

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
 * The type of a value a JSON Schema can describe: every param type but `file` (RCP 0.4), which is
 * a param type only — a nested value, and the model-facing schema of a file param, is never one.
 *
 * @example
 * ```ts
 * const type: RcpValueType = 'object';
 * ```
 */
export type RcpValueType = Exclude<RcpParamType, 'file'>;

/**
 * A nested value schema (an array param's `items`, an object param's `properties`).
 *
 * @example
 * ```ts
 * const items: RcpValue = { type: 'string', enum: ['open', 'closed'] };
 * ```
 */
export type RcpValue = DeepReadonly<Static<typeof RcpValueSchema>>;

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
