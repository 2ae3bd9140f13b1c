import { describe, expect, it } from 'vitest';
import { TOKEN_NAME_SOURCE, isTokenName } from './index';
import { parseTemplate } from './parse-template';

describe('the {{token}} name grammar (the one home)', () => {
  it('accepts exactly the names parseTemplate accepts', () => {
    const pattern = new RegExp(`^${TOKEN_NAME_SOURCE}$`);
    for (const name of ['a', '_', 'postId', 'a_1', 'A9', '1a', 'a-b', 'a b', '', 'é', 'a.b']) {
      let parsed = true;
      try {
        parseTemplate(`{{${name}}}`);
      } catch {
        parsed = false;
      }
      expect(isTokenName(name)).toBe(parsed);
      expect(pattern.test(name)).toBe(parsed);
    }
  });
});
