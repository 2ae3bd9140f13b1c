export { startTestServer, sendJson, serveManifest } from './test-server';
export type { TestServer, RecordedRequest, TestRouteHandler } from './test-server';
export { seedManifest, resolverSeedManifest, seedManifestAt, cloneFixture } from './fixtures';
export { notesManifest, startNotesApi, toolRequestLines, NOTES_TOKEN } from './notes-api';
export { readmeBlock, runReadmeSnippet } from './readme-snippet';
export { FAKE_DNS_PRELOAD, SPAWN_TIMEOUT, runNode } from './spawn-node';
export type { NodeRun } from './spawn-node';
export { pngBytes, pdfBytes, sha256 } from './media';
