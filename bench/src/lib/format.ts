/** A Markdown table from a header row and body rows (cells already formatted). */
export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[], align?: readonly ('l' | 'r')[]): string {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? '').length), 3));
  const pad = (text: string, c: number) => {
    const w = widths[c]!;
    return (align?.[c] ?? 'l') === 'r' ? text.padStart(w) : text.padEnd(w);
  };
  const line = (cells: readonly string[]) => `| ${cells.map((cell, c) => pad(cell, c)).join(' | ')} |`;
  const rule = `|${widths.map((w, c) => ((align?.[c] ?? 'l') === 'r' ? `${'-'.repeat(w + 1)}:` : `:${'-'.repeat(w + 1)}`)).join('|')}|`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}

/** Number with thousands separators and a fixed number of decimals. */
export function num(value: number | undefined, decimals = 0): string {
  if (value === undefined || !Number.isFinite(value)) return 'n/a';
  return value.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}

/** A ratio like `0.93×`. */
export function ratio(value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value)) return 'n/a';
  return `${value.toFixed(2)}×`;
}

/** Milliseconds with a precision that suits their size. */
export function ms(value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value)) return 'n/a';
  if (value >= 100) return `${value.toFixed(0)} ms`;
  if (value >= 10) return `${value.toFixed(1)} ms`;
  if (value >= 1) return `${value.toFixed(2)} ms`;
  return `${value.toFixed(3)} ms`;
}

/** Microseconds. */
export function us(value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value)) return 'n/a';
  return value >= 100 ? `${value.toFixed(0)} µs` : `${value.toFixed(1)} µs`;
}

/** Nanoseconds. */
export function ns(value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value)) return 'n/a';
  if (value >= 1e6) return `${(value / 1e6).toFixed(2)} ms`;
  if (value >= 1e4) return `${(value / 1e3).toFixed(1)} µs`;
  return `${value.toFixed(0)} ns`;
}

/** Bytes in B / KB (1 KB = 1,000 B, as bundle sizes are usually reported). */
export function bytes(value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value)) return 'n/a';
  if (value >= 1e6) return `${(value / 1e6).toFixed(2)} MB`;
  if (value >= 1e4) return `${(value / 1e3).toFixed(1)} KB`;
  return `${num(value)} B`;
}
