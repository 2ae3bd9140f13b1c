export { runCli, VERSION } from './run-cli';
export { starterManifest } from './starter-manifest';
