import { expectTypeOf, test } from 'vitest';
import { compileArgumentCheck, type ArgumentCheckResult, type ManifestIssue } from './index';

test('the result narrows on ok', () => {
  const result = compileArgumentCheck([{ name: 'q' }])({ q: 'x' });
  expectTypeOf(result).toEqualTypeOf<ArgumentCheckResult>();
  if (result.ok) expectTypeOf(result.values).toEqualTypeOf<Record<string, unknown>>();
  else expectTypeOf(result.issues).toEqualTypeOf<ManifestIssue[]>();
  // @ts-expect-error a param's type is one of the six
  compileArgumentCheck([{ name: 'q', type: 'date' }]);
});
