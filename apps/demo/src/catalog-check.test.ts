import { describe, expect, it } from 'vitest';
import { assertHiddenFromCatalogs } from './catalog-check';
import { DemoCheckError } from './demo-errors';

const clean = {
  stage: 'act',
  tools: [
    {
      name: 'get_learner_profile',
      description: 'Mentions learnerId in prose.',
      parameters: { type: 'object', properties: {}, required: [], additionalProperties: false },
    },
  ],
};
const leaking = {
  stage: 'browse',
  tools: [
    {
      name: 'get_learner_profile',
      description: 'Profile.',
      parameters: { type: 'object', properties: { learnerId: { type: 'string' } }, required: ['learnerId'] },
    },
  ],
};

describe('assertHiddenFromCatalogs', () => {
  it('refuses a schema that offers a resolver-bound param', () => {
    for (const anywhere of [true, false]) {
      expect(() => assertHiddenFromCatalogs([leaking], ['learnerId'], { anywhere })).toThrow(DemoCheckError);
      expect(() => assertHiddenFromCatalogs([leaking], ['learnerId'], { anywhere })).toThrow(
        'the "browse" catalog mentions the resolver-bound param "learnerId"',
      );
    }
  });

  it('anywhere: also refuses the name in prose; otherwise only schemas count', () => {
    expect(() => assertHiddenFromCatalogs([clean], ['learnerId'], { anywhere: true })).toThrow(DemoCheckError);
    expect(() => assertHiddenFromCatalogs([clean], ['learnerId'], { anywhere: false })).not.toThrow();
    expect(() => assertHiddenFromCatalogs([clean, leaking], [], { anywhere: true })).not.toThrow();
  });
});
