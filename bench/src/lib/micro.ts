import { median, nsPerOp, rotate } from './stats.js';

/** One function measured in a micro-benchmark case. */
export interface MicroContender {
  id: string;
  fn: (i: number) => unknown;
}

export interface MicroResult {
  id: string;
  /** Median over rounds of nanoseconds per call. */
  ns: number;
  rounds: number[];
  /** Median over rounds of (ns of this ÷ ns of the baseline in the same round); 1 for the baseline. */
  ratioToBaseline: number;
}

/**
 * Interleaved synchronous micro-benchmark: warm-up, then `rounds` rounds; in each round every
 * contender runs `iterations` calls (order rotated per round). The first contender is the baseline.
 */
export function microBench(contenders: readonly MicroContender[], options: { rounds: number; iterations: number; warmupIterations: number }): MicroResult[] {
  let sink = 0;
  for (const c of contenders) sink += nsPerOp(options.warmupIterations, c.fn).sink;
  const perRound = new Map<string, number[]>(contenders.map((c) => [c.id, []]));
  for (let round = 0; round < options.rounds; round++) {
    for (const c of rotate(contenders, round)) {
      const { ns, sink: s } = nsPerOp(options.iterations, c.fn);
      sink += s;
      perRound.get(c.id)!.push(ns);
    }
  }
  if (sink < 0) console.error('unreachable');
  const baseline = perRound.get(contenders[0]!.id)!;
  return contenders.map((c) => {
    const rounds = perRound.get(c.id)!;
    return { id: c.id, ns: median(rounds), rounds, ratioToBaseline: median(rounds.map((v, k) => v / baseline[k]!)) };
  });
}
