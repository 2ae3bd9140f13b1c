import { describe, expect, it } from 'vitest';
import { isRcpError } from 'rcp-errors';
import { createStages, createToolSet, type RcpDiscovery } from './index';
import { createRcpClient } from './create-rcp-client';
import { notesManifest } from 'rcp-test-utils';

/** The notes manifest, loaded (nothing is fetched or sent). */
async function discovery(): Promise<{ discovery: RcpDiscovery; close: () => Promise<void> }> {
  const client = createRcpClient({ resolvers: { userId: () => 'u-1' }, onWarning: () => {} });
  const found = await client.load(notesManifest, { manifestUrl: 'http://127.0.0.1:9/rcp/manifest' });
  return { discovery: found, close: () => client.close() };
}

describe('createStages: stages over a tool set, one rule for every adapter', () => {
  it('gives each stage its subset, the whole set without a stage, and a set that lets nothing through for an unknown stage', async () => {
    const { discovery: found, close } = await discovery();
    try {
      const toolSet = createToolSet(found);
      const first = toolSet.names[0]!;
      const stages = createStages(toolSet, { browse: [first], all: () => true });
      expect(stages.ids).toEqual(['browse', 'all']);
      expect(stages.get('browse').names).toEqual([first]);
      expect(stages.get('all').names).toEqual(toolSet.names);
      expect(stages.scope(undefined)).toBe(toolSet);
      expect(stages.scope('browse')).toBe(stages.get('browse'));
      const nowhere = stages.scope('nope');
      expect(nowhere.names).toEqual([]);
      expect(() => nowhere.tool(first)).toThrow(expect.objectContaining({ code: 'RCP_TOOL_NOT_IN_STAGE' }));
      const second = toolSet.names[1]!;
      expect(() => stages.get('browse').tool(second)).toThrow(expect.objectContaining({ code: 'RCP_TOOL_NOT_IN_STAGE' }));
    } finally {
      await close();
    }
  });

  it('refuses an unknown stage id with the defined ones, and a blank one', async () => {
    const { discovery: found, close } = await discovery();
    try {
      const stages = createStages(createToolSet(found), { browse: [] });
      let caught: unknown;
      try {
        stages.get('act');
      } catch (error) {
        caught = error;
      }
      expect(isRcpError(caught, 'RCP_INVALID_OPTIONS') && caught.message).toBe('No stage "act" in this tool set (its stages: browse)');
      expect(() => createStages(createToolSet(found), { ' ': [] })).toThrow(expect.objectContaining({ code: 'RCP_INVALID_OPTIONS' }));
      expect(() => createStages(createToolSet(found)).get('x')).toThrow('(its stages: none)');
    } finally {
      await close();
    }
  });
});
