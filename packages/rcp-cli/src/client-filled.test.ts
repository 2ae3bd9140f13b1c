import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { SPAWN_TIMEOUT } from 'rcp-test-utils';
import { runRcp } from './fixtures/run-rcp';

/**
 * Issue 45, item 6: a param the manifest says the client fills (RCP 0.4 `filledBy: "client"`,
 * what rcp-server serves for its bound params) gets no identity warning from describe and lint.
 */
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rcp-client-filled-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const notes = (userId: Record<string, unknown>) => ({
  rcpVersion: '0.1',
  tools: [
    {
      name: 'list_notes',
      description: 'Lists notes.',
      method: 'GET',
      url: 'https://api.example.com/users/{{userId}}/notes',
      params: [{ name: 'userId', description: 'The user', ...userId }, { name: 'accountId' }],
      queryParams: { account: '{{accountId}}' },
    },
  ],
});

it('describe and lint warn only for the identity param nobody says the client fills', { timeout: SPAWN_TIMEOUT }, async () => {
  const file = join(dir, 'm.rcp.json');
  writeFileSync(file, JSON.stringify(notes({ filledBy: 'client' })));
  const linted = await runRcp(['lint', file]);
  expect(linted.code).toBe(0);
  expect(linted.stdout).toContain('0 error(s), 1 warning(s)');
  expect(linted.stdout).toContain('warning /tools/0/params/1');
  expect(linted.stdout).not.toContain('/tools/0/params/0');
  const json = JSON.parse((await runRcp(['lint', file, '--json'])).stdout) as { warnings: { path: string }[] };
  expect(json.warnings.map((warning) => warning.path)).toEqual(['/tools/0/params/1']);
  const described = await runRcp(['describe', file, '--json']);
  expect((JSON.parse(described.stdout) as { warnings: { path: string }[] }).warnings.map((warning) => warning.path)).toEqual(['/tools/0/params/1']);
  expect((await runRcp(['describe', file])).stderr).not.toContain('warning /tools/0/params/0');

  // Without the hint, the same manifest warns for both (the check itself is unchanged).
  writeFileSync(file, JSON.stringify(notes({})));
  expect((await runRcp(['lint', file])).stdout).toContain('0 error(s), 2 warning(s)');
});
