import { describe, expect, it } from 'vitest';
import { DISTRACTOR_DOCUMENTS, readEvalSets, twilioProductDocuments } from './eval-set';

const sets = readEvalSets();

describe('the independent evaluation set', () => {
  it('uses no API description of the first set, of its distractors or of the Twilio product APIs', () => {
    const [own, independent] = sets;
    const used = new Set([...Object.values(own!.set.apis).map((api) => api.document), ...DISTRACTOR_DOCUMENTS, ...twilioProductDocuments()]);
    for (const api of Object.values(independent!.set.apis)) {
      expect(used.has(api.document), api.document).toBe(false);
      expect(api.source, `${api.title}: where its licence is stated`).toMatch(/\S/);
    }
  });
});
