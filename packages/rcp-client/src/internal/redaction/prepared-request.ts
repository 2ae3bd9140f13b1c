import type { RcpPreparedRequest } from '../../client-types';
import type { BuiltRequest } from '../build/build-request';
import type { CompiledTool } from '../discovery/tool-registry';
import { REDACTED } from './redact';

/** What `prepare` (and an approval review) shows of a built request: the credential `[redacted]`, the body before serialisation. */
export function preparedOf(compiled: CompiledTool, built: BuiltRequest): RcpPreparedRequest {
  const headers = { ...built.request.headers };
  if (built.credential !== undefined && compiled.auth!.auth.type === 'header') headers[compiled.auth!.auth.name] = compiled.auth!.prefix + REDACTED;
  // A multipart body's boundary is random per request: shown (and digested) without it.
  if (compiled.upload !== undefined && headers['content-type'] !== undefined) headers['content-type'] = 'multipart/form-data';
  const prepared: RcpPreparedRequest = { method: built.request.method, url: built.shownUrl, headers };
  if (built.body !== undefined) prepared.body = built.body;
  return prepared;
}
