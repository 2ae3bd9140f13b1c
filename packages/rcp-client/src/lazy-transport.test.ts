/**
 * Cold start (issue 26): undici is loaded when the first request needs it, not when rcp-client is
 * imported or a client created. Checked in a fresh Node process against the built package.
 */
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { createRcpClient } from 'rcp-client';
import { SPAWN_TIMEOUT, runNode } from 'rcp-test-utils';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

const script = `
const http = require('node:http');
const path = require('node:path');
const { createRcpClient } = require('rcp-client');
const undiciLoaded = () => Object.keys(require.cache).some((file) => file.includes(path.sep + 'undici' + path.sep));
const server = http.createServer((req, res) => {
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ rcpVersion: '0.1', tools: [] }));
});
server.listen(0, '127.0.0.1', async () => {
  const client = createRcpClient();
  const atCreate = undiciLoaded();
  await client.discover('http://127.0.0.1:' + server.address().port + '/rcp/manifest');
  console.log(JSON.stringify({ atCreate, afterRequest: undiciLoaded() }));
  await client.close();
  server.close();
});
`;

it('importing rcp-client and creating a client loads no undici; the first request does', { timeout: SPAWN_TIMEOUT }, async () => {
  const run = await runNode(['-e', script], { cwd: packageDir });
  expect(JSON.parse(run.stdout.trim())).toEqual({ atCreate: false, afterRequest: true });
});

it('closing a client that never sent a request opens nothing and resolves', async () => {
  await expect(createRcpClient().close()).resolves.toBeUndefined();
});
