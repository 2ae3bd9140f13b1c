import { once } from 'node:events';
import { createServer } from 'node:http';
import { createRcpClient, createToolSet } from 'rcp-client';
import { createRcpServer } from 'rcp-server';
import { toNodeListener } from 'rcp-server/node';

const server = createRcpServer({
  groups: [
    { name: 'invoices', description: 'Invoices and their payments.' },
    { name: 'customers', description: 'The customers invoices are sent to.' },
  ],
  tools: (tool) => [
    tool({
      name: 'list_invoices',
      description: 'Lists the invoices of a customer.',
      method: 'GET',
      path: '/invoices',
      group: 'invoices', // group: 'refunds' would not compile: it is not one of the groups
      params: [{ name: 'customer', required: true }],
      queryParams: { customer: '{{customer}}' },
      handler: ({ values }) => ({ customer: values.customer, invoices: [] }),
    }),
    tool({
      name: 'get_customer',
      description: 'Gets a customer.',
      method: 'GET',
      path: '/customers/{{id}}',
      group: 'customers',
      params: [{ name: 'id' }],
      handler: ({ values }) => ({ id: values.id }),
    }),
    tool({ name: 'health', description: 'Says the API is up.', method: 'GET', path: '/health', handler: () => ({ ok: true }) }),
  ],
});
console.log(server.manifest.rcpVersion);

// rcp-client reads the groups: each tool's `group`, and the tool set's groups (what search and adapters use).
const http = createServer(toNodeListener(server)).listen(0, '127.0.0.1');
await once(http, 'listening');
const address = http.address();
const port = typeof address === 'object' && address !== null ? address.port : 0;
const toolSet = createToolSet(await createRcpClient().discover(`http://127.0.0.1:${port}/rcp/manifest`));
for (const group of toolSet.groups) console.log(`${group.name}: ${group.names.join(', ')} (${group.description})`);
http.close();
