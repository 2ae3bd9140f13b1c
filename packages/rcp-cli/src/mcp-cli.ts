#!/usr/bin/env node
/** The `rcp-mcp` bin: the gateway's command line on the process's own streams. */
import { runMcpCli } from './run-cli';

void runMcpCli(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
