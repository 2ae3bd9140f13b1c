import { describe, expect, it } from 'vitest';
import { apiCatalog, createRcpServer, defineTool, llmsTxtLine } from './index';

const server = createRcpServer({
  tools: ['search_courses', 'get_course'].map((name) => defineTool({ name, description: 'A tool.', method: 'GET', path: `/api/${name}`, handler: () => ({}) })),
});

describe('outputs from the same definitions', () => {
  it('an llms.txt line that stays one Markdown item', () => {
    expect(llmsTxtLine(server, 'https://learn.example.com/rcp/manifest', { title: 'Learning [platform]\ntools' })).toBe(
      '- [Learning  platform  tools](https://learn.example.com/rcp/manifest): RCP manifest, 2 HTTP tools: search_courses, get_course',
    );
  });

  it('an RFC 9727 api-catalog entry with the manifest as service-desc', () => {
    expect(apiCatalog('https://learn.example.com/rcp/manifest')).toEqual({
      linkset: [{ anchor: 'https://learn.example.com/', 'service-desc': [{ href: 'https://learn.example.com/rcp/manifest', type: 'application/json' }] }],
    });
  });
});
