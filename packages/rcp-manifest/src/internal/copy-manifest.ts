import { isRecord } from 'rcp-internal';
import type { RcpManifest, RcpTool } from '../manifest-schema';
import {
  EFFECT_FIELDS,
  GROUP_FIELDS,
  IDEMPOTENCY_FIELDS,
  STREAM_FIELDS,
  OPERATION_FIELDS,
  OAUTH_HINT_FIELDS,
  PAGINATION_FIELDS,
  PARAM_FIELDS,
  TOOL_FIELDS,
  VALUE_FIELDS,
} from '../manifest-patterns';
import { freezeJsonCopy } from './json-tree';
import { own } from './validate-manifest';

type JsonObject = Record<string, unknown>;

function copyAuth(auth: unknown): unknown {
  const source = auth as JsonObject;
  const type = own(source, 'type');
  if (type === 'query') return Object.freeze({ type, name: own(source, 'name') });
  if (type !== 'header') return Object.freeze({ type: 'none' });
  const out: JsonObject = { type: 'header' };
  const name = own(source, 'name');
  if (name !== undefined) out['name'] = name;
  const scheme = own(source, 'scheme');
  if (scheme !== undefined) out['scheme'] = scheme;
  const hint = own(source, 'oauth');
  if (hint !== undefined) out['oauth'] = copyKnown(hint, OAUTH_HINT_FIELDS);
  return Object.freeze(out);
}

/** A frozen copy of an object's known fields only, in that order. */
function copyKnown(value: unknown, fields: readonly string[]): unknown {
  const source = value as JsonObject;
  const out: JsonObject = {};
  for (const key of fields) {
    const field = own(source, key);
    if (field !== undefined) out[key] = freezeJsonCopy(field);
  }
  return Object.freeze(out);
}

/** A param or a nested value schema with only its known fields, nested values copied the same way. */
function copySchema(schema: unknown, fields: readonly string[]): unknown {
  const source = schema as JsonObject;
  const out: JsonObject = {};
  for (const key of fields) {
    const value = own(source, key);
    if (value === undefined) continue;
    if (key === 'items') out[key] = copySchema(value, VALUE_FIELDS);
    else if (key === 'properties') {
      const properties: JsonObject = {};
      for (const name of Object.keys(value as JsonObject)) {
        Object.defineProperty(properties, name, { value: copySchema((value as JsonObject)[name], VALUE_FIELDS), enumerable: true });
      }
      out[key] = Object.freeze(properties);
    } else out[key] = freezeJsonCopy(value);
  }
  return Object.freeze(out);
}

function copyParam(param: unknown): unknown {
  return copySchema(param, PARAM_FIELDS);
}

/**
 * A deep-frozen copy of one validated tool holding only the fields RCP defines, in that order;
 * `grouped`: the manifest is 0.4 (an older one's `group` is ignored, so dropped).
 */
function copyTool(tool: unknown, grouped: boolean): RcpTool {
  const source = tool as JsonObject;
  const out: JsonObject = {};
  for (const key of TOOL_FIELDS) {
    const value = own(source, key);
    if (value === undefined || ((key === 'group' || key === 'stream' || key === 'operation') && !grouped)) continue;
    switch (key) {
      case 'params':
        out[key] = Object.freeze((value as unknown[]).map(copyParam));
        break;
      case 'auth':
        out[key] = copyAuth(value);
        break;
      case 'effects':
        out[key] = copyKnown(value, EFFECT_FIELDS);
        break;
      case 'pagination':
        out[key] = copyKnown(value, PAGINATION_FIELDS);
        break;
      case 'idempotency':
        out[key] = copyKnown(value, IDEMPOTENCY_FIELDS);
        break;
      case 'stream':
        out[key] = copyKnown(value, STREAM_FIELDS);
        break;
      case 'operation':
        out[key] = copyKnown(value, OPERATION_FIELDS);
        break;
      case 'responseMediaTypes':
      case 'queryParams':
      case 'headers':
      case 'responseMappings':
      case 'body':
        out[key] = freezeJsonCopy(value);
        break;
      default:
        out[key] = value;
    }
  }
  return Object.freeze(out) as unknown as RcpTool;
}

/**
 * A deep-frozen copy of a validated manifest holding only the fields RCP defines (unknown
 * fields dropped). Nothing is defaulted: an absent optional field stays absent.
 */
export function copyManifest(manifest: JsonObject): RcpManifest {
  const version = own(manifest, 'rcpVersion');
  const out: JsonObject = { rcpVersion: version };
  const auth = own(manifest, 'auth');
  if (auth !== undefined && isRecord(auth)) out['auth'] = copyAuth(auth);
  // Groups are read in a 0.4 manifest only (SPEC §20.3): an older one's are dropped with the tools' `group`.
  const grouped = version === '0.4';
  const groups = own(manifest, 'groups');
  if (grouped && Array.isArray(groups)) out['groups'] = Object.freeze(groups.map((group) => copyKnown(group, GROUP_FIELDS)));
  out['tools'] = Object.freeze((own(manifest, 'tools') as unknown[]).map((tool) => copyTool(tool, grouped)));
  return Object.freeze(out) as unknown as RcpManifest;
}
