import { describe, expect, it } from 'vitest';
import { renderText } from './render-text';
import type { AttackRecord, DemoReport } from './report';
import { createTerminalStyle } from './terminal-style';

const plain = createTerminalStyle(false);

const leakedAttack: AttackRecord = {
  id: 'out-of-stage',
  title: 'The browse stage tries to enrol',
  rule: 'stages are enforced when a call is resolved',
  stage: 'browse',
  ctx: { currentUserId: 'learner-42' },
  call: { name: 'enroll_in_course', arguments: '{"courseId":"alg-201"}' },
  requests: [
    {
      seq: 2,
      method: 'POST',
      path: '/api/enrollments',
      query: '',
      authorization: 'Bearer [redacted]',
      authorized: true,
      body: { courseId: 'alg-201' },
      status: 201,
    },
  ],
  result: { ok: true, data: { status: 'enrolled' } },
  requestCountBefore: 1,
  requestCountAfter: 2,
  stopped: false,
  stoppedBy: 'client',
  expected: 'RCP_TOOL_NOT_IN_STAGE and no request',
};

const report: DemoReport = {
  mode: 'embedded',
  ok: false,
  manifestUrl: 'http://127.0.0.1:4000/rcp/manifest',
  sections: [
    {
      id: 'catalogs',
      title: 'What the model sees',
      stages: [
        {
          stage: 'browse',
          tools: [
            {
              name: 'search_courses',
              description: 'Searches the course catalog by free-text query.',
              parameters: {
                type: 'object',
                properties: { query: { type: 'string', description: 'Free-text search term' } },
                required: ['query'],
                additionalProperties: false,
              },
            },
          ],
        },
      ],
      hiddenParams: ['learnerId'],
    },
    { id: 'attacks', title: 'The trust rules under attack', attacks: [leakedAttack] },
    {
      id: 'summary',
      title: 'Summary',
      ok: false,
      callsMade: 0,
      callsFailed: 0,
      attacks: 1,
      attacksStopped: 0,
      unexpectedRequests: 1,
      text: '✗ 0 calls made, 0 attacks stopped, 1 unexpected requests, 1 attacks NOT stopped',
    },
  ],
};

describe('renderText', () => {
  it('prints numbered headings, aligned catalogs and plain text without colour', () => {
    const text = renderText(report, plain);
    expect(text).not.toMatch(/\u001b\[/);
    expect(text).toContain('── 1. What the model sees ───');
    expect(text).toContain('── 2. The trust rules under attack ───');
    expect(text).toContain('  search_courses  Searches the course catalog by free-text query.\n');
    expect(text).toContain('                    query  string  required  Free-text search term\n');
    expect(text).toContain('✓ "learnerId" appears in no catalog');
  });

  it('marks an attack that got through, with what was expected', () => {
    const text = renderText(report, plain);
    expect(text).toContain('✗ The browse stage tries to enrol');
    expect(text).toContain('   server   POST /api/enrollments  Authorization: Bearer [redacted] → 201\n');
    expect(text).toContain('   body     {"courseId":"alg-201"}\n');
    expect(text).toContain('request count 1 → 2');
    expect(text).toContain('   expected RCP_TOOL_NOT_IN_STAGE and no request\n');
    expect(text.trimEnd().split('\n').at(-1)).toBe('✗ 0 calls made, 0 attacks stopped, 1 unexpected requests, 1 attacks NOT stopped');
  });

  it('colours when enabled', () => {
    expect(renderText(report, createTerminalStyle(true))).toMatch(/\u001b\[31m✗\u001b\[39m \u001b\[1mThe browse stage/);
  });
});
