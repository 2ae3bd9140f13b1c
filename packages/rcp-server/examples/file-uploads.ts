import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { createRcpClient } from 'rcp-client';
import { createRcpServer } from 'rcp-server';
import { toNodeListener } from 'rcp-server/node';

const server = createRcpServer({
  tools: (tool) => [
    tool({
      name: 'upload_receipt',
      description: 'Files a receipt (an image or a PDF) under an expense.',
      method: 'POST',
      path: '/receipts',
      params: [
        { name: 'receipt', type: 'file', required: true, mediaTypes: ['image/*', 'application/pdf'], maxBytes: 5_000_000 },
        { name: 'expense', required: true },
      ],
      // Each field of the body is one part; a file param's field is a file part.
      body: { receipt: '{{receipt}}', expense: '{{expense}}' },
      bodyEncoding: 'multipart',
      // Checked before the handler runs: the media type, the size, the text fields.
      handler: ({ values }) => ({
        expense: values.expense,
        filename: values.receipt.filename,
        mediaType: values.receipt.mediaType,
        size: values.receipt.size,
        sha256: createHash('sha256').update(values.receipt.bytes).digest('hex').slice(0, 12),
      }),
    }),
  ],
});
console.log(server.manifest.rcpVersion);

// The model names an attachment; the host's resolver gives its bytes (here, from memory).
const http = createServer(toNodeListener(server)).listen(0, '127.0.0.1');
await once(http, 'listening');
const address = http.address();
const port = typeof address === 'object' && address !== null ? address.port : 0;
const attachments = { 'att-1': { bytes: new TextEncoder().encode('%PDF-1.4 a receipt'), mediaType: 'application/pdf', filename: 'taxi.pdf' } };
const client = createRcpClient({ files: (reference: string) => attachments[reference as keyof typeof attachments] });
const discovery = await client.discover(`http://127.0.0.1:${port}/rcp/manifest`);
const result = await client.execute(discovery.tool('upload_receipt'), { receipt: 'att-1', expense: 'exp-42' });
console.log(result.data);
http.close();
