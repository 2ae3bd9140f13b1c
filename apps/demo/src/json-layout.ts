/**
 * Lays out a JSON value for reading: a value whose one-line form fits the width stays on one
 * line (`{"name":"Ada Lovelace","progress":62}`); anything longer breaks into one entry per
 * line, recursively. The text is always valid JSON.
 */

/** Options of {@link layoutJson}. */
export interface LayoutJsonOptions {
  /**
   * Columns a line may use, counting `indent` but not any text before the value's first line.
   * @default 80
   */
  width?: number;
  /**
   * Columns already used on the first line (e.g. by a label printed before the value).
   * @default 0
   */
  firstLineOffset?: number;
  /**
   * One level of indentation.
   * @default '  '
   */
  indent?: string;
}

/**
 * Formats `value` as JSON that fits `width` columns where it can.
 *
 * @example
 * ```ts
 * layoutJson({ ok: true, data: { name: 'Ada' } }, { width: 80 }); // '{"ok":true,"data":{"name":"Ada"}}'
 * ```
 */
export function layoutJson(value: unknown, options: LayoutJsonOptions = {}): string {
  return layout(value, '', options.firstLineOffset ?? 0, 0, options.width ?? 80, options.indent ?? '  ');
}

/**
 * `prefix`: the indentation of the value's continuation lines; `start`: the column where its
 * first line begins; `after`: characters that follow it on its last line (a comma).
 */
function layout(value: unknown, prefix: string, start: number, after: number, width: number, indent: string): string {
  const flat = JSON.stringify(value) ?? 'null';
  if (start + flat.length + after <= width || value === null || typeof value !== 'object') return flat;
  const inner = prefix + indent;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const last = value.length - 1;
    const items = value.map((item, index) => inner + layout(item, inner, inner.length, index < last ? 1 : 0, width, indent));
    return `[\n${items.join(',\n')}\n${prefix}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>).filter(([, item]) => item !== undefined);
  if (entries.length === 0) return '{}';
  const last = entries.length - 1;
  const lines = entries.map(([key, item], index) => {
    const head = `${inner}${JSON.stringify(key)}: `;
    return head + layout(item, inner, head.length, index < last ? 1 : 0, width, indent);
  });
  return `{\n${lines.join(',\n')}\n${prefix}}`;
}
