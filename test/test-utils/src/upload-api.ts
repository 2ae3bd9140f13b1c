import { pdfBytes, pngBytes, sha256 } from './media';
import { sendJson, serveManifest, startTestServer, type RecordedRequest, type TestServer } from './test-server';

/**
 * The manifest {@link startUploadApi} serves (RCP 0.4, SPEC §20.7): `upload_document`, a multipart
 * upload whose `document` is a file param (PNG or PDF, at most 64 KiB) the model fills with an
 * attachment reference, beside a text field `title`; its `userId` is filled by the client (the
 * `X-User` header), so the host's `files` resolver can check whose attachment it is.
 */
export const uploadManifest = {
  rcpVersion: '0.4',
  tools: [
    {
      name: 'upload_document',
      description: 'Uploads one of the user’s attachments as a document.',
      method: 'POST',
      url: '/documents',
      headers: { 'X-User': '{{userId}}' },
      params: [
        { name: 'userId', required: true },
        {
          name: 'document',
          type: 'file',
          required: true,
          description: 'The attachment to upload.',
          mediaTypes: ['image/png', 'application/pdf'],
          maxBytes: 65_536,
        },
        { name: 'title', required: true, description: 'The document’s title' },
      ],
      bodyEncoding: 'multipart',
      body: { title: '{{title}}', document: '{{document}}' },
    },
  ],
} as const;

/** One attachment the host holds: whose it is, and the file. */
interface Attachment {
  readonly owner: string;
  readonly bytes: Uint8Array;
  readonly mediaType: string;
  readonly filename: string;
}

/** The attachments the test host issued, by reference: a PNG and a PDF of `ada`'s. */
export const UPLOAD_ATTACHMENTS: Readonly<Record<string, Attachment>> = Object.freeze({
  'att-png-1': { owner: 'ada', bytes: pngBytes(), mediaType: 'image/png', filename: 'chart.png' },
  'att-pdf-1': { owner: 'ada', bytes: pdfBytes(), mediaType: 'application/pdf', filename: 'report.pdf' },
});

/**
 * The host's `files` resolver for {@link UPLOAD_ATTACHMENTS}: the attachment when the context's user
 * owns it, else none (the client's `RCP_UNRESOLVED`, nothing sent).
 */
export function uploadFiles(reference: string, ctx: { readonly userId?: string } | undefined): Omit<Attachment, 'owner'> | undefined {
  const attachment = Object.hasOwn(UPLOAD_ATTACHMENTS, reference) ? UPLOAD_ATTACHMENTS[reference] : undefined;
  if (attachment === undefined || attachment.owner !== ctx?.userId) return undefined;
  return { bytes: attachment.bytes, mediaType: attachment.mediaType, filename: attachment.filename };
}

/** A received part: a text field's value, or a file's name, media type and SHA-256 (hex). */
export type UploadedPart =
  | { readonly name: string; readonly value: string }
  | { readonly name: string; readonly filename: string; readonly type: string; readonly sha256: string };

/** The parts of a received multipart body, parsed by undici's parser (`Response.formData()`), not the client's encoder. */
export async function uploadedParts(request: RecordedRequest): Promise<UploadedPart[]> {
  const contentType = String(request.headers['content-type']);
  const form = await new Response(Buffer.from(request.bytes), { headers: { 'content-type': contentType } }).formData();
  const parts: UploadedPart[] = [];
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') parts.push({ name, value });
    else parts.push({ name, filename: value.name, type: value.type, sha256: sha256(new Uint8Array(await value.arrayBuffer())) });
  }
  return parts;
}

/**
 * Starts the upload API on loopback: `POST /documents` answers `201 { "id": "doc-1" }`; read what
 * it received with {@link uploadedParts}. Every adapter's files test uses it, so each stack sends
 * the same attachment.
 */
export async function startUploadApi(): Promise<{ server: TestServer; manifestUrl: string }> {
  const server = await startTestServer();
  const manifestUrl = serveManifest(server, uploadManifest);
  server.route('POST /documents', (_request, res) => sendJson(res, 201, { id: 'doc-1' }));
  return { server, manifestUrl };
}
