/** Median of a list (mean of the two middle values for an even count); NaN for an empty list. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Nearest-rank percentile (p in 0..100) of an already sorted typed array. */
export function percentileSorted(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

/** Runs `fn` and returns the elapsed wall time in milliseconds. */
export async function timeAsync(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

/**
 * Times `iterations` synchronous calls of `fn` and returns nanoseconds per call. The return
 * values are folded into a sink so the engine cannot drop the work.
 */
export function nsPerOp(iterations: number, fn: (i: number) => unknown): { ns: number; sink: number } {
  let sink = 0;
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) {
    const result = fn(i);
    if (result !== undefined) sink++;
  }
  const elapsed = Number(process.hrtime.bigint() - start);
  return { ns: elapsed / iterations, sink };
}

/** Rotates a list so each round starts with a different contender (order bias cancels out). */
export function rotate<T>(items: readonly T[], by: number): T[] {
  const n = items.length;
  if (n === 0) return [];
  const k = ((by % n) + n) % n;
  return [...items.slice(k), ...items.slice(0, k)];
}
