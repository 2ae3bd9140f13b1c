// CommonJS: discover + execute through the package named on the command line.
const { serve } = require('./serve.cjs');

const specifier = process.argv[2];
const { createRcpClient, isRcpError } = require(specifier);
async function main() {
  const server = await serve();
  const client = createRcpClient({ resolvers: { userId: (ctx) => ctx.userId }, credentials: () => 'tok' });
  const discovery = await client.discover(server.url);
  const { data } = await client.execute(discovery.tool('get_note'), { noteId: 'n-1' }, { userId: 'u-1' });
  let spoof = 'accepted';
  try {
    await client.execute(discovery.tool('get_note'), { noteId: 'n-1', userId: 'u-7' }, { userId: 'u-1' });
  } catch (error) {
    if (isRcpError(error, 'RCP_INVALID_ARGUMENTS')) spoof = 'refused';
  }
  server.close();
  console.log(JSON.stringify({ specifier, format: 'cjs', result: { ok: true, data }, spoof, received: server.received }));
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
