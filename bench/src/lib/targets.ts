/** A goal from issue 6, reported (never asserted) next to the measured value. */
export interface TargetRow {
  target: string;
  measured: string;
  status: string;
  met: boolean | null;
}

/** "met" / "missed by …" for a value that must be at least `goal`. */
export function atLeast(target: string, value: number | undefined, goal: number, show: (v: number) => string): TargetRow {
  if (value === undefined || !Number.isFinite(value)) return { target, measured: 'n/a', status: 'n/a (not measured)', met: null };
  const met = value >= goal;
  return { target, measured: show(value), status: met ? 'met' : `missed by ${show(goal - value)} (${((1 - value / goal) * 100).toFixed(1)}% short)`, met };
}

/** "met" / "missed by …" for a value that must be at most `goal`. */
export function atMost(target: string, value: number | undefined, goal: number, show: (v: number) => string): TargetRow {
  if (value === undefined || !Number.isFinite(value)) return { target, measured: 'n/a', status: 'n/a (not measured)', met: null };
  const met = value <= goal;
  return { target, measured: show(value), status: met ? 'met' : `missed by ${show(value - goal)} (${((value / goal - 1) * 100).toFixed(1)}% over)`, met };
}
