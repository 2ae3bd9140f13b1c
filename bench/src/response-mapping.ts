/**
 * Scenario 4: rcp-manifest's `compileResponseMappings` (the seed tool's mappings) on a small and a
 * ~1 MB response vs hand-written property access doing the same thing (own properties only, field
 * left out when absent).
 */
import { compileResponseMappings } from 'rcp-manifest';
import { microBench, type MicroResult } from './lib/micro.js';
import { profileResponse, seedManifest } from './lib/seed.js';

export interface MappingCase {
  name: string;
  responseBytes: number;
  singular: boolean;
  results: MicroResult[];
  sameOutput: boolean;
}

export interface ResponseMappingResult {
  rounds: number;
  cases: MappingCase[];
  /** Worst ratio (rcp ÷ hand-written) over the singular-path cases. */
  worstSingularRatio: number;
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Hand-written equivalent of `{ name: '@data.name', progress: '@data.progress.percent' }`. */
function handProfileMapping(response: unknown): Json {
  const out: Json = {};
  if (isObject(response) && Object.hasOwn(response, 'data')) {
    const data = response.data;
    if (isObject(data)) {
      if (Object.hasOwn(data, 'name')) out.name = data.name;
      const progress = Object.hasOwn(data, 'progress') ? data.progress : undefined;
      if (isObject(progress) && Object.hasOwn(progress, 'percent')) out.progress = progress.percent;
    }
  }
  return out;
}

/** Hand-written equivalent of `{ scores: '@data.history[*].score' }`. */
function handWildcard(response: unknown): Json {
  const scores: unknown[] = [];
  if (isObject(response) && isObject(response.data) && Array.isArray(response.data.history)) {
    for (const entry of response.data.history) if (isObject(entry) && Object.hasOwn(entry, 'score')) scores.push(entry.score);
  }
  return { scores };
}

/** The seed profile response padded with a lesson history to about `targetBytes` of JSON. */
function bigProfile(targetBytes: number): unknown {
  const response = profileResponse('L-1000') as { data: Json };
  const history: unknown[] = [];
  let size = JSON.stringify(response).length;
  for (let i = 0; size < targetBytes; i++) {
    const entry = {
      lessonId: `ts-${String(i).padStart(5, '0')}`,
      completedAt: '2025-11-29T10:15:00.000Z',
      score: i % 101,
      notes: 'Reviewed twice; asked about generics.',
    };
    size += JSON.stringify(entry).length + 1;
    history.push(entry);
  }
  return { data: { ...response.data, history } };
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export function runResponseMapping(options: {
  rounds: number;
  smallIterations: number;
  bigIterations: number;
  wildcardIterations: number;
}): ResponseMappingResult {
  const seedMappings = compileResponseMappings({ ...seedManifest.tools[0].responseMappings });
  const wildcardMappings = compileResponseMappings({ scores: '@data.history[*].score' });
  const small = profileResponse('L-1000');
  const big = bigProfile(1_000_000);
  const smallBytes = JSON.stringify(small).length;
  const bigBytes = JSON.stringify(big).length;

  const run = (
    name: string,
    response: unknown,
    bytes: number,
    singular: boolean,
    iterations: number,
    rcp: (d: unknown) => unknown,
    hand: (d: unknown) => unknown,
  ): MappingCase => ({
    name,
    responseBytes: bytes,
    singular,
    sameOutput: same(rcp(response), hand(response)),
    results: microBench(
      [
        { id: 'hand-written', fn: () => hand(response) },
        { id: 'rcp compiled mappings', fn: () => rcp(response) },
      ],
      { rounds: options.rounds, iterations, warmupIterations: iterations },
    ),
  });

  const cases = [
    run('seed mappings, small response', small, smallBytes, true, options.smallIterations, (d) => seedMappings.apply(d), handProfileMapping),
    run('seed mappings, ~1 MB response', big, bigBytes, true, options.bigIterations, (d) => seedMappings.apply(d), handProfileMapping),
    run('`@data.history[*].score`, ~1 MB response', big, bigBytes, false, options.wildcardIterations, (d) => wildcardMappings.apply(d), handWildcard),
  ];
  return {
    rounds: options.rounds,
    cases,
    worstSingularRatio: Math.max(...cases.filter((c) => c.singular).map((c) => c.results[1]!.ratioToBaseline)),
  };
}
