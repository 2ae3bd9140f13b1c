/**
 * Respond, the last step of a call (SPEC §11 step 7 and after, §18.3, §18.4): the answer decoded
 * (JSON, text, a media part, or refused), what must not pass for data refused, the mappings
 * applied, a credential the server echoed taken out, then the next page. Nothing here waits.
 */
import { RcpError } from 'rcp-errors';
import type { RcpExecuteResult, RcpMedia, RcpPage } from '../../call-outcome';
import type { RcpClientTool } from '../../client-tool';
import { RcpResponseError } from '../../response-error';
import type { BuiltRequest } from '../build/build-request';
import type { CompiledTool } from '../discovery/tool-registry';
import { createRedactor, withoutCutSecrets, type Redactor } from '../redaction/redact';
import type { SendResult } from '../send/send';
import { decodeResponse, withoutPartialCharacter } from './decode-response';
import { isHtmlMediaType, isJsonMediaType, mediaTypeLabel } from './media-type';
import { nextPage } from './next-page';
import type { CollectedStream } from './stream-plan';
import { responseKind } from './response-kind';

/**
 * The result of a 2xx answer, or the typed error of one that must not pass for data.
 * `credentials` are those of every attempt of the call (the retry after a 401 included): a
 * server may echo any of them.
 */
export function respond(
  tool: RcpClientTool,
  compiled: CompiledTool,
  result: SendResult,
  built: BuiltRequest,
  credentials: readonly string[],
  allowHtml: boolean,
): RcpExecuteResult {
  const redactor = createRedactor(credentials);
  const contentType = result.headers.get('content-type') ?? '';
  const page = (json: unknown): RcpPage | undefined =>
    nextPage(compiled, { headers: result.headers, url: result.url, json, args: built.args ?? {}, values: built.values });
  if (result.collected !== undefined) return streamed(compiled, result, result.collected, contentType, redactor);
  if (result.body.byteLength === 0) {
    // An empty body (204, Content-Length: 0) is "no data", whatever its type says.
    return withPage({ status: result.status, data: null, contentType }, page(undefined), redactor);
  }
  if (!allowHtml && isHtmlMediaType(contentType)) {
    throw new RcpError(
      'RCP_INVALID_RESPONSE',
      `Tool "${tool.name}" was answered with an HTML page (${mediaTypeLabel(contentType)}), not data: ` +
        `a login wall or a proxy's error page? (set "allowHtmlResponses" to accept HTML as text)`,
    );
  }
  const { kind, mediaType } = responseKind(contentType, result.body, compiled.mediaRanges);
  if (kind === 'refused') {
    throw new RcpResponseError(
      'media-not-allowed',
      `Tool "${tool.name}" was answered with ${mediaTypeLabel(mediaType)}, which the client does not pass on (option "mediaTypes", or the tool's "responseMediaTypes")`,
      {
        tool: tool.name,
        mediaType,
      },
    );
  }
  if (kind === 'media') return withPage(mediaResult(tool, compiled, result, mediaType, contentType), page(undefined), redactor);
  const decoded = decodeResponse(result.truncated === true ? { ...result, body: withoutPartialCharacter(result.body, contentType) } : result);
  let data = decoded.data;
  let text = decoded.text;
  if (result.truncated === true && typeof data === 'string') {
    // A credential the cut went through cannot be found whole: the end it could be in goes too.
    data = text = withoutCutSecrets(data, credentials);
  }
  if (compiled.mappings !== undefined) {
    if (!isJsonMediaType(decoded.contentType)) {
      throw new RcpError(
        'RCP_INVALID_RESPONSE',
        `Tool "${tool.name}" has responseMappings but the response is not JSON (${mediaTypeLabel(decoded.contentType)})`,
      );
    }
    data = compiled.mappings.apply(data);
  }
  // A server that echoes the credential in its answer does not hand it to the model (SPEC §14):
  // looked for in the body as sent (every encoding), taken out of the data only when found there.
  if (redactor?.test(text)) data = redactor.redactData(data);
  const out: RcpExecuteResult = { status: result.status, data, contentType: decoded.contentType };
  if (result.truncated === true) out.truncated = true;
  return withPage(out, page(kind === 'json' ? decoded.data : undefined), redactor);
}

/**
 * A streamed answer's collected value (SPEC §20.6): the mappings applied to it (never to a
 * `concat`, whose text the manifest check keeps them from), a credential the server echoed
 * taken out, `truncated` when the stream was cut.
 */
function streamed(
  compiled: CompiledTool,
  result: SendResult,
  collected: CollectedStream,
  contentType: string,
  redactor: Redactor | undefined,
): RcpExecuteResult {
  let data = collected.data;
  if (compiled.mappings !== undefined && compiled.stream?.collect !== 'concat') data = compiled.mappings.apply(data);
  if (redactor?.test(typeof data === 'string' ? data : (JSON.stringify(data) ?? ''))) data = redactor.redactData(data);
  const out: RcpExecuteResult = { status: result.status, data, contentType, events: collected.events };
  if (collected.truncated) out.truncated = true;
  return out;
}

/** A media part (the bytes as they came), within the tool's size limit and without mappings. */
function mediaResult(tool: RcpClientTool, compiled: CompiledTool, result: SendResult, mediaType: string, contentType: string): RcpExecuteResult {
  if (compiled.mappings !== undefined) {
    throw new RcpError('RCP_INVALID_RESPONSE', `Tool "${tool.name}" has responseMappings but the response is not JSON (${mediaTypeLabel(mediaType)})`);
  }
  const size = result.body.byteLength;
  if (size > compiled.maxMediaBytes) {
    throw new RcpResponseError(
      'media-too-large',
      `Tool "${tool.name}" was answered with ${mediaTypeLabel(mediaType)} of ${size} bytes, more than the ${compiled.maxMediaBytes} the client passes on (maxMediaBytes)`,
      {
        tool: tool.name,
        mediaType,
        size,
        limit: compiled.maxMediaBytes,
      },
    );
  }
  const media: RcpMedia = Object.freeze({ mediaType, bytes: result.body });
  return { status: result.status, data: null, contentType, media };
}

/** The result with its page, unless the page's arguments would hand the model a credential. */
function withPage(result: RcpExecuteResult, page: RcpPage | undefined, redactor: Redactor | undefined): RcpExecuteResult {
  if (page === undefined) return result;
  const safe =
    page.nextArguments !== null && redactor?.test(JSON.stringify(page.nextArguments)) === true ? Object.freeze({ hasMore: true, nextArguments: null }) : page;
  result.page = safe;
  return result;
}
