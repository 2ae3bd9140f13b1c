/**
 * Where a URL template's origin comes from and where its path starts: the authority of an
 * absolute template (which can never hold a token or userinfo), or the client's `baseUrl` for a
 * path-absolute one. Runs at compile time.
 */
import { RcpError } from 'rcp-errors';
import { structureError } from './parse-in';
import { firstToken } from './scan-template';

/** The origin (when known at compile time) and the offset where the path (or the query) starts. */
export interface UrlStart {
  origin: string | undefined;
  pathStart: number;
}

const ABSOLUTE = /^https?:\/\//i;

/**
 * Splits a URL template (already checked for forbidden characters and token syntax) into its
 * origin and the offset of its path; throws `RCP_TEMPLATE_SYNTAX` when it is neither absolute
 * http(s) nor path-absolute.
 */
export function locatePath(url: string, baseUrl: string | undefined): UrlStart {
  const absolute = ABSOLUTE.exec(url);
  if (absolute) return absoluteStart(url, absolute[0].length);
  if (url.charCodeAt(0) === 0x2f /* / */) {
    if (url.charCodeAt(1) === 0x2f) {
      throw structureError('url', url, 0, 'a relative URL must start with exactly one "/" ("//host" would change the host)');
    }
    return { origin: baseUrl === undefined ? undefined : baseOrigin(baseUrl), pathStart: 0 };
  }
  throw structureError('url', url, 0, 'the URL must be absolute http(s)://... or relative, starting with "/"');
}

/** The origin of an absolute template, whose authority starts at `authorityStart` (after `scheme://`). */
function absoluteStart(url: string, authorityStart: number): UrlStart {
  let pathStart = url.length;
  for (let index = authorityStart; index < url.length; index++) {
    const c = url.charCodeAt(index);
    if (c === 0x2f /* / */ || c === 0x3f /* ? */) {
      pathStart = index;
      break;
    }
  }
  const early = firstToken(url, 0, pathStart);
  if (early !== -1) {
    const close = url.indexOf('}}', early);
    throw structureError(
      'url',
      url,
      early,
      `token "${url.slice(early + 2, close)}" is before the path: the scheme, userinfo, host and port can never contain tokens`,
    );
  }
  const at = url.indexOf('@', authorityStart);
  if (at !== -1 && at < pathStart) {
    throw structureError('url', url, at, 'userinfo ("user:password@") is not allowed in a URL template');
  }
  const origin = authorityOrigin(url.slice(0, pathStart));
  if (origin === undefined) throw structureError('url', url, authorityStart, 'the scheme and host do not form a valid URL');
  if (origin === '') throw structureError('url', url, authorityStart, 'the URL has no host');
  return { origin, pathStart };
}

/** Resolves `baseUrl` to an http(s) origin (throws `RCP_INVALID_OPTIONS` when it is not one). */
export function baseOrigin(baseUrl: string): string {
  let parsed: URL;
  try {
    parsed = new URL(baseUrl);
  } catch (error) {
    throw new RcpError('RCP_INVALID_OPTIONS', 'compileRequest: options.baseUrl is not a valid absolute URL', {
      cause: error,
    });
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new RcpError('RCP_INVALID_OPTIONS', 'compileRequest: options.baseUrl must be an http(s) URL');
  }
  return parsed.origin;
}

/** The origin of `scheme://authority` (with `/` appended), '' when it has no host, undefined when it does not parse. */
function authorityOrigin(authority: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(`${authority}/`);
  } catch {
    return undefined;
  }
  return parsed.hostname === '' ? '' : parsed.origin;
}
