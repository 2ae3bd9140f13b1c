import type { ModelReadsRow } from '../model-reads.js';

/** One measured segment: one contender, one mode, one round. */
export interface SegmentResult {
  calls: number;
  errors: number;
  wallMs: number;
  callsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** CPU used per call by all processes involved (client + upstream + MCP server), in microseconds. */
  cpuMicrosPerCall: number;
}

/** Medians over rounds for one contender and mode. */
export interface ModeSummary {
  rounds: SegmentResult[];
  callsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  cpuMicrosPerCall: number;
  /** Median over rounds of (this contender's calls/s ÷ raw fetch's calls/s in the same round). */
  ratioToFetch: number;
  /** Median over rounds of (CPU per call ÷ raw fetch's CPU per call in the same round). */
  cpuRatioToFetch: number;
  errors: number;
}

export interface ContenderSummary {
  id: string;
  label: string;
  does: string;
  status: 'ok' | 'n/a';
  reason?: string;
  sequential?: ModeSummary;
  concurrent?: ModeSummary;
}

export interface CallOverheadConfig {
  rounds: number;
  sequentialCalls: number;
  concurrentCalls: number;
  concurrency: number;
  /** Each round's calls are split into this many slices, interleaved across contenders. */
  sequentialSlices: number;
  concurrentSlices: number;
  warmupSequential: number;
  warmupConcurrent: number;
  /** Contender ids whose call counts are scaled by `slowScale` (to keep the run under five minutes). */
  slowContenders: string[];
  slowScale: number;
}

export interface CallOverheadResult {
  config: CallOverheadConfig;
  contenders: ContenderSummary[];
  modelReads: ModelReadsRow[];
  notes: string[];
  wallSeconds: number;
}

export type CallClientMessage = { type: 'result'; result: CallOverheadResult } | { type: 'failed'; message: string };
