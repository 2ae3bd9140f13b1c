/**
 * Respond, the last step of a call (SPEC §11 step 7 and after, §25.3, §25.4): the answer decoded
 * (JSON, text, a media part, or refused), what must not pass for data refused, the mappings
 * applied, a credential the server echoed taken out, then the next page. Nothing here waits.
 */
import { RcpError } from 'rcp-errors';
import type { RcpExecuteResult, RcpMedia, RcpPage } from '../../call-outcome';
import type { RcpClientTool } from '../../client-tool';
import { RcpResponseError } from '../../response-error';
import type { BuiltRequest } from '../build/build-request';
import type { CompiledTool } from '../discovery/tool-registry';
import { createRedactor } from '../redaction/redact';
import type { SendResult } from '../send/send';
import { decodeResponse, withoutPartialCharacter } from './decode-response';
import { isHtmlMediaType, isJsonMediaType, mediaTypeLabel } from './media-type';
import { nextPage } from './next-page';
import { responseKind } from './response-kind';

/**
 * Characters dropped from the end of a cut text per character of the credential: the longest
 * form an encoder writes one character in (`\\\\u00eb`, a percent-encoded astral half) is
 * shorter, so a credential the cut went through is gone from what is left.
 */
const CUT_MARGIN_PER_CHARACTER = 12;

/** The result of a 2xx answer, or the typed error of one that must not pass for data. */
export function respond(tool: RcpClientTool, compiled: CompiledTool, result: SendResult, built: BuiltRequest, allowHtml: boolean): RcpExecuteResult {
  const credential = built.credential;
  const contentType = result.headers.get('content-type') ?? '';
  const page = (json: unknown): RcpPage | undefined =>
    nextPage(compiled, { headers: result.headers, url: result.url, json, args: built.args ?? {}, values: built.values });
  if (result.body.byteLength === 0) {
    // An empty body (204, Content-Length: 0) is "no data", whatever its type says.
    return withPage({ status: result.status, data: null, contentType }, page(undefined), credential);
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
  if (kind === 'media') return withPage(mediaResult(tool, compiled, result, mediaType, contentType), page(undefined), credential);
  const decoded = decodeResponse(result.truncated === true ? { ...result, body: withoutPartialCharacter(result.body, contentType) } : result);
  let data = decoded.data;
  let text = decoded.text;
  if (result.truncated === true && typeof data === 'string' && credential !== undefined) {
    // A credential the cut went through cannot be found whole: the end it could be in goes too.
    data = text = data.slice(0, Math.max(0, data.length - CUT_MARGIN_PER_CHARACTER * credential.length));
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
  const redactor = credential === undefined ? undefined : createRedactor([credential]);
  if (redactor?.test(text)) data = redactor.redactData(data);
  const out: RcpExecuteResult = { status: result.status, data, contentType: decoded.contentType };
  if (result.truncated === true) out.truncated = true;
  return withPage(out, page(kind === 'json' ? decoded.data : undefined), credential);
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

/** The result with its page, unless the page's arguments would hand the model the credential. */
function withPage(result: RcpExecuteResult, page: RcpPage | undefined, credential: string | undefined): RcpExecuteResult {
  if (page === undefined) return result;
  const redactor = credential === undefined ? undefined : createRedactor([credential]);
  const safe =
    page.nextArguments !== null && redactor?.test(JSON.stringify(page.nextArguments)) === true ? Object.freeze({ hasMore: true, nextArguments: null }) : page;
  result.page = safe;
  return result;
}
