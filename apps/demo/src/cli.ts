import { runDemo } from './run-demo';

/**
 * The demo's command line (`pnpm demo` runs this file, built: `dist/cli.js`) on the process's own streams. A run that
 * ends leaves nothing open, but an SDK's keep-alive sockets may linger a moment: the bin exits with
 * the code at once, as a command line should.
 */
void runDemo(process.argv.slice(2)).then((code) => process.exit(code));
