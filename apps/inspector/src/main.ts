/*
 * The inspector page. Everything that touches the network or a secret runs in the `rcp inspect`
 * process (the real rcp-client); this page only shows what that process answers, and never holds
 * the credential (it comes from the CLI's --token-env).
 */
import { h, render, type ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';

interface Param {
  name: string;
  type: string;
  required: boolean;
  description: string;
  resolved: boolean;
  looksLikeIdentity: boolean;
}
interface Tool {
  name: string;
  description: string;
  method: string;
  url: string;
  params: Param[];
  inputSchema: unknown;
  /** The effective auth in words, with what an OAuth login needs (RCP 0.3 hint). */
  auth: string;
  effects: { readOnly: boolean; destructive: boolean; idempotent: boolean; openWorld: boolean };
  /** The tool's group (RCP 0.4): its name and the server's description of it (text, never markup); null for none. */
  group: { name: string; description: string } | null;
}

/** A tool's effects in words: read-only, or writes (destructive, idempotent), closed world. */
function effectsText(effects: Tool['effects']): string {
  const parts = [effects.readOnly ? 'read-only' : 'writes'];
  if (effects.destructive) parts.push('destructive');
  if (effects.idempotent && !effects.readOnly) parts.push('idempotent');
  if (!effects.openWorld) parts.push('closed world');
  return parts.join(', ');
}
interface Issue {
  path: string;
  message: string;
}
interface ManifestView {
  source: string;
  rcpVersion: string;
  tools: Tool[];
  warnings: Issue[];
  token: { env: string | null; set: boolean };
}
interface PreparedView {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: unknown;
}
/** The client's review of a call that needs a person (SPEC §19): nothing was sent. */
interface ReviewView {
  tool: string;
  reason?: string;
  request: PreparedView;
  digest: string;
  id: string;
}
interface CallView {
  prepared?: PreparedView;
  approval?: ReviewView;
  response?: { status: number; contentType: string; text: string };
  result?: { status: number; data: unknown };
  error?: { code: string; message: string };
}
interface HistoryEntry {
  tool: string;
  kind: 'prepare' | 'call' | 'confirm';
  outcome: string;
}

const session = document.querySelector('meta[name="rcp-session"]')?.getAttribute('content') ?? '';

async function api<T>(path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'x-rcp-session': session, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return (await response.json()) as T;
}

/** `a=b, c=d` → `{ a: 'b', c: 'd' }`. */
function pairs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of text.split(',')) {
    const at = entry.indexOf('=');
    if (at > 0) out[entry.slice(0, at).trim()] = entry.slice(at + 1).trim();
  }
  return out;
}

/**
 * The Context box as rcp's `--ctx param=value`: each named param is filled by the client with its value. Sent to
 * `rcp inspect` as a resolver per param reading the context key of the same name.
 */
function bindingsOf(contextText: string): { ctx: Record<string, string>; resolve: Record<string, string> } {
  const ctx = pairs(contextText);
  return { ctx, resolve: Object.fromEntries(Object.keys(ctx).map((param) => [param, param])) };
}
const resolveQuery = (contextText: string): string =>
  Object.keys(pairs(contextText))
    .map((param) => `${param}=${param}`)
    .join(',');

const json = (value: unknown): string => JSON.stringify(value, null, 2);

function Section(props: { title: string; id?: string; children?: ComponentChildren }) {
  return h('section', { class: 'card', id: props.id }, h('h3', null, props.title), props.children);
}

