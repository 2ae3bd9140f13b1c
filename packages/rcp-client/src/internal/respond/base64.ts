/** Bytes per `String.fromCharCode` call: well under every engine's argument limit. */
const CHUNK = 0x8000;

/**
 * Standard base64 (RFC 4648 §4, with padding) of bytes, on every runtime the client runs on
 * (`btoa` is global in Node 16+, browsers, Deno, Bun and edge runtimes; Buffer is Node's only).
 */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let offset = 0; offset < bytes.byteLength; offset += CHUNK) {
    binary += String.fromCharCode.apply(null, bytes.subarray(offset, offset + CHUNK) as unknown as number[]);
  }
  return btoa(binary);
}
