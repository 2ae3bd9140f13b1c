import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { createRcpServer, defineTool } from './index';
import { rcpExpress } from './express';

describe('rcpExpress under a mount path', () => {
  it('routes by the original URL, so the paths stay the manifest’s', async () => {
    const server = createRcpServer({
      manifestPath: '/v1/rcp/manifest',
      tools: [defineTool({ name: 'ping', description: 'Pings.', method: 'GET', path: '/v1/ping', handler: () => ({ pong: true }) })],
    });
    const app = express();
    app.use('/v1', rcpExpress(server));
    const http = createServer(app);
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    try {
      expect((await fetch(`${origin}/v1/rcp/manifest`)).status).toBe(200);
      expect(await (await fetch(`${origin}/v1/ping`)).json()).toEqual({ pong: true });
    } finally {
      await new Promise<void>((resolve) => http.close(() => resolve()));
    }
  });
});
