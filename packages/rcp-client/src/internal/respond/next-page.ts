/**
 * Whether a result has a next page and the exact arguments that ask for it (SPEC §18.4): from
 * the tool's declared pagination (RCP 0.3: a cursor in the JSON answer and the param that takes
 * it), else from a `Link: <…>; rel="next"` header, mapped back to the tool's params only where
 * rendering those arguments gives exactly the linked URL. The next URL itself is never handed
 * on: it may hold the credential or a resolver's value.
 */
import { hasType, type RcpParamType } from 'rcp-manifest';
import { scalarFromText } from 'rcp-internal';
import type { RcpPage } from '../../call-outcome';
import { nextLinkTarget } from './link-header';
import type { ResponseHeaders } from '../send/transport-types';
import { checkArguments, requestOf, type CompiledTool, type QueryBinding } from '../discovery/tool-registry';

/** What the page rule reads of one call and its answer. */
export interface PageSource {
  readonly headers: ResponseHeaders;
  /** The URL that answered (after redirects). */
  readonly url: string;
  /** The parsed JSON body before mappings, or `undefined` when the answer is not JSON. */
  readonly json: unknown;
  /** The model's validated arguments (declared params only). */
  readonly args: Readonly<Record<string, unknown>>;
  /** Every value the request was rendered with (the model's and the resolvers'). */
  readonly values: Readonly<Record<string, unknown>>;
}

/** Marks a value that cannot be given as the param's type. */
const NO_VALUE: unique symbol = Symbol('rcp.no-value');

/** A query value (or a cursor) as a value of the param's type, or {@link NO_VALUE}. */
function asParamValue(value: unknown, type: RcpParamType): unknown {
  if (type === 'string') return typeof value === 'string' ? value : typeof value === 'number' && Number.isFinite(value) ? String(value) : NO_VALUE;
  if (type === 'array' || type === 'object' || type === 'file') return NO_VALUE; // a file reference is never a next page's value
  // A number or boolean as it is, or read from text by rcp-manifest's rule; then its type's test.
  // Text must read back as itself ("10", not "1e1" or "10.0"): the next call sends what the server gave.
  const read = typeof value === 'string' ? scalarFromText(type, value) : value;
  if (typeof value === 'string' && String(read) !== value) return NO_VALUE;
  return read !== undefined && hasType(type, read) ? read : NO_VALUE;
}

/** The tool's argument check as a test: the checked copy, or undefined when it refuses. */
function checked(compiled: CompiledTool, args: Record<string, unknown>): Readonly<Record<string, unknown>> | undefined {
  try {
    return Object.freeze({ ...checkArguments(compiled, args) });
  } catch {
    return undefined;
  }
}

const MORE_UNASKABLE: RcpPage = Object.freeze({ hasMore: true, nextArguments: null });
const NO_MORE: RcpPage = Object.freeze({ hasMore: false, nextArguments: null });

/** The declared pagination's answer: a cursor → the same call with the cursor param set. */
function cursorPage(compiled: CompiledTool, source: PageSource): RcpPage {
  const pagination = compiled.pagination!;
  const found = source.json === undefined ? {} : pagination.paths.apply(source.json);
  const cursor = found['nextCursor'];
  const present = cursor !== undefined && cursor !== null && cursor !== '' && cursor !== false;
  // With a declared hasMore, only `true` there means more; without one, a cursor does.
  const more = pagination.paths.fields.includes('hasMore') ? found['hasMore'] === true : present;
  if (!more) return NO_MORE;
  if (!present || pagination.resolved) return MORE_UNASKABLE;
  const value = asParamValue(cursor, pagination.type);
  if (value === NO_VALUE) return MORE_UNASKABLE;
  const next = checked(compiled, { ...source.args, [pagination.param]: value });
  return next === undefined ? MORE_UNASKABLE : Object.freeze({ hasMore: true, nextArguments: next });
}

/** A binding's value from the next URL's query (`undefined` when the key is absent). */
function bindingValue(binding: QueryBinding, query: URLSearchParams): unknown {
  const texts = query.getAll(binding.key);
  if (texts.length === 0) return undefined;
  if (binding.type === 'array') {
    const items = texts.map((text) => asParamValue(text, binding.itemType ?? 'string'));
    return items.includes(NO_VALUE) ? NO_VALUE : items;
  }
  return texts.length === 1 ? asParamValue(texts[0], binding.type) : NO_VALUE;
}

/** The query entries of a URL, decoded and sorted, without the query credential's key. */
function queryEntries(url: URL, authKey: string | undefined): string {
  const entries = [...url.searchParams].filter(([key]) => key !== authKey);
  entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  return JSON.stringify(entries);
}

/** The `Link: rel="next"` answer: the same tool's arguments only when they render that URL exactly. */
function linkPage(compiled: CompiledTool, target: string, source: PageSource): RcpPage {
  let next: URL;
  try {
    next = new URL(target, source.url);
  } catch {
    return MORE_UNASKABLE;
  }
  if (compiled.queryBindings.length === 0 || `${next.origin}/` !== compiled.urlPrefix) return MORE_UNASKABLE;
  const proposal: Record<string, unknown> = { ...source.args };
  for (const binding of compiled.queryBindings) {
    if (binding.resolved) continue; // its value is the resolver's: the comparison below checks it
    delete proposal[binding.param];
    const value = bindingValue(binding, next.searchParams);
    if (value === NO_VALUE) return MORE_UNASKABLE;
    if (value !== undefined) proposal[binding.param] = value;
  }
  const args = checked(compiled, proposal);
  if (args === undefined) return MORE_UNASKABLE;
  // Rendered with the resolvers' values of this call, and compared with the link.
  const values: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [name, value] of Object.entries(source.values)) if (!Object.hasOwn(source.args, name)) values[name] = value;
  Object.assign(values, args);
  let rendered: URL;
  try {
    rendered = new URL(requestOf(compiled).render(values).url);
  } catch {
    return MORE_UNASKABLE;
  }
  const same = rendered.pathname === next.pathname && queryEntries(rendered, undefined) === queryEntries(next, compiled.authQueryKey);
  return same ? Object.freeze({ hasMore: true, nextArguments: args }) : MORE_UNASKABLE;
}

/** The page a result reports, or undefined when the response says nothing about pages. */
export function nextPage(compiled: CompiledTool, source: PageSource): RcpPage | undefined {
  if (compiled.pagination !== undefined) return cursorPage(compiled, source);
  const target = nextLinkTarget(source.headers.get('link'));
  return target === undefined ? undefined : linkPage(compiled, target, source);
}
