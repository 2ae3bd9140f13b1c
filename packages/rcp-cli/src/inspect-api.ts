import type { IncomingMessage } from 'node:http';
import {
  approve,
  describeAuth,
  isRcpError,
  type RcpApproval,
  type RcpApprovalRequiredError,
  type RcpClient,
  type RcpClientTool,
  type RcpDiscovery,
  type RcpObservedResponse,
} from 'rcp-client';
import { describeFailure } from './command-line';
import { readJson, stringMap, type Json } from './inspect-http';

/** Characters of a tool response the page is shown (the client's own cap still applies to the call). */
const SHOWN_RESPONSE_CHARS = 64 * 1024;

/** What the inspector's API answers from: the source, and a client per request (sharing one approval ledger). */
export interface InspectorApi {
  readonly source: string;
  readonly tokenEnv: string | undefined;
  /** Whether the process holds a credential (the page is told whether, never what). */
  readonly hasCredentials: boolean;
  /**
   * A client and its discovery, with the page's bindings (`param` → context key) added to the
   * process's. Every client it opens shares one approval secret and one approval ledger.
   */
  open(resolve: Record<string, string>): Promise<{ client: RcpClient; discovery: RcpDiscovery }>;
}

/** An API answer: its status and JSON body. */
export interface ApiAnswer {
  readonly status: number;
  readonly body: unknown;
}

/** A failure as the page shows it: in the command line's words (the flags, the server's reason). */
export function errorOf(error: unknown, credentials: boolean, tool?: RcpClientTool): { code: string; message: string } {
  const { code, message } = describeFailure(error, { credentials, ...(tool !== undefined && { tool }) });
  return { code: code ?? 'UNKNOWN_ERROR', message };
}

/** `GET /api/manifest?resolve=param=key,…`: the tools as the page shows them, with the warnings. */
export async function manifestAnswer(api: InspectorApi, url: URL): Promise<ApiAnswer> {
  try {
    const resolve = Object.fromEntries(
      (url.searchParams.get('resolve') ?? '')
        .split(',')
        .map((entry) => entry.split('=').map((part) => part.trim()))
        .filter((entry): entry is [string, string] => entry.length === 2 && entry[0] !== '' && entry[1] !== ''),
    );
    const { discovery } = await api.open(resolve);
    const body = {
      source: api.source,
      rcpVersion: discovery.manifest.rcpVersion,
      tools: discovery.tools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        method: tool.method,
        url: tool.url,
        params: tool.params,
        inputSchema: tool.inputSchema,
        // What a login needs (RCP 0.3 OAuth hint) and what a call does (effects): shown, never acted on.
        auth: describeAuth(tool.auth),
        effects: tool.effects,
        // RCP 0.4: the tool's group (the page shows the server's description as text).
        group: tool.group ?? null,
      })),
      warnings: discovery.warnings,
      token: { env: api.tokenEnv ?? null, set: api.hasCredentials },
    };
    return { status: 200, body };
  } catch (error) {
    return { status: 200, body: { error: errorOf(error, api.hasCredentials) } };
  }
}

/**
 * `POST /api/prepare` and `POST /api/call`: the request prepared (credential redacted), and for
 * a call its result and the response as the client read it — or, for a call that changes data,
 * the review the page asks about (nothing sent).
 */
export async function callAnswer(api: InspectorApi, req: IncomingMessage, call: boolean): Promise<ApiAnswer> {
  if (!String(req.headers['content-type']).startsWith('application/json')) return { status: 415, body: { error: 'JSON only' } };
  let body: Json;
  try {
    body = await readJson(req);
  } catch (error) {
    return { status: 400, body: { error: errorOf(error, api.hasCredentials) } };
  }
  const answer: Json = {};
  let tool: RcpClientTool | undefined;
  try {
    const { client, discovery } = await api.open(stringMap(body['resolve']));
    tool = discovery.tool(String(body['tool']));
    const ctx = stringMap(body['ctx']);
    answer['prepared'] = await client.prepare(tool, body['args'], ctx);
    if (call) {
      // The client's own transport and checks make the call; the page is shown the final
      // response as the client read it, the credential redacted by the client.
      const observeResponse = (response: RcpObservedResponse): void => {
        answer['response'] = {
          status: response.status,
          contentType: response.headers['content-type'] ?? '',
          text: response.body.slice(0, SHOWN_RESPONSE_CHARS),
        };
      };
      // The page's Yes carries the review it was shown: the client takes exactly that request, once
      // (claimed in the ledger every client of this inspector shares), or nothing.
      const approval = body['approval'] === undefined ? undefined : approve(body['approval'] as RcpApproval);
      const result = await client.execute(tool, body['args'], ctx, { observeResponse, ...(approval !== undefined && { approval }) });
      answer['result'] = { status: result.status, data: result.data };
    }
  } catch (error) {
    // A call that changes data: nothing was sent; the page shows the request and asks.
    if (isRcpError(error, 'RCP_APPROVAL_REQUIRED')) answer['approval'] = (error as RcpApprovalRequiredError).approval;
    else answer['error'] = errorOf(error, api.hasCredentials, tool);
  }
  return { status: 200, body: answer };
}
