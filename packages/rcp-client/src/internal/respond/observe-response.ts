import type { RcpObservedResponse } from '../../client-types';
import { createRedactor } from '../redaction/redact';
import { cleanReasonPhrase, type WireResponse } from '../send/send';

/** Characters of a body an observer is shown. */
const OBSERVED_BODY_CHARS = 65_536;
const UTF8 = new TextDecoder();

/** Hands the operator's observer the final response, the credential redacted; its throw is ignored. */
export function observed(observer: (response: RcpObservedResponse) => void, response: WireResponse, credential: string | undefined): void {
  const redactor = createRedactor(credential === undefined ? [] : [credential]);
  const clean = (text: string): string => (redactor === undefined ? text : redactor.redact(text));
  const headers: Record<string, string> = {};
  for (const [name, value] of response.headers.entries()) headers[name.toLowerCase()] = clean(value);
  const body = clean(UTF8.decode(response.body));
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
