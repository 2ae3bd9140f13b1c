import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bundleClient } from './bundle';

const budget = JSON.parse(readFileSync(new URL('../size-budget.json', import.meta.url), 'utf8')) as {
  entryGzipBytes: number;
  totalGzipBytes: number;
};

describe("rcp-client's browser bundle", () => {
  it('stays within the checked-in size budget, and carries neither undici nor TypeBox nor node: modules', async () => {
    const bundle = await bundleClient();
    const total = bundle.chunks.reduce((sum, chunk) => sum + chunk.gzipBytes, 0);
    console.log(
      `rcp-client browser bundle: entry ${bundle.entry.gzipBytes} B min+gz (budget ${budget.entryGzipBytes}), ` +
        `all chunks ${total} B (budget ${budget.totalGzipBytes}): ` +
        bundle.chunks.map((chunk) => `${chunk.file} ${chunk.gzipBytes} B [${chunk.packages.join(', ')}]`).join('; '),
    );
    expect(bundle.entry.gzipBytes).toBeLessThanOrEqual(budget.entryGzipBytes);
    expect(total).toBeLessThanOrEqual(budget.totalGzipBytes);
    const everything = bundle.chunks.flatMap((chunk) => chunk.packages);
    for (const absent of ['undici', '@sinclair/typebox']) expect(everything).not.toContain(absent);
    const code = bundle.chunks.map((chunk) => readFileSync(`${bundle.dir}/${chunk.file}`, 'utf8')).join('\n');
    expect(code).not.toMatch(/["']node:/);
    // rcp-manifest bundles TypeBox's builders into its own chunk, so the package list cannot see them:
    // its `Symbol.for('TypeBox.Kind')` marks can. (A template literal among a schema's arguments once kept them all.)
    expect(code).not.toContain('TypeBox.');
  });

  it('loads the Public Suffix List as a lazy chunk, never with the entry', async () => {
    const bundle = await bundleClient();
    expect(bundle.entry.packages).not.toContain('tldts');
    expect(bundle.chunks.some((chunk) => chunk.packages.includes('tldts'))).toBe(true);
  });
});
