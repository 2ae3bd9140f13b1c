import { createHash } from 'node:crypto';

/**
 * Real media byte sequences for tests of binary results (SPEC §18.3), shared so that the client
 * and every adapter compare the same bytes by hash.
 */

/** A valid 1×1 PNG (signature, IHDR, IDAT, IEND with their CRCs): 70 bytes. */
export function pngBytes(): Uint8Array {
  return new Uint8Array(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64'));
}

/**
 * A valid one-page PDF 1.4 (catalog, pages, page; a cross-reference table with the real byte
 * offsets), with the binary comment line after the header (bytes above 0x7F) that PDF writers
 * add so that no tool takes the file for text.
 */
export function pdfBytes(): Uint8Array {
  const objects = ['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 72 72] >>'];
  let text = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(Buffer.byteLength(text, 'latin1'));
    text += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(text, 'latin1');
  text += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) text += `${String(offset).padStart(10, '0')} 00000 n \n`;
  text += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(text, 'latin1'));
}

/** The SHA-256 of bytes (or of base64 text, decoded first), hex. */
export function sha256(bytes: Uint8Array | { readonly base64: string }): string {
  const data = bytes instanceof Uint8Array ? bytes : Buffer.from(bytes.base64, 'base64');
  return createHash('sha256').update(data).digest('hex');
}
