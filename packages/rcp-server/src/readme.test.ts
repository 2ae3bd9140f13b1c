import { spawn } from 'node:child_process';
import { copyFileSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createRcpClient } from 'rcp-client';
import { readmeBlock, runReadmeSnippet, SPAWN_TIMEOUT } from 'rcp-test-utils';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const example = `${packageDir}examples/smallest-server.ts`;

/** Starts an example (PORT 0), waits for the manifest URL it prints; the caller kills it. */
async function startExample(file: string, token: string) {
  const child = spawn(process.execPath, [file], { cwd: packageDir, env: { ...process.env, PORT: '0', API_TOKEN: token } });
  const manifestUrl = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /RCP manifest: (\S+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`the example exited (${code})`)));
  });
  return { child, manifestUrl };
}

describe.each(['express-server', 'hono-server'])('README: the %s example', (name) => {
  const file = `${packageDir}examples/${name}.mjs`;
  it('is the file, as written', () => {
    expect(readmeBlock(`${packageDir}README.md`, `example:${name}`)).toBe(readFileSync(file, 'utf8'));
  });

  it('runs: rcp-client calls its tool, a spoofed user is a 403, the app keeps its own routes', { timeout: SPAWN_TIMEOUT }, async () => {
    const { child, manifestUrl } = await startExample(file, 'example-token');
    try {
      const client = createRcpClient({ resolvers: { userId: (ctx: { userId: string }) => ctx.userId }, credentials: () => 'example-token' });
      const discovery = await client.discover(manifestUrl);
      expect(await client.call(discovery, { name: 'get_user', arguments: {} }, { userId: 'u-1' })).toMatchObject({
        ok: true,
        result: { data: { id: 'u-1', plan: 'pro' } },
      });
      const origin = new URL(manifestUrl).origin;
      expect((await fetch(`${origin}/users/u-2`, { headers: { authorization: 'Bearer example-token' } })).status).toBe(403);
      expect(await (await fetch(`${origin}/health`)).json()).toEqual({ ok: true });
    } finally {
      child.kill();
    }
  });
});

describe('README: the smallest server', () => {
  it('is the example file, as written', () => {
    expect(readmeBlock(`${packageDir}README.md`, 'example:smallest-server')).toBe(readFileSync(example, 'utf8'));
  });

  it('runs as JavaScript unchanged, and rcp-client calls it end to end; a spoofed user is a 403', { timeout: SPAWN_TIMEOUT }, async () => {
    // The same text saved as .mjs (the README says it has nothing to erase): node runs it as it is.
    const script = `${packageDir}.readme-smallest-server-run.mjs`;
    copyFileSync(example, script);
    const { child, manifestUrl } = await startExample(script, 'readme-token');
    try {
      expect(manifestUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/rcp\/manifest$/);
      const client = createRcpClient({ resolvers: { userId: (ctx: { userId: string }) => ctx.userId }, credentials: () => 'readme-token' });
      const discovery = await client.discover(manifestUrl);
      const outcome = await client.call(discovery, { name: 'list_notes', arguments: '{"word":"Groc"}' }, { userId: 'u-1' });
      expect(outcome).toMatchObject({ ok: true, result: { data: { notes: [{ id: 'n-1', title: 'Groceries' }] } } });
      const spoofed = await fetch(manifestUrl.replace('/rcp/manifest', '/users/u-2/notes'), { headers: { authorization: 'Bearer readme-token' } });
      expect(spoofed.status).toBe(403);
    } finally {
      child.kill();
      rmSync(script, { force: true });
    }
  });
});

describe('README: files and pages', () => {
  it('runs as written: the manifest is 0.3 (examples/files-and-pages.ts, checked by the TypeScript pass)', { timeout: SPAWN_TIMEOUT }, async () => {
    expect(await runReadmeSnippet(packageDir, 'snippet:files-and-pages')).toBe('0.3\n');
  });
});

describe('README: tool groups', () => {
  it('runs as written: a "0.4" manifest whose groups rcp-client reads (examples/tool-groups.ts, checked by the TypeScript pass)', {
    timeout: SPAWN_TIMEOUT,
  }, async () => {
    expect(await runReadmeSnippet(packageDir, 'snippet:tool-groups')).toBe(readmeBlock(`${packageDir}README.md`, 'output:tool-groups'));
  });
});

describe('README: streamed answers', () => {
  it('runs as written: an async generator streamed to rcp-client, collected into one result (examples/streamed-answer.ts, checked by the TypeScript pass)', {
    timeout: SPAWN_TIMEOUT,
  }, async () => {
    expect(await runReadmeSnippet(packageDir, 'snippet:streamed-answer')).toBe(readmeBlock(`${packageDir}README.md`, 'output:streamed-answer'));
  });
});

describe('README: file uploads', () => {
  it('runs as written: rcp-client uploads an attachment, the handler reads its name, type, size and bytes (examples/file-uploads.ts, checked by the TypeScript pass)', {
    timeout: SPAWN_TIMEOUT,
  }, async () => {
    expect(await runReadmeSnippet(packageDir, 'snippet:file-uploads')).toBe(readmeBlock(`${packageDir}README.md`, 'output:file-uploads'));
  });
});

describe('README: OAuth 2, end to end', () => {
  it('runs as written: the agent is served, an anonymous call is a 401 (examples/oauth-end-to-end.ts, checked by the TypeScript pass)', {
    timeout: SPAWN_TIMEOUT,
  }, async () => {
    expect(await runReadmeSnippet(packageDir, 'snippet:oauth-end-to-end')).toBe(readmeBlock(`${packageDir}README.md`, 'output:oauth-end-to-end'));
  });
});
