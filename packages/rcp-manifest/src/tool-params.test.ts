import { resolverSeedManifest, seedManifest } from 'rcp-test-utils';
import { describe, expect, it } from 'vitest';
import { parseManifest, toolParams, type RcpTool } from './index';

describe('toolParams', () => {
  it('defaults type to string and description to "", and forces path params to be required', () => {
    const [profile, search] = parseManifest(seedManifest).tools;
    expect(toolParams(profile as RcpTool)).toEqual([{ name: 'learnerId', type: 'string', required: true, description: "The learner's id" }]);
    expect(toolParams(search as RcpTool)).toEqual([{ name: 'query', type: 'string', required: true, description: 'Free-text search term' }]);
  });

  it('only path tokens are forced: query, header and body tokens keep their declared required', () => {
    const manifest = parseManifest({
      rcpVersion: '0.1',
      tools: [
        {
          name: 'update',
          description: 'Update.',
          method: 'PATCH',
          url: '/items/{{id}}/v{{version}}?mode={{mode}}',
          queryParams: { q: '{{q}}' },
          headers: { 'X-Trace': '{{trace}}' },
          body: { note: '{{note}}' },
          params: [
            { name: 'id', required: false },
            { name: 'version', type: 'integer' },
            { name: 'mode' },
            { name: 'q', required: true },
            { name: 'trace', description: 'trace id' },
            { name: 'note', type: 'object' },
          ],
        },
      ],
    });
    expect(toolParams(manifest.tools[0] as RcpTool)).toEqual([
      { name: 'id', type: 'string', required: true, description: '' },
      { name: 'version', type: 'integer', required: true, description: '' },
      { name: 'mode', type: 'string', required: false, description: '' },
      { name: 'q', type: 'string', required: true, description: '' },
      { name: 'trace', type: 'string', required: false, description: 'trace id' },
      { name: 'note', type: 'object', required: false, description: '' },
    ]);
  });

  it('is frozen, and the same on every call', () => {
    const tool = parseManifest(resolverSeedManifest).tools[0] as RcpTool;
    const first = toolParams(tool);
    expect(toolParams(tool)).toEqual(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first[0])).toBe(true);
  });

  it('a tool without params has none', () => {
    expect(toolParams({ name: 'ping', description: 'Ping.', method: 'GET', url: '/ping' })).toEqual([]);
  });
});
