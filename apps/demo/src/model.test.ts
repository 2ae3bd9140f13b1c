import { describe, expect, it } from 'vitest';
import { createLearnerModel, createScriptedModel, type ModelResult } from './model';

const empty = { catalog: [], transcript: [] };

describe('createScriptedModel', () => {
  it('emits calls with arguments as a JSON string, then stops', async () => {
    const model = createScriptedModel([() => ({ name: 'search_courses', arguments: { query: 'algebra' } })]);
    expect(await model.nextToolCall(empty)).toEqual({ name: 'search_courses', arguments: '{"query":"algebra"}' });
    const done = await model.nextToolCall({ catalog: [], transcript: [{ call: { name: 'x', arguments: '{}' }, result: { ok: true, data: null } }] });
    expect(done).toBeUndefined();
  });
});

describe('createLearnerModel', () => {
  it('searches, enrols in the first beginner course it found, then reads profile and courses', async () => {
    const model = createLearnerModel();
    const transcript: { call: { name: string; arguments: string }; result: ModelResult }[] = [];
    const results: ModelResult[] = [
      {
        ok: true,
        data: {
          results: [
            { id: 'alg-201', level: 'intermediate' },
            { id: 'alg-101', level: 'beginner' },
          ],
        },
      },
      { ok: true, data: { status: 'enrolled' } },
      { ok: true, data: {} },
      { ok: true, data: {} },
    ];
    for (const result of results) {
      const call = await model.nextToolCall({ catalog: [], transcript });
      if (!call) break;
      transcript.push({ call, result });
    }
    expect(transcript.map(({ call }) => [call.name, JSON.parse(call.arguments)])).toEqual([
      ['search_courses', { query: 'algebra' }],
      ['enroll_in_course', { courseId: 'alg-101', note: 'First algebra course for me' }],
      ['get_learner_profile', {}],
      ['list_learner_courses', {}],
    ]);
    expect(await model.nextToolCall({ catalog: [], transcript })).toBeUndefined();
    expect(transcript.some(({ call }) => call.arguments.includes('learner'))).toBe(false);
  });

  it('stops instead of guessing when the search found nothing', async () => {
    const model = createLearnerModel();
    const call = await model.nextToolCall(empty);
    const next = await model.nextToolCall({ catalog: [], transcript: [{ call: call!, result: { ok: true, data: { results: [] } } }] });
    expect(next).toBeUndefined();
  });
});
