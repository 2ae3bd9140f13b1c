import type { RcpManifest, RcpTool } from '../manifest-schema';
import { PARAM_FIELDS, TOOL_FIELDS } from '../manifest-patterns';
import { freezeJsonCopy } from './json-tree';
import { isJsonObject, own } from './validate-manifest';

type JsonObject = Record<string, unknown>;

function copyAuth(auth: unknown): unknown {
  const source = auth as JsonObject;
  if (own(source, 'type') !== 'header') return Object.freeze({ type: 'none' });
  const out: JsonObject = { type: 'header' };
  const name = own(source, 'name');
  if (name !== undefined) out['name'] = name;
  const scheme = own(source, 'scheme');
  if (scheme !== undefined) out['scheme'] = scheme;
  return Object.freeze(out);
}


function copyParam(param: unknown): unknown {
  const source = param as JsonObject;
  const out: JsonObject = {};
  for (const key of PARAM_FIELDS) {
    const value = own(source, key);
    if (value !== undefined) out[key] = value;
  }
  return Object.freeze(out);
}


/** A deep-frozen copy of one validated tool holding only the fields RCP 0.1 defines, in that order. */
export function copyTool(tool: unknown): RcpTool {
  const source = tool as JsonObject;
  const out: JsonObject = {};
  for (const key of TOOL_FIELDS) {
    const value = own(source, key);
    if (value === undefined) continue;
    switch (key) {
      case 'params':
        out[key] = Object.freeze((value as unknown[]).map(copyParam));
        break;
      case 'auth':
        out[key] = copyAuth(value);
        break;
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
 * A deep-frozen copy of a validated manifest holding only the fields RCP 0.1 defines (unknown
 * fields dropped). Nothing is defaulted: an absent optional field stays absent.
 */
export function copyManifest(manifest: JsonObject): RcpManifest {
  const out: JsonObject = { rcpVersion: own(manifest, 'rcpVersion') };
  const auth = own(manifest, 'auth');
  if (auth !== undefined && isJsonObject(auth)) out['auth'] = copyAuth(auth);
  out['tools'] = Object.freeze((own(manifest, 'tools') as unknown[]).map(copyTool));
  return Object.freeze(out) as unknown as RcpManifest;
}
