import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { runRcp } from './fixtures/run-rcp';

/**
 * Issue 22, item 4: `rcp describe` and `rcp lint` show what an OAuth login needs, from the
 * manifest's RCP 0.3 hint — and the hint's text is untrusted (escaped on the terminal).
 */
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rcp-oauth-hint-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const manifest = {
  rcpVersion: '0.3',
  auth: {
    type: 'header',
    name: 'Authorization',
    scheme: 'Bearer',
    oauth: { scopes: ['notes.read'], issuer: 'https://login.example.com', grantTypes: ['client_credentials'] },
  },
  tools: [
    { name: 'list_notes', description: 'Lists notes.', method: 'GET', url: 'https://api.example.com/notes' },
    {
      name: 'delete_note',
      description: 'Deletes a note.',
      method: 'DELETE',
      url: 'https://api.example.com/notes',
      auth: { type: 'header', name: 'Authorization', scheme: 'Bearer', oauth: { scopes: ['notes.write'] } },
      effects: { destructive: true },
    },
  ],
};

it('describe and lint show the login each tool needs and the declared effects', async () => {
  const file = join(dir, 'm.rcp.json');
  writeFileSync(file, JSON.stringify(manifest));
  const described = await runRcp(['describe', file]);
  expect(described.code).toBe(0);
  expect(described.stdout).toContain(
    'auth: header "Authorization" (scheme: Bearer), OAuth 2 (scopes notes.read; issuer https://login.example.com; grants client_credentials)',
  );
  expect(described.stdout).toContain(
    '- delete_note (DELETE, effects: writes, destructive, idempotent, auth: header "Authorization" (scheme: Bearer), OAuth 2 (scopes notes.write))',
  );
  const linted = await runRcp(['lint', file]);
  expect(linted.code).toBe(0);
  expect(linted.stdout.split('\n').filter((line) => line.startsWith('login'))).toEqual([
    'login  header "Authorization" (scheme: Bearer), OAuth 2 (scopes notes.read; issuer https://login.example.com; grants client_credentials)',
    'login  header "Authorization" (scheme: Bearer), OAuth 2 (scopes notes.write)',
  ]);
  const json = JSON.parse((await runRcp(['lint', file, '--json'])).stdout) as { logins: string[] };
  expect(json.logins).toHaveLength(2);
});

it('an issuer that is not https is a lint error at its pointer', async () => {
  const file = join(dir, 'bad.rcp.json');
  writeFileSync(file, JSON.stringify({ ...manifest, auth: { ...manifest.auth, oauth: { issuer: 'http://login.example.com' } } }));
  const linted = await runRcp(['lint', file, '--json']);
  expect(linted.code).toBe(1);
  expect(JSON.parse(linted.stdout).errors).toEqual([{ path: '/auth/oauth/issuer', message: 'must be an https URL (http only on a loopback host)' }]);
});
