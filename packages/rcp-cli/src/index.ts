export { runCli, runMcpCli, VERSION } from './run-cli';
export type { RunCliInput, RunCliOptions, RunCliOutput } from './run-cli';
export { starterManifest } from './starter-manifest';
