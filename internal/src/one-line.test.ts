import { expect, it } from 'vitest';
import { oneLineDescription } from './one-line';

it("a description's first sentence of its first paragraph, on one line, cut at 160 characters", () => {
  expect(oneLineDescription('Create a refund.\n\nRefunds a charge that was made earlier.')).toBe('Create a refund.');
  expect(oneLineDescription('  Lists the\n  invoices of v1.5 e.g.x. Then more.')).toBe('Lists the invoices of v1.5 e.g.x.');
  expect(oneLineDescription('No full stop')).toBe('No full stop');
  const long = oneLineDescription('word '.repeat(60));
  expect(long).toHaveLength(160);
  expect(long.endsWith('…')).toBe(true);
});
