/**
 * Sealed operation handles (SPEC §20.8): what a pending long-running operation is resumed from.
 * A handle is AES-256-GCM over its JSON, under a key derived (HKDF-SHA-256) from the client's one
 * secret — the `approvalSecret` when the operator gives one (clients sharing it open each other's
 * handles), else a random one of this client. It is opaque (the status URL and the headers it
 * holds may carry resolver values) and cannot be forged or altered without the secret.
 */
import { toBase64 } from '../respond/base64';

/** What a handle holds. */
export interface OperationHandleContent {
  /** The manifest the tool was discovered from. */
  readonly manifestUrl: string;
  /** The tool's name. */
  readonly tool: string;
  /** The status URL (on the tool's origin; a query credential is never in it). */
  readonly statusUrl: string;
  /** The headers every poll sends besides the credential (the tool's rendered headers). */
  readonly headers: Readonly<Record<string, string>>;
  /** Who may resume it: a keyed fingerprint of the caller and the resolver values (`operation.ts`). */
  readonly binding: string;
  /** When it stops opening, in milliseconds since the epoch. */
  readonly expiresAt: number;
}

/** The version prefix of every handle this client writes. */
const PREFIX = 'rcp1.';
/** Authenticated with the handle, never stored in it: a handle is only ever read as one. */
const ADDITIONAL_DATA = new TextEncoder().encode('rcp-operation-handle/1');
/** The longest handle read: a larger text is refused before any decryption. */
const MAX_HANDLE_LENGTH = 16_384;

type SealingKey = Awaited<ReturnType<typeof globalThis.crypto.subtle.importKey>>;

/** The sealer of one client: `seal` writes a handle, `open` reads one (or answers `undefined`). */
export interface HandleSealer {
  seal(content: OperationHandleContent): Promise<string>;
  open(handle: unknown): Promise<OperationHandleContent | undefined>;
}

/** A sealer keyed by `secret` (the client's approval secret or its random one). */
export function createHandleSealer(secret: Uint8Array): HandleSealer {
  let key: Promise<SealingKey> | undefined;
  const keyOf = (): Promise<SealingKey> =>
    (key ??= (async () => {
      const subtle = globalThis.crypto.subtle;
      const base = await subtle.importKey('raw', secret, 'HKDF', false, ['deriveKey']);
      return subtle.deriveKey(
        { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: new TextEncoder().encode('rcp-operation-handle') },
        base,
        { name: 'AES-GCM', length: 256 },
        false,
        ['encrypt', 'decrypt'],
      );
    })());

  return {
    async seal(content) {
      const iv = globalThis.crypto.getRandomValues(new Uint8Array(12));
      const plain = new TextEncoder().encode(JSON.stringify(content));
      const sealed = new Uint8Array(await globalThis.crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: ADDITIONAL_DATA }, await keyOf(), plain));
      const out = new Uint8Array(iv.byteLength + sealed.byteLength);
      out.set(iv);
      out.set(sealed, iv.byteLength);
      return PREFIX + bytesToBase64Url(out);
    },
    async open(handle) {
      if (typeof handle !== 'string' || !handle.startsWith(PREFIX) || handle.length > MAX_HANDLE_LENGTH) return undefined;
      const bytes = base64UrlToBytes(handle.slice(PREFIX.length));
      if (bytes === undefined || bytes.byteLength < 12 + 16) return undefined;
      let plain: ArrayBuffer;
      try {
        plain = await globalThis.crypto.subtle.decrypt(
          { name: 'AES-GCM', iv: bytes.subarray(0, 12), additionalData: ADDITIONAL_DATA },
          await keyOf(),
          bytes.subarray(12),
        );
      } catch {
        return undefined; // forged, altered, or sealed under another secret
      }
      return contentOf(new TextDecoder().decode(plain));
    },
  };
}

/** The content of an opened handle, checked field by field (a handle of another version is refused). */
function contentOf(text: string): OperationHandleContent | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const content = value as Record<string, unknown>;
  const headers = content['headers'];
  if (
    typeof content['manifestUrl'] !== 'string' ||
    typeof content['tool'] !== 'string' ||
    typeof content['statusUrl'] !== 'string' ||
    typeof content['binding'] !== 'string' ||
    typeof content['expiresAt'] !== 'number' ||
    typeof headers !== 'object' ||
    headers === null ||
    Object.values(headers).some((entry) => typeof entry !== 'string')
  ) {
    return undefined;
  }
  return content as unknown as OperationHandleContent;
}

/** Base64url without padding (RFC 4648 §5): a handle fits in a URL or a tool argument as it is. */
function bytesToBase64Url(bytes: Uint8Array): string {
  return toBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The bytes of base64url text, or `undefined` when it is not base64url. */
function base64UrlToBytes(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  let binary: string;
  try {
    binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  } catch {
    return undefined;
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
