/**
 * A tool with responseMappings has an output schema (SPEC §9): what a real call's data is,
 * checked with ajv against a loopback server's answers, with and without the mapped values.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Ajv from 'ajv';
import { sendJson, startTestServer, type TestServer } from 'rcp-test-utils';
import { createRcpClient } from 'rcp-client';
import { serveManifest } from './internal/testing';

let api: TestServer;
beforeEach(async () => {
  api = await startTestServer();
});
afterEach(async () => {
  await api.close();
});

describe('tool.outputSchema', () => {
  it('is derived from the mappings (singular: any value, optional; other: a required array) and validates real data', async () => {
    let answer: unknown = { data: { name: 'Ada', progress: { percent: 42 }, courses: [{ title: 'Logic' }, { title: 'Sets' }] } };
    api.route('GET /profile', (_request, res) => sendJson(res, 200, answer));
    const client = createRcpClient({ retry: 0 });
    const discovery = await client.discover(
      serveManifest(api, {
        rcpVersion: '0.1',
        tools: [
          {
            name: 'get_profile',
            description: 'Reads a profile.',
            method: 'GET',
            url: '/profile',
            responseMappings: { name: '@data.name', percent: '@data.progress.percent', titles: '@data.courses[*].title' },
          },
          { name: 'ping', description: 'Ping.', method: 'GET', url: '/profile' },
        ],
      }),
    );
    const tool = discovery.tool('get_profile');
    expect(tool.outputSchema).toEqual({
      type: 'object',
      properties: { name: {}, percent: {}, titles: { type: 'array' } },
      required: ['titles'],
      additionalProperties: false,
    });
    expect(discovery.tool('ping')).not.toHaveProperty('outputSchema');
    const validate = new Ajv({ strict: true }).compile(tool.outputSchema!);
    const full = await client.execute(tool, {});
    expect(full.data).toEqual({ name: 'Ada', percent: 42, titles: ['Logic', 'Sets'] });
    expect(validate(full.data)).toBe(true);
    answer = { data: {} };
    const empty = await client.execute(tool, {});
    expect(empty.data).toEqual({ titles: [] });
    expect(validate(empty.data)).toBe(true);
  });
});
