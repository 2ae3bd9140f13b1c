import { isRecord } from 'rcp-internal';
import type { JsonPathQuery } from 'jsonpath-rfc9535/parser';
import { filterEngine, type RcpFilterEngine } from './filter-engine';
import { parseFilterFreeQuery } from './path-syntax';
import { unsafePatternReason } from './regex-safety';

/*
 * Response-mapping paths: `"@" + rest` is the RFC 9535 query `"$" + rest` (or `"$." + rest` when
 * rest starts with a member name, so `@data.name` is `$.data.name`).
 *
 * Every path is parsed ONCE, when it is compiled: by the SDK's own reader of the grammar without
 * filters (`path-syntax.ts`, the same AST as the library's parser), or — for a query with a filter
 * selector — by the library's parser (pure peggy parser: no code is generated or evaluated), which
 * is loaded only then (`filter-engine.ts`; issue 26). The library's parser accepts a few queries
 * RFC 9535 calls invalid (integers outside the I-JSON range, ill-typed function calls), so this
 * module type-checks the AST itself.
 *
 * Evaluation:
 * - singular queries (name and index selectors only) compile to a direct walk of own properties;
 * - other queries made of name, index, wildcard and slice selectors in child or descendant
 *   segments are evaluated here on the parsed AST;
 * - queries containing a filter selector (`[?...]`) are evaluated by the library's `query()`,
 *   which re-parses the text on every call. Filters are rare in response mappings; evaluating them
 *   here would mean re-implementing comparison, logical and function semantics (incl. I-Regexp).
 */

type Segment = JsonPathQuery['segments'][number];
type SegmentNode = Segment['node'];
type BracketedSelection = Extract<SegmentNode, { type: 'BracketedSelection' }>;
type Selector = BracketedSelection['selectors'][number];
type FilterSelector = Extract<Selector, { type: 'FilterSelector' }>;
type LogicalExpression = FilterSelector['value'];
type ComparisonExpression = Extract<LogicalExpression, { type: 'ComparisonExpr' }>;
type Comparable = ComparisonExpression['left'];
type FunctionExpression = Extract<Comparable, { type: 'FunctionExpr' }>;
type FunctionArgument = FunctionExpression['arguments'][number];
type FilterQuery = Extract<FunctionArgument, { type: 'FilterQuery' }>;
type SingularQuery = Extract<Comparable, { type: 'RelSingularQuery' | 'AbsSingularQuery' }>;
type AnySegment = Segment | SingularQuery['segments'][number];

/** A compiled response path. */
export interface CompiledPath {
  /** The `@...` expression as written in the manifest. */
  readonly expression: string;
  /** The equivalent RFC 9535 query text (`$...`). */
  readonly query: string;
  /** RFC 9535 singular query: yields at most one node. */
  readonly singular: boolean;
  /** True when evaluation falls back to the library (the query has a filter selector). */
  readonly usesFilter: boolean;
  /** The nodelist the query selects from `data`, in RFC 9535 order. */
  select(data: unknown): unknown[];
  /**
   * Singular queries only: the one selected value, or {@link NOT_FOUND}. A direct walk with no
   * nodelist allocated (the hot path of response mappings).
   */
  readonly get?: (data: unknown) => unknown;
}

/** What {@link CompiledPath.get} returns when a singular query selects nothing. */
export const NOT_FOUND: unique symbol = Symbol('rcp.jsonpath.not-found');

/** Result of compiling one path: the compiled path or why it is invalid. */
export type PathCompileResult = { readonly ok: true; readonly path: CompiledPath } | { readonly ok: false; readonly message: string };

class InvalidQuery extends Error {}

