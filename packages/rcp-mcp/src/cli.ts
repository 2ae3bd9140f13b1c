#!/usr/bin/env node
/** The `rcp-mcp` bin. */
import { runMcpCli } from './run-mcp-cli';

void runMcpCli(process.argv.slice(2));
