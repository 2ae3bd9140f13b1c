import { createRcpServer, defineTool } from 'rcp-server';

const reportBytes = new TextEncoder().encode('%PDF-1.4 …'); // your PDF's bytes
const records = ['r-1', 'r-2', 'r-3'];

const server = createRcpServer({
  tools: [
    defineTool({
      name: 'get_report',
      description: 'Gets the monthly report as a PDF.',
      method: 'GET',
      path: '/report',
      responseMediaTypes: ['application/pdf'],
      handler: () => new Response(reportBytes, { headers: { 'content-type': 'application/pdf' } }),
    }),
    defineTool({
      name: 'list_records',
      description: 'Lists records, two at a time.',
      method: 'GET',
      path: '/records',
      params: [{ name: 'cursor', type: 'integer', description: 'From the previous page' }],
      queryParams: { cursor: '{{cursor}}' },
      pagination: { nextCursor: '@next', param: 'cursor' }, // param: 'page' would not compile
      handler: ({ values }) => {
        const start = typeof values.cursor === 'number' ? values.cursor : 0;
        return { items: records.slice(start, start + 2), next: start + 2 < records.length ? start + 2 : null };
      },
    }),
  ],
});
console.log(server.manifest.rcpVersion); // 0.3