/** Turns `@...` into the RFC 9535 query text, or undefined when it does not start with `@`. */
export function toRfc9535Query(expression: string): string | undefined {
  if (!expression.startsWith('@')) return undefined;
  const rest = expression.slice(1);
  if (rest === '' || /^[.[ \t\n\r]/.test(rest)) return `$${rest}`;
  return `$.${rest}`;
}

/**
 * True when the path (`@...`) has a filter selector, so compiling it needs the filter engine
 * (see `prepareManifest`). False for an invalid path (compiling it reports why).
 */
export function needsFilterEngine(expression: string): boolean {
  const queryText = toRfc9535Query(expression);
  return queryText !== undefined && parseFilterFreeQuery(queryText).kind === 'filter';
}

function singularCompiled(expression: string, query: string, steps: readonly Step[]): PathCompileResult {
  const path: CompiledPath = Object.freeze({
    expression,
    query,
    singular: true,
    usesFilter: false,
    select: (data: unknown) => {
      const value = getSingular(steps, data);
      return value === NOT_FOUND ? [] : [value];
    },
    get: namesGetter(steps) ?? ((data: unknown) => getSingular(steps, data)),
  });
  return Object.freeze({ ok: true as const, path });
}

function invalid(queryText: string, detail: string): PathCompileResult {
  return { ok: false, message: `is not a valid RFC 9535 JSONPath query (${queryText}): ${detail}` };
}

/**
 * Compiles a response path (`@...`). A query without filter selectors is read by the SDK's own
 * parser; one with a filter is parsed by `jsonpath-rfc9535` (no code is evaluated) and checked
 * statically (with `engine` when given, else the library loaded synchronously where it can be).
 *
 * @example
 * ```ts
 * const compiled = compileResponsePath('@data.name');
 * if (compiled.ok) compiled.path.get?.({ data: { name: 'Ada' } }); // 'Ada'
 * ```
 */
export function compileResponsePath(expression: string, engine?: RcpFilterEngine): PathCompileResult {
  const queryText = toRfc9535Query(expression);
  if (queryText === undefined) return { ok: false, message: 'must start with "@" (for example "@data.name")' };
  const parsed = parseFilterFreeQuery(queryText);
  if (parsed.kind === 'invalid') return invalid(queryText, parsed.message);
  if (parsed.kind === 'filter') return compileFilterQuery(expression, queryText, engine);
  const singularSteps = singularPath(parsed.segments);
  if (singularSteps !== undefined) return singularCompiled(expression, queryText, singularSteps);
  const { segments } = parsed;
  const path: CompiledPath = Object.freeze({
    expression,
    query: queryText,
    singular: false,
    usesFilter: false,
    select: (data: unknown) => evaluateSegments(segments, data),
  });
  return Object.freeze({ ok: true as const, path });
}

/** A query with a filter selector: parsed, checked and evaluated by the library. */
function compileFilterQuery(expression: string, queryText: string, given: RcpFilterEngine | undefined): PathCompileResult {
  const engine = filterEngine(given);
  if (engine === undefined) {
    return {
      ok: false,
      message:
        `has a filter selector (${queryText}), which needs the JSONPath filter engine: ` +
        'in this runtime, pass the filterEngine option (from await prepareManifest(manifest) or loadFilterEngine())',
    };
  }
  let ast: JsonPathQuery;
  try {
    ast = engine.parse(queryText);
  } catch (error) {
    return invalid(queryText, error instanceof RangeError ? 'it is nested too deeply' : firstLine(error));
  }
  try {
    checkSegments(ast.segments);
  } catch (error) {
    return invalid(queryText, error instanceof InvalidQuery ? error.message : 'it is nested too deeply');
  }
  if (hasUngroupedAndChain(queryText)) {
    return {
      ok: false,
      message:
        `uses three or more "&&" conditions in a row (${queryText}), which the JSONPath engine evaluates incorrectly; ` +
        'group them with parentheses, e.g. "a && (b && c)"',
    };
  }
  const path: CompiledPath = Object.freeze({
    expression,
    query: queryText,
    singular: false,
    usesFilter: true,
    select: (data: unknown) => engine.query(data, queryText),
  });
  return Object.freeze({ ok: true as const, path });
}

/**
 * True when some nesting level of the query text holds `x && y && z` without parentheses.
 * jsonpath-rfc9535 1.3 parses such a chain as `x && (y || z)` (its grammar folds the third and
 * later operands with OR), and the AST cannot tell that apart from a real `x && (y || z)`, so
 * the text is scanned instead (string literals skipped; `(`, `[` open a level; `||` and `,`
 * reset the count).
 */
function hasUngroupedAndChain(text: string): boolean {
  const counts: number[] = [0];
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === "'" || char === '"') {
      for (i++; i < text.length && text[i] !== char; i++) if (text[i] === '\\') i++;
    } else if (char === '(' || char === '[') counts.push(0);
    else if (char === ')' || char === ']') {
      if (counts.length > 1) counts.pop();
    } else if (char === ',' || (char === '|' && text[i + 1] === '|')) counts[counts.length - 1] = 0;
    else if (char === '&' && text[i + 1] === '&') {
      i++;
      const level = counts.length - 1;
      counts[level] = (counts[level] ?? 0) + 1;
      if ((counts[level] ?? 0) >= 2) return true;
    }
  }
  return false;
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const line = message.split('\n')[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

// ---------------------------------------------------------------------------------------------
// Static checks the parser leaves to evaluation time (RFC 9535 §2.1 integers, §2.4.3 typing)
// ---------------------------------------------------------------------------------------------

type FunctionType = 'value' | 'logical' | 'nodes';

const FUNCTIONS: Readonly<Record<string, { readonly parameters: readonly FunctionType[]; readonly result: FunctionType }>> = {
  length: { parameters: ['value'], result: 'value' },
  count: { parameters: ['nodes'], result: 'value' },
  match: { parameters: ['value', 'value'], result: 'logical' },
  search: { parameters: ['value', 'value'], result: 'logical' },
  value: { parameters: ['nodes'], result: 'value' },
};

/**
 * The index of an index selector. Inside singular queries of comparisons the parser nests the
 * selector (`{ type: 'IndexSelector', selector: { type: 'IndexSelector', value } }`).
 */
function indexOf(node: { value?: number; selector?: { value?: number } }): number {
  const value = node.value ?? node.selector?.value;
  if (typeof value !== 'number') throw new InvalidQuery('malformed index selector');
  return value;
}

function checkInteger(value: number | null): void {
  if (value !== null && !Number.isSafeInteger(value)) {
    throw new InvalidQuery('integers must be within -(2^53-1) and 2^53-1 (I-JSON)');
  }
}

/** Checks segments; returns true when a filter selector occurs at this level. */
function checkSegments(segments: readonly AnySegment[]): boolean {
  let usesFilter = false;
  for (const segment of segments) {
    const node = segment.node;
    switch (node.type) {
      case 'IndexSelector':
        checkInteger(indexOf(node));
        break;
      case 'BracketedSelection':
        for (const selector of node.selectors) {
          if (selector.type === 'IndexSelector') checkInteger(selector.value);
          else if (selector.type === 'SliceSelector') {
            checkInteger(selector.start);
            checkInteger(selector.end);
            checkInteger(selector.step);
          } else if (selector.type === 'FilterSelector') {
            usesFilter = true;
            checkLogical(selector.value);
          }
        }
        break;
      default:
        break;
    }
  }
  return usesFilter;
}

function isSingularSegments(segments: readonly AnySegment[]): boolean {
  return singularPath(segments) !== undefined;
}

function checkFilterQuery(filterQuery: FilterQuery): void {
  checkSegments(filterQuery.value.segments);
}

function checkLogical(expression: LogicalExpression): void {
  switch (expression.type) {
    case 'LogicalOrExpr':
    case 'LogicalAndExpr':
      checkLogical(expression.left);
      checkLogical(expression.right);
      return;
    case 'LogicalNotExpr':
      checkLogical(expression.expression);
      return;
    case 'TestExpr': {
      const inner = expression.expression;
      if (inner.type === 'FilterQuery') checkFilterQuery(inner);
      else if (checkFunction(inner) === 'value') {
        throw new InvalidQuery(`${inner.name}() returns a value and cannot be used as a test`);
      }
      return;
    }
    case 'ComparisonExpr':
      checkComparable(expression.left);
      checkComparable(expression.right);
      return;
    default:
      throw new InvalidQuery('unsupported filter expression');
  }
}

function checkComparable(comparable: Comparable): void {
  switch (comparable.type) {
    case 'Literal':
      return;
    case 'RelSingularQuery':
    case 'AbsSingularQuery':
      checkSegments(comparable.segments);
      return;
    case 'FunctionExpr':
      if (checkFunction(comparable) !== 'value') {
        throw new InvalidQuery(`${comparable.name}() does not return a value and cannot be compared`);
      }
      return;
    default:
      throw new InvalidQuery('unsupported comparable');
  }
}

/** Checks a function call and returns its result type. */
function checkFunction(call: FunctionExpression): FunctionType {
  const declaration = Object.hasOwn(FUNCTIONS, call.name) ? FUNCTIONS[call.name] : undefined;
  if (declaration === undefined) throw new InvalidQuery(`unknown function ${call.name}()`);
  if (call.arguments.length !== declaration.parameters.length) {
    throw new InvalidQuery(`${call.name}() takes ${declaration.parameters.length} argument(s)`);
  }
  call.arguments.forEach((argument, index) => {
    checkArgument(call.name, argument, declaration.parameters[index] as FunctionType);
  });
  if (call.name === 'match' || call.name === 'search') checkPattern(call.name, call.arguments[1]);
  return declaration.result;
}

/**
 * The pattern of `match()` / `search()` must be a string literal that cannot backtrack
 * exponentially (`regex-safety.ts`): a pattern taken from the response would let a hostile
 * server choose one, and mappings run synchronously, beyond any timeout.
 */
function checkPattern(name: string, argument: FunctionArgument | undefined): void {
  if (argument?.type !== 'Literal' || typeof (argument as { value?: unknown }).value !== 'string') {
    throw new InvalidQuery(`the pattern of ${name}() must be a string literal (a pattern from the data is refused)`);
  }
  const reason = unsafePatternReason((argument as { value: string }).value);
  if (reason !== undefined) throw new InvalidQuery(`the pattern of ${name}() is refused: ${reason}`);
}

function checkArgument(name: string, argument: FunctionArgument, expected: FunctionType): void {
  const fail = (): never => {
    throw new InvalidQuery(`argument of ${name}() must be of ${expected === 'value' ? 'ValueType' : expected === 'nodes' ? 'NodesType' : 'LogicalType'}`);
  };
  switch (argument.type) {
    case 'Literal':
      if (expected !== 'value') fail();
      return;
    case 'FilterQuery':
      checkFilterQuery(argument);
      if (expected === 'value' && !isSingularSegments(argument.value.segments)) fail();
      return;
    case 'FunctionExpr': {
      const result = checkFunction(argument);
      if (expected === 'value' && result !== 'value') fail();
      if (expected === 'nodes' && result !== 'nodes') fail();
      if (expected === 'logical' && result === 'value') fail();
      return;
    }
    default:
      if (expected !== 'logical') fail();
      checkLogical(argument as LogicalExpression);
  }
}

// ---------------------------------------------------------------------------------------------
// Evaluation
// ---------------------------------------------------------------------------------------------

type Step = { readonly kind: 'name'; readonly name: string } | { readonly kind: 'index'; readonly index: number };

/** The steps of a singular query, or undefined when the query is not singular. */
function singularPath(segments: readonly AnySegment[]): Step[] | undefined {
  const steps: Step[] = [];
  for (const segment of segments) {
    if (segment.type === 'DescendantSegment') return undefined;
    let node: SegmentNode | Selector | AnySegment['node'] = segment.node;
    if (node.type === 'BracketedSelection') {
      if (node.selectors.length !== 1) return undefined;
      node = node.selectors[0] as Selector;
    }
    if (node.type === 'MemberNameShorthand' || node.type === 'NameSelector') steps.push({ kind: 'name', name: node.value });
    else if (node.type === 'IndexSelector') steps.push({ kind: 'index', index: indexOf(node) });
    else return undefined;
  }
  return steps;
}

/**
 * A singular query of one to three name steps (`@data.name`, the common case), unrolled: each
 * depth is its own code, so the engine's property caches see the keys of the paths of that depth
 * instead of every path's through one loop (issue 26: about 2.1× hand-written access instead of
 * 3.5×). The same rule as {@link getSingular}: own properties of non-array objects only.
 */
function namesGetter(steps: readonly Step[]): ((data: unknown) => unknown) | undefined {
  const names = steps.flatMap((step) => (step.kind === 'name' ? [step.name] : []));
  if (names.length !== steps.length || names.length === 0 || names.length > 3) return undefined;
  const a = names[0]!;
  const [, b, c] = names;
  if (b === undefined) return (data) => (isRecord(data) && Object.hasOwn(data, a) ? data[a] : NOT_FOUND);
  if (c === undefined) {
    return (data) => {
      if (!isRecord(data) || !Object.hasOwn(data, a)) return NOT_FOUND;
      const first = data[a];
      return isRecord(first) && Object.hasOwn(first, b) ? first[b] : NOT_FOUND;
    };
  }
  return (data) => {
    if (!isRecord(data) || !Object.hasOwn(data, a)) return NOT_FOUND;
    const first = data[a];
    if (!isRecord(first) || !Object.hasOwn(first, b)) return NOT_FOUND;
    const second = first[b];
    return isRecord(second) && Object.hasOwn(second, c) ? second[c] : NOT_FOUND;
  };
}

function getSingular(steps: readonly Step[], data: unknown): unknown {
  let current = data;
  for (let i = 0; i < steps.length; i += 1) {
    const step = steps[i]!;
    if (step.kind === 'name') {
      if (!isRecord(current) || !Object.hasOwn(current, step.name)) {
        return NOT_FOUND;
      }
      current = (current as Record<string, unknown>)[step.name];
    } else {
      if (!Array.isArray(current)) return NOT_FOUND;
      const index = step.index < 0 ? current.length + step.index : step.index;
      if (index < 0 || index >= current.length) return NOT_FOUND;
      current = current[index];
    }
  }
  return current;
}

function selectChildren(value: unknown, out: unknown[]): void {
  if (Array.isArray(value)) {
    for (const element of value) out.push(element);
  } else if (isRecord(value)) {
    for (const key of Object.keys(value)) out.push(value[key]);
  }
}

function selectName(value: unknown, name: string, out: unknown[]): void {
  if (isRecord(value) && Object.hasOwn(value, name)) out.push(value[name]);
}

function selectIndex(value: unknown, index: number, out: unknown[]): void {
  if (!Array.isArray(value)) return;
  const normalized = index < 0 ? value.length + index : index;
  if (normalized >= 0 && normalized < value.length) out.push(value[normalized]);
}

/** RFC 9535 §2.3.4.2.2 slice semantics. */
function selectSlice(value: unknown, start: number | null, end: number | null, stepOrNull: number | null, out: unknown[]): void {
  if (!Array.isArray(value)) return;
  const step = stepOrNull ?? 1;
  if (step === 0) return;
  const length = value.length;
  const normalize = (i: number): number => (i >= 0 ? i : length + i);
  if (step > 0) {
    const lower = Math.min(Math.max(normalize(start ?? 0), 0), length);
    const upper = Math.min(Math.max(normalize(end ?? length), 0), length);
    for (let i = lower; i < upper; i += step) out.push(value[i]);
  } else {
    const upper = Math.min(Math.max(normalize(start ?? length - 1), -1), length - 1);
    const lower = Math.min(Math.max(end === null ? -1 : normalize(end), -1), length - 1);
    for (let i = upper; lower < i; i += step) out.push(value[i]);
  }
}

function applySelection(node: SegmentNode, value: unknown, out: unknown[]): void {
  switch (node.type) {
    case 'MemberNameShorthand':
      selectName(value, node.value, out);
      return;
    case 'WildcardSelector':
      selectChildren(value, out);
      return;
    case 'BracketedSelection':
      for (const selector of node.selectors) {
        switch (selector.type) {
          case 'NameSelector':
            selectName(value, selector.value, out);
            break;
          case 'IndexSelector':
            selectIndex(value, selector.value, out);
            break;
          case 'WildcardSelector':
            selectChildren(value, out);
            break;
          case 'SliceSelector':
            selectSlice(value, selector.start, selector.end, selector.step, out);
            break;
          default:
            // Filter selectors never reach this evaluator (see usesFilter).
            throw new Error('filter selectors are evaluated by the library');
        }
      }
      return;
    default:
      return;
  }
}

/** Visits `value` and all its descendants, each node before its children, arrays in order. */
function forEachDescendant(value: unknown, visit: (node: unknown) => void): void {
  const stack: unknown[] = [value];
  const children: unknown[] = [];
  while (stack.length > 0) {
    const current = stack.pop();
    visit(current);
    children.length = 0;
    selectChildren(current, children);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
}

function evaluateSegments(segments: readonly Segment[], data: unknown): unknown[] {
  let nodes: unknown[] = [data];
  for (const segment of segments) {
    const next: unknown[] = [];
    if (segment.type === 'ChildSegment') {
      for (const node of nodes) applySelection(segment.node, node, next);
    } else {
      for (const node of nodes) forEachDescendant(node, (descendant) => applySelection(segment.node, descendant, next));
    }
    nodes = next;
  }
  return nodes;
}
