/** Longest one-line description a compact answer carries. */
const ONE_LINE = 160;

/**
 * A description as one line: its first paragraph's first sentence, white space collapsed, cut at 160 characters
 * (`…`). What rcp-search's compact answers and the gateway's group listing show the model.
 *
 * @example
 * ```ts
 * oneLineDescription('Create a refund.\n\nRefunds a charge that was made earlier.'); // 'Create a refund.'
 * ```
 */
export function oneLineDescription(description: string): string {
  const paragraph = description.trim().split(/\n\s*\n/, 1)[0] ?? '';
  const line = paragraph.replace(/\s+/g, ' ');
  // A sentence ends at . ! or ? followed by a space and not inside a word (1.5, e.g.x).
  const end = /[.!?](?= )/.exec(line);
  const sentence = end === null ? line : line.slice(0, end.index + 1);
  return sentence.length > ONE_LINE ? `${sentence.slice(0, ONE_LINE - 1).trimEnd()}…` : sentence;
}
