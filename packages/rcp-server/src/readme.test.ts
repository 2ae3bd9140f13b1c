import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createRcpClient } from 'rcp-client';
import { readmeBlock, SPAWN_TIMEOUT } from 'rcp-test-utils';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const example = `${packageDir}examples/smallest-server.mjs`;

describe('README: the smallest server', () => {
  it('is the example file, as written', () => {
    expect(readmeBlock(`${packageDir}README.md`, 'example:smallest-server')).toBe(readFileSync(example, 'utf8'));
  });

  it('runs, and rcp-client calls it end to end; a spoofed user is a 403', { timeout: SPAWN_TIMEOUT }, async () => {
    const child = spawn(process.execPath, [example], { cwd: packageDir, env: { ...process.env, PORT: '0', API_TOKEN: 'readme-token' } });
    try {
      const manifestUrl = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const match = /RCP manifest: (\S+)/.exec(out);
          if (match) resolve(match[1]!);
        });
        child.once('exit', (code) => reject(new Error(`the example exited (${code})`)));
      });
      expect(manifestUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/rcp\/manifest$/);
      const client = createRcpClient({ resolvers: { userId: (ctx: { userId: string }) => ctx.userId }, credentials: () => 'readme-token' });
      const discovery = await client.discover(manifestUrl);
      const outcome = await client.call(discovery, { name: 'list_notes', arguments: '{"word":"Groc"}' }, { userId: 'u-1' });
      expect(outcome).toMatchObject({ ok: true, result: { data: { notes: [{ id: 'n-1', title: 'Groceries' }] } } });
      const spoofed = await fetch(manifestUrl.replace('/rcp/manifest', '/users/u-2/notes'), { headers: { authorization: 'Bearer readme-token' } });
      expect(spoofed.status).toBe(403);
    } finally {
      child.kill();
    }
  });
});
