/**
 * Scenario 6: what the model reads — the model-facing listing (name, description, input schema) of
 * the two seed tools as each stack hands it to the model, as compact JSON: bytes and ~tokens
 * (characters / 4).
 */

/** One tool as the model sees it. */
export interface ModelFacingTool {
  name: string;
  description: string;
  inputSchema: unknown;
}

export interface ModelReadsRow {
  stack: string;
  status: 'ok' | 'n/a';
  reason?: string;
  bytes?: number;
  approxTokens?: number;
  /** The reference size, where it gives one. */
  referenceBytes?: number;
  /** The exact listing text measured. */
  listing?: string;
  note: string;
}

/** Compact JSON of `{ name, description, inputSchema }` per tool, in listing order. */
export function listingText(tools: readonly ModelFacingTool[]): string {
  return JSON.stringify(tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })));
}

export function modelReadsRow(stack: string, note: string, tools: readonly ModelFacingTool[] | Error, referenceBytes?: number): ModelReadsRow {
  if (tools instanceof Error) return { stack, status: 'n/a', reason: tools.message.split('\n')[0]!.slice(0, 200), note, referenceBytes };
  const listing = listingText(tools);
  const bytes = Buffer.byteLength(listing);
  return { stack, status: 'ok', bytes, approxTokens: Math.round(listing.length / 4), referenceBytes, listing, note };
}
