import { fileURLToPath } from 'node:url';
import { moduleStateIn, undocumentedExports } from 'rcp-test-utils';
import { describe, expect, it } from 'vitest';

const sourceDir = fileURLToPath(new URL('.', import.meta.url));

describe('the source of rcp-errors', () => {
  it('keeps no module-level state: no top-level let or var, no module cache', () => {
    expect(moduleStateIn(sourceDir)).toEqual([]);
  });

  it('documents every export with TSDoc and an @example', () => {
    expect(undocumentedExports(fileURLToPath(new URL('./index.ts', import.meta.url)))).toEqual([]);
  });
});
