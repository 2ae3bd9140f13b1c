/**
 * What happened to one operation of the document.
 *
 * @example
 * ```ts
 * const entry: ImportedOperation = { method: 'GET', path: '/pets', operationId: 'listPets', status: 'imported', tool: 'listPets' };
 * ```
 */
export interface ImportedOperation {
  readonly method: string;
  readonly path: string;
  readonly operationId?: string;
  /** `imported` (then `tool` names it) or `skipped` (then `reason` says why). */
  readonly status: 'imported' | 'skipped';
  readonly tool?: string;
  readonly reason?: string;
}

/**
 * A step that lost something: a union narrowed, a description cut, a param dropped.
 *
 * @example
 * ```ts
 * const step: LossyStep = { tool: 'createPet', message: 'the body is a oneOf: sent as one open object param "body"' };
 * ```
 */
export interface LossyStep {
  readonly tool: string;
  readonly message: string;
}

/**
 * What the import did the same way for many tools, said once for the document: which security
 * alternative was kept and which were dropped, a param narrowed or left out.
 *
 * @example
 * ```ts
 * const note: ImportNote = {
 *   message: 'of 2 security alternatives, "bearerAuth" (http bearer) was kept; dropped: "basicAuth" (http basic) (…)',
 *   tools: ['GetCharges', 'PostCharges'],
 * };
 * ```
 */
export interface ImportNote {
  readonly message: string;
  /** Every tool it applies to, in the document's order. */
  readonly tools: readonly string[];
  /** What it was done to, each once (`"created" → integer`), where the message names a kind of thing. */
  readonly examples?: readonly string[];
}

/**
 * A param that most operations take in their path (Twilio's `AccountSid`): a client should
 * probably fill it with a resolver rather than let the model choose it.
 *
 * @example
 * ```ts
 * const candidate: ResolverCandidate = { param: 'AccountSid', operations: 41, of: 44 };
 * ```
 */
export interface ResolverCandidate {
  readonly param: string;
  readonly operations: number;
  readonly of: number;
}

/**
 * The report of an import: every operation, every lossy step, suggested resolvers and a summary.
 *
 * @example
 * ```ts
 * const { report } = await fromOpenApi(text);
 * console.log(report.summary); // { operations: 4, imported: 3, groups: 2, skipped: { 'multipart body': 1 } }
 * ```
 */
export interface ImportReport {
  /** `info.title` of the document. */
  readonly title: string;
  /** `openapi` / `swagger` version the document declares. */
  readonly specVersion: string;
  readonly operations: readonly ImportedOperation[];
  readonly lossy: readonly LossyStep[];
  /** What the import did the same way for many tools, each said once with the tools (not a lossy step per tool). */
  readonly notes: readonly ImportNote[];
  readonly resolverCandidates: readonly ResolverCandidate[];
  /** Problems the OpenAPI validator found (the import goes on; what it cannot use is skipped). */
  readonly documentWarnings: readonly string[];
  readonly summary: {
    readonly operations: number;
    readonly imported: number;
    /** Tool groups made from the imported operations' first tags (RCP 0.4). */
    readonly groups: number;
    /** Skipped operations by reason. */
    readonly skipped: Readonly<Record<string, number>>;
  };
}

/** Document warnings printed by {@link formatSummary}; the rest are counted (all are in the report). */
const MAX_WARNING_LINES = 5;
/** Notes printed by {@link formatSummary}, and the tools each names; the rest are counted. */
const MAX_NOTE_LINES = 10;
const NOTE_EXAMPLES = 3;

/**
 * The report's summary as lines of text (what `rcp from-openapi` prints).
 *
 * @example
 * ```ts
 * console.log(formatSummary(report));
 * // Swagger Petstore (OpenAPI 3.0.0): 3 operations, 3 imported, 0 skipped
 * ```
 */
export function formatSummary(report: ImportReport): string {
  const skipped = Object.values(report.summary.skipped).reduce((sum, count) => sum + count, 0);
  const lines = [`${report.title} (${report.specVersion}): ${report.summary.operations} operations, ${report.summary.imported} imported, ${skipped} skipped`];
  for (const [reason, count] of Object.entries(report.summary.skipped)) lines.push(`  skipped ${count}: ${reason}`);
  if (report.summary.groups > 0) lines.push(`  ${report.summary.groups} tool group(s), one per first tag of the imported operations`);
  if (report.lossy.length > 0) lines.push(`  ${report.lossy.length} lossy step(s), e.g. ${report.lossy[0]!.tool}: ${report.lossy[0]!.message}`);
  const some = (list: readonly string[]): string => list.slice(0, NOTE_EXAMPLES).join(', ') + (list.length > NOTE_EXAMPLES ? ', …' : '');
  for (const { message, tools, examples } of report.notes.slice(0, MAX_NOTE_LINES)) {
    const what = examples === undefined ? '' : `e.g. ${some(examples)}; `;
    lines.push(`  ${message} (${what}${tools.length} tool(s): ${some(tools)})`);
  }
  if (report.notes.length > MAX_NOTE_LINES) lines.push(`  … and ${report.notes.length - MAX_NOTE_LINES} more note(s)`);
  for (const warning of report.documentWarnings.slice(0, MAX_WARNING_LINES)) lines.push(`  document warning: ${warning}`);
  const more = report.documentWarnings.length - MAX_WARNING_LINES;
  if (more > 0) lines.push(`  … and ${more} more document warning(s)`);
  for (const candidate of report.resolverCandidates) {
    lines.push(`  resolver candidate: ${candidate.param} (in the path of ${candidate.operations} of ${candidate.of} operations)`);
  }
  return lines.join('\n');
}