function App() {
  const [view, setView] = useState<ManifestView | { error: { code: string; message: string } } | undefined>();
  const [selected, setSelected] = useState<string | undefined>();
  const [args, setArgs] = useState('{}');
  const [ctx, setCtx] = useState('');
  const [call, setCall] = useState<CallView | undefined>();
  const [history, setHistory] = useState<HistoryEntry[]>([]);
  /** A Send waiting for the person's Yes: the exact body it was reviewed with, and the review. */
  const [pending, setPending] = useState<{ body: Record<string, unknown>; review: ReviewView } | undefined>();

  const load = (contextText: string): void => {
    void api<ManifestView>(`/api/manifest?resolve=${encodeURIComponent(resolveQuery(contextText))}`).then((next) => {
      setView(next);
      if ('tools' in next && (selected === undefined || !next.tools.some((tool) => tool.name === selected))) setSelected(next.tools[0]?.name);
    });
  };
  useEffect(() => load(''), []);

  if (view === undefined) return h('p', null, 'Loading…');
  if ('error' in view) return h('p', { class: 'error', id: 'load-error' }, `${view.error.code}: ${view.error.message}`);
  const tool = view.tools.find((entry) => entry.name === selected);

  const post = (kind: 'prepare' | 'call', body: Record<string, unknown>, entry: HistoryEntry['kind']): void => {
    void api<CallView>(`/api/${kind}`, body).then((answer) => {
      setCall(answer);
      // A call that changes data: the rcp process sent nothing; ask before anything is sent.
      if (answer.approval) setPending({ body, review: answer.approval });
      const outcome = answer.approval
        ? 'waiting for your approval (nothing sent)'
        : answer.error
          ? answer.error.code
          : answer.result
            ? `HTTP ${answer.result.status}`
            : 'prepared';
      setHistory((entries) => [{ tool: String(body['tool']), kind: entry, outcome }, ...entries].slice(0, 50));
    });
  };
  const run = (kind: 'prepare' | 'call'): void => {
    if (tool === undefined) return;
    setPending(undefined);
    post(kind, { tool: tool.name, args, ...bindingsOf(ctx) }, kind);
  };
  /** Yes: the same call again, bound to the review shown — exactly that request is sent, once. */
  const confirm = (): void => {
    if (pending === undefined) return;
    const { body, review } = pending;
    setPending(undefined);
    post('call', { ...body, approval: { tool: review.tool, digest: review.digest, id: review.id } }, 'confirm');
  };
  const refuse = (): void => {
    if (pending === undefined) return;
    setHistory((entries) => [{ tool: pending.review.tool, kind: 'confirm' as const, outcome: 'not sent' }, ...entries].slice(0, 50));
    setPending(undefined);
    setCall(undefined);
  };

  return h(
    'div',
    null,
    h('header', null, h('strong', null, 'RCP inspector'), h('small', null, `${view.source} — RCP ${view.rcpVersion}`)),
    h(
      'div',
      { class: 'layout' },
      h(
        'nav',
        null,
        h(
          Section,
          { title: `Tools (${view.tools.length})` },
          view.tools.map((entry) =>
            h(
              'button',
              {
                class: `tool${entry.name === selected ? ' active' : ''}`,
                onClick: () => (setSelected(entry.name), setCall(undefined), setPending(undefined)),
                'data-tool': entry.name,
              },
              h('strong', null, entry.name),
              ` ${entry.method}`,
              entry.group === null ? null : h('div', { class: 'group' }, entry.group.name),
              entry.params.some((param) => param.resolved) ? h('div', { class: 'hidden' }, 'has hidden params') : null,
            ),
          ),
        ),
        h(
          Section,
          { title: 'Context', id: 'context' },
          h('label', { for: 'ctx' }, 'param=value, … — filled by the client, hidden from the model (as rcp --ctx param=value)'),
          h('input', { id: 'ctx', value: ctx, onInput: (event: Event) => setCtx((event.target as HTMLInputElement).value) }),
          h('button', { class: 'primary', id: 'apply-ctx', onClick: () => load(ctx) }, 'Apply'),
        ),
        h(
          Section,
          { title: `Warnings (${view.warnings.length})`, id: 'warnings' },
          view.warnings.map((warning) => h('p', { class: 'warning' }, h('code', null, warning.path), ` ${warning.message}`)),
        ),
      ),
      tool === undefined
        ? h('p', null, 'No tools.')
        : h(
            'div',
            null,
            h(
              Section,
              { title: `${tool.name} — ${tool.method} ${tool.url}`, id: 'tool' },
              h('p', null, tool.description),
              h('p', { id: 'auth' }, 'Auth: ', tool.auth),
              h('p', { id: 'effects' }, 'Effects: ', effectsText(tool.effects)),
              tool.group === null
                ? null
                : h('p', { id: 'group' }, 'Group: ', tool.group.name, tool.group.description === '' ? '' : ` — ${tool.group.description}`),
              h(
                'ul',
                { id: 'params' },
                tool.params.map((param) =>
                  h(
                    'li',
                    { 'data-param': param.name },
                    h('code', null, param.name),
                    `: ${param.type}${param.required ? ', required' : ''}`,
                    param.resolved ? h('span', { class: 'hidden' }, ' [filled by the client, hidden from the model]') : null,
                    param.looksLikeIdentity ? h('span', { class: 'warning' }, ' [looks like an identity, but the model fills it]') : null,
                    param.description ? ` — ${param.description}` : '',
                  ),
                ),
              ),
              h('label', null, 'What the model sees (input schema)'),
              h('pre', { id: 'schema' }, json(tool.inputSchema)),
            ),
            h(
              Section,
              { title: 'Try a call', id: 'try' },
              h('label', { for: 'args' }, 'Arguments (JSON, as the model would send them)'),
              h('textarea', { id: 'args', rows: 4, value: args, onInput: (event: Event) => setArgs((event.target as HTMLTextAreaElement).value) }),
              h(
                'p',
                { id: 'token' },
                view.token.env === null
                  ? 'No credential (start rcp inspect with --token-env NAME to send one).'
                  : `Credential from $${view.token.env}${view.token.set ? '' : ' (not set!)'} — kept by rcp inspect, never sent to this page.`,
              ),
              h('button', { class: 'primary', id: 'prepare', onClick: () => run('prepare') }, 'Prepare (send nothing)'),
              h('button', { class: 'primary', id: 'send', onClick: () => run('call') }, 'Send'),
            ),
            pending === undefined
              ? null
              : h(
                  Section,
                  { title: `${pending.review.tool} needs your approval`, id: 'confirm' },
                  h(
                    'p',
                    { id: 'confirm-reason' },
                    `${pending.review.reason ?? 'The approval policy asks for it.'} Nothing has been sent. It will send exactly this request (credential redacted):`,
                  ),
                  h('pre', { id: 'confirm-request' }, json(pending.review.request)),
                  h('button', { class: 'primary', id: 'confirm-yes', onClick: confirm }, 'Yes, send it'),
                  h('button', { id: 'confirm-no', onClick: refuse }, 'No'),
                ),
            call === undefined || call.approval !== undefined
              ? null
              : h(
                  Section,
                  { title: 'Result', id: 'result' },
                  call.prepared ? h('div', null, h('label', null, 'Request (credential redacted)'), h('pre', { id: 'prepared' }, json(call.prepared))) : null,
                  call.response
                    ? h(
                        'div',
                        null,
                        h('label', null, `Response: HTTP ${call.response.status} ${call.response.contentType}`),
                        h('pre', { id: 'response' }, call.response.text),
                      )
                    : null,
                  call.result ? h('div', null, h('label', null, 'Result (after response mappings)'), h('pre', { id: 'data' }, json(call.result.data))) : null,
                  call.error ? h('p', { class: 'error', id: 'call-error' }, `${call.error.code}: ${call.error.message}`) : null,
                ),
            h(
              Section,
              { title: 'History', id: 'history' },
              history.map((entry) => h('div', { class: 'entry' }, `${entry.kind} ${entry.tool}: ${entry.outcome}`)),
            ),
          ),
    ),
  );
}

const root = document.getElementById('app')!;
root.textContent = ''; // the static "Loading…" placeholder
render(h(App, null), root);
