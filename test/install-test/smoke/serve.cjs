// A one-tool RCP server on 127.0.0.1 for the smoke scripts; records what it received.
const { createServer } = require('node:http');

exports.serve = async function serve() {
  const received = [];
  const server = createServer((req, res) => {
    received.push(`${req.method} ${req.url} ${req.headers.authorization ?? '-'}`);
    const body =
      req.url === '/rcp/manifest'
        ? {
            rcpVersion: '0.1',
            auth: { type: 'header', name: 'Authorization', scheme: 'Bearer' },
            tools: [
              {
                name: 'get_note',
                description: 'Gets a note.',
                method: 'GET',
                url: '/users/{{userId}}/notes/{{noteId}}',
                params: [
                  { name: 'userId', required: true },
                  { name: 'noteId', required: true },
                ],
              },
            ],
          }
        : { id: 'n-1', title: 'Groceries' };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/rcp/manifest`, received, close: () => server.close() };
};
