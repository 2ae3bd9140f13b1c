export { startTestServer, sendJson, serveManifest } from './test-server';
export type { TestServer, RecordedRequest, TestRouteHandler } from './test-server';
export { seedManifest, resolverSeedManifest, seedManifestAt, cloneFixture } from './fixtures';
export { notesManifest, startNotesApi, toolRequestLines, NOTES_TOKEN } from './notes-api';
export { detailsManifest } from './details-manifest';
export { groupedTool } from './grouped-tool';
export { findReadmeBlock, readmeBlock, runReadmeSnippet } from './readme-snippet';
export type { ReadmeBlock } from './readme-snippet';
export { FAKE_DNS_PRELOAD, SPAWN_TIMEOUT, runNode } from './spawn-node';
export type { NodeRun } from './spawn-node';
export { pngBytes, pdfBytes, sha256 } from './media';
export {
  resultsManifest,
  startResultsApi,
  RESULTS_RECORDS,
  RESULTS_ARCHIVE_BYTES,
  RESULTS_MAX_MEDIA_BYTES,
  RESULTS_RETRY_AFTER_SECONDS,
} from './results-api';
export { LARGE_CATALOG_SIZE, largeCatalogManifest, largeCatalogOpenApi } from './large-catalog';
export { moduleStateIn } from './module-state';
export { undocumentedExports } from './export-docs';
export { STREAM_EVENTS, STREAM_TEXT, startStreamApi, streamManifest } from './stream-api';
export { OPERATION_RESULT, operationManifest, startOperationApi } from './operation-api';
export { UPLOAD_ATTACHMENTS, startUploadApi, uploadFiles, uploadManifest, uploadedParts } from './upload-api';
export type { UploadedPart } from './upload-api';
