import type { RcpObservedResponse } from '../../client-types';
import { createRedactor, withoutCutSecrets } from '../redaction/redact';
import { cleanReasonPhrase, type WireResponse } from '../send/send';
import { decodeBodyText } from './decode-response';

/** Characters of a body an observer is shown. */
const OBSERVED_BODY_CHARS = 65_536;

/**
 * Hands the operator's observer the final response, every credential of the call redacted (the
 * retry after a 401 included); its throw is ignored. The body is decoded by its declared charset
 * (the client's one rule), and a body read only in part (an error's excerpt) loses the end a
 * credential the cut went through could be in, as a cut text answer does.
 */
export function observed(observer: (response: RcpObservedResponse) => void, response: WireResponse, credentials: readonly string[]): void {
  const redactor = createRedactor(credentials);
  const clean = (text: string): string => (redactor === undefined ? text : redactor.redact(text));
  const headers: Record<string, string> = {};
  for (const [name, value] of response.headers.entries()) headers[name.toLowerCase()] = clean(value);
  const text = decodeBodyText(response.body, response.headers.get('content-type') ?? '');
  const body = clean(response.complete ? text : withoutCutSecrets(text, credentials));
  const url = new URL(response.url);
  try {
    const returned: unknown = observer(
      Object.freeze({
        status: response.status,
        statusText: clean(cleanReasonPhrase(response.statusText)),
        url: clean(url.origin + url.pathname),
        headers: Object.freeze(headers),
        body: body.length > OBSERVED_BODY_CHARS ? body.slice(0, OBSERVED_BODY_CHARS) : body,
        truncated: !response.complete || body.length > OBSERVED_BODY_CHARS,
      }),
    );
    // An async observer's rejection is nobody's: it must not become an unhandled one.
    if (typeof (returned as PromiseLike<unknown> | undefined)?.then === 'function') (returned as Promise<unknown>).then(undefined, () => {});
  } catch {
    // An observer watches; it cannot change or fail the call.
  }
}
