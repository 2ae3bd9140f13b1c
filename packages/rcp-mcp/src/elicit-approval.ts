/**
 * A person's approval through MCP elicitation (SPEC §19; docs/behaviour.md): the gateway asks the host to show the
 * exact request and a one-field form (`approve: boolean`), and sends only on accept + true, bound
 * by `approve(review)`. Written once as a multi-round-trip `inputRequired` result: the MCP SDK
 * serves it to a 2026-07-28 client as `input_required` (the client retries with the answer and
 * our `requestState`) and to a 2025-era session as a pushed `elicitation/create` (its legacy shim).
 */
import { CLIENT_CAPABILITIES_META_KEY, acceptedContent, inputRequired, type InputRequiredResult, type ServerContext } from '@modelcontextprotocol/server';
import { RcpApprovalDeniedError, RcpApprovalMismatchError, approve, toModelText, type RcpApproval, type RcpApprovalRequest } from 'rcp-client';
import { terminalJson, terminalText } from 'rcp-internal';

/** The key of the one input request, and of its form's one field. */
const INPUT_KEY = 'rcp_approval';
const FIELD = 'approve';

/** What the model reads when a person said no (or closed the form). */
export const DECLINED_REASON = 'the person declined it in the MCP host';

/** The tool result's text when the host cannot ask (nothing was sent), in `toModelText`'s form like every other result. */
export const CANNOT_ASK_TEXT = toModelText({
  ok: false,
  error: {
    code: 'RCP_APPROVAL_REQUIRED',
    message: "The call needs a person's approval; this MCP host cannot ask (no elicitation support), so it was not made.",
  },
});

/**
 * Whether the host can answer a form elicitation on this request: the 2026-07-28 request's own
 * `clientCapabilities`, else what the 2025-era session declared at `initialize` (none on the
 * stateless HTTP legacy leg, which cannot receive a server-to-client request).
 */
export function canElicit(mcp: ServerContext, sessionCapabilities: { elicitation?: object } | undefined): boolean {
  const envelope: Readonly<Record<string, unknown>> | undefined = mcp.mcpReq.envelope;
  const perRequest = envelope?.[CLIENT_CAPABILITIES_META_KEY] as { elicitation?: object } | undefined;
  const declared = perRequest ?? sessionCapabilities;
  return typeof declared?.elicitation === 'object' && declared.elicitation !== null;
}

/**
 * The question: the exact request (resolver values in, the credential `[redacted]`), its text
 * made safe to show — every value escaped, no server text can forge a line or drive a terminal.
 */
export function askForApproval(review: RcpApprovalRequest): InputRequiredResult {
  const reason = review.reason === undefined ? '' : ` (${terminalText(review.reason)})`;
  const message = `${terminalText(review.tool)} needs your approval${reason}. It will send exactly this request:\n${terminalJson(review.request)}`;
  const state: RcpApproval = { tool: review.tool, digest: review.digest, id: review.id };
  return inputRequired({
    inputRequests: {
      [INPUT_KEY]: inputRequired.elicit({
        message,
        requestedSchema: {
          type: 'object',
          properties: { [FIELD]: { type: 'boolean', title: 'Send this request', description: 'Yes sends exactly the request shown; no sends nothing.' } },
          required: [FIELD],
        },
      }),
    },
    // Comes back attacker-controlled: the digest (an HMAC under the client's key) is what binds it.
    requestState: JSON.stringify(state),
  });
}

/**
 * On the round that carries our `requestState`: the approval to call with (the person accepted
 * and ticked yes), or the error the model reads instead — a denial (declined, cancelled, no) or a
 * mismatch (a state this gateway did not make). `undefined` on a first round.
 */
export function answerOf(
  mcp: ServerContext,
  tool: string,
): { approval: RcpApproval } | { error: RcpApprovalDeniedError | RcpApprovalMismatchError } | undefined {
  const raw: unknown = mcp.mcpReq.requestState();
  if (raw === undefined) return undefined;
  let approval: RcpApproval;
  try {
    approval = approve(JSON.parse(String(raw)) as RcpApproval);
  } catch {
    return { error: new RcpApprovalMismatchError(tool, 'the approval state is not one this gateway made') };
  }
  const content = acceptedContent(mcp.mcpReq.inputResponses, INPUT_KEY);
  if (content?.[FIELD] !== true) return { error: new RcpApprovalDeniedError(approval.tool, DECLINED_REASON) };
  return { approval };
}
