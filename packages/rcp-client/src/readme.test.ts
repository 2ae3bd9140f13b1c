import { readFileSync } from 'node:fs';
import { SPAWN_TIMEOUT, readmeBlock, runNode } from 'rcp-test-utils';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

const blockAfter = (marker: string): string => readmeBlock(`${packageDir}README.md`, marker);

describe('README', () => {
  it('shows the agent-loop example exactly as it is in examples/', () => {
    expect(blockAfter('example:agent-loop')).toBe(readFileSync(`${packageDir}examples/agent-loop.mjs`, 'utf8'));
  });

  it("shows the example's real output (run against the built package and a local server)", { timeout: SPAWN_TIMEOUT }, async () => {
    const { code, stdout } = await runNode(['examples/agent-loop.mjs'], { cwd: packageDir });
    expect([code, stdout]).toEqual([0, blockAfter('output:agent-loop')]);
  });
});

describe('README: transport', () => {
  it('shows the ky example exactly as it is in examples/, with its real output', { timeout: SPAWN_TIMEOUT }, async () => {
    expect(blockAfter('example:ky-fetch')).toBe(readFileSync(`${packageDir}examples/ky-fetch.mjs`, 'utf8'));
    const { code, stdout } = await runNode(['examples/ky-fetch.mjs'], { cwd: packageDir });
    expect([code, stdout]).toEqual([0, blockAfter('output:ky-fetch')]);
  });
});

describe('README: load and observeResponse', () => {
  it('shows the example exactly as it is in examples/, with its real output', { timeout: SPAWN_TIMEOUT }, async () => {
    expect(blockAfter('example:load-and-observe')).toBe(readFileSync(`${packageDir}examples/load-and-observe.mjs`, 'utf8'));
    const { code, stdout } = await runNode(['examples/load-and-observe.mjs'], { cwd: packageDir });
    expect([code, stdout]).toEqual([0, blockAfter('output:load-and-observe')]);
  });
});

describe('README: approval', () => {
  it('shows the example exactly as it is in examples/, with its real output', { timeout: SPAWN_TIMEOUT }, async () => {
    expect(blockAfter('example:approval')).toBe(readFileSync(`${packageDir}examples/approval.mjs`, 'utf8'));
    const { code, stdout } = await runNode(['examples/approval.mjs'], { cwd: packageDir });
    expect([code, stdout]).toEqual([0, blockAfter('output:approval')]);
  });
});

describe('README: binding checks, safe by default', () => {
  it('shows the example exactly as it is in examples/, with its real output', { timeout: SPAWN_TIMEOUT }, async () => {
    expect(blockAfter('example:safe-by-default')).toBe(readFileSync(`${packageDir}examples/safe-by-default.mjs`, 'utf8'));
    const { code, stdout } = await runNode(['examples/safe-by-default.mjs'], { cwd: packageDir });
    expect([code, stdout]).toEqual([0, blockAfter('output:safe-by-default')]);
  });
});

describe('README: what a result carries', () => {
  it('shows the example exactly as it is in examples/, with its real output', { timeout: SPAWN_TIMEOUT }, async () => {
    expect(blockAfter('example:results')).toBe(readFileSync(`${packageDir}examples/results.mjs`, 'utf8'));
    const { code, stdout } = await runNode(['examples/results.mjs'], { cwd: packageDir });
    expect([code, stdout]).toEqual([0, blockAfter('output:results')]);
  });
});
