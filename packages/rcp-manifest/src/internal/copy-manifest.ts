import type { RcpManifest } from '../manifest-schema';
import { freezeJsonCopy } from './json-tree';
import { isJsonObject, own } from './validate-manifest';

type JsonObject = Record<string, unknown>;

/** Copies the listed fields that are present (own and not undefined), in the listed order. */
function pick(source: JsonObject, keys: readonly string[], copy: (key: string, value: unknown) => unknown = (_, v) => v): JsonObject {
  const out: JsonObject = {};
  for (const key of keys) {
    const value = own(source, key);
    if (value !== undefined) out[key] = copy(key, value);
  }
  return out;
}

function copyAuth(auth: unknown): unknown {
  const source = auth as JsonObject;
  return Object.freeze(own(source, 'type') === 'header' ? pick(source, ['type', 'name', 'scheme']) : { type: 'none' });
}

function copyParam(param: unknown): unknown {
  return Object.freeze(pick(param as JsonObject, ['name', 'type', 'description', 'required']));
}

function copyTool(tool: unknown): unknown {
  return Object.freeze(
    pick(
      tool as JsonObject,
      ['name', 'description', 'method', 'url', 'params', 'queryParams', 'headers', 'body', 'auth', 'responseMappings'],
      (key, value) => {
        switch (key) {
          case 'params':
            return Object.freeze((value as unknown[]).map(copyParam));
          case 'auth':
            return copyAuth(value);
          case 'queryParams':
          case 'headers':
          case 'responseMappings':
          case 'body':
            return freezeJsonCopy(value);
          default:
            return value;
        }
      },
    ),
  );
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
