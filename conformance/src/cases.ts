import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The repository's conformance folder. */
export const CONFORMANCE_DIR = fileURLToPath(new URL('../', import.meta.url));

/** One conformance case, as `conformance/README.md` describes it. */
export interface ConformanceCase {
  readonly id: string;
  readonly spec: string;
  readonly must?: readonly string[];
  readonly description: string;
  readonly manifest?: unknown;
  readonly manifestUrl?: string;
  readonly manifestResponse?: { readonly status?: number; readonly contentType?: string; readonly text: string };
  readonly client?: {
    readonly resolvers?: Readonly<Record<string, unknown>>;
    readonly credential?: string;
    readonly trustedOrigins?: readonly string[];
    readonly allowPrivateNetwork?: boolean;
    /** The client's `maxResponseBytes`, `maxMediaBytes` and `mediaTypes` (SPEC §11, §18.3). */
    readonly maxResponseBytes?: number;
    readonly maxMediaBytes?: number;
    readonly mediaTypes?: readonly string[];
    /** The client's retry limit (SPEC §11); retries are off when absent. */
    readonly retry?: number;
    /** The client's deadline in milliseconds (SPEC §11); the client's default when absent. */
    readonly timeout?: number;
    /** The host's attachments by reference (SPEC §20.7): what the client's file resolver gives; another reference has no file. */
    readonly files?: Readonly<Record<string, { readonly base64: string; readonly mediaType: string; readonly filename: string }>>;
    /** The client's upload limit (rcp-client's `maxUploadBytes`), in bytes. */
    readonly maxUploadBytes?: number;
  };
  readonly call?: { readonly tool: string; readonly args?: unknown };
  /** Instead of a call: resume this operation handle (SPEC §20.8) with the discovered tools. */
  readonly resume?: string;
  /** Answers to the first tool requests, in turn (each as `response`); later ones get `response`. */
  readonly responses?: readonly NonNullable<ConformanceCase['response']>[];
  readonly response?: {
    readonly status?: number;
    /** Absent with `text` or `base64`: no Content-Type header at all when `null`. */
    readonly contentType?: string | null;
    readonly body?: unknown;
    readonly text?: string;
    /** The body's bytes, standard base64 (a binary answer). */
    readonly base64?: string;
    /** More response headers (`link`, `retry-after` …). */
    readonly headers?: Readonly<Record<string, string>>;
  };
  readonly expect: {
    readonly manifestRequest?: { readonly method: string; readonly headers?: Readonly<Record<string, string>> };
    readonly request?: {
      readonly method: string;
      readonly url: string;
      readonly headers?: Readonly<Record<string, string>>;
      readonly absentHeaders?: readonly string[];
      /** Headers whose value must match a regular expression (a key the client makes at random). */
      readonly headerPatterns?: Readonly<Record<string, string>>;
      readonly body?: string;
      /**
       * A multipart body's parts as the server parses them (SPEC §20.7), in order: `{ name, value }` for a text part,
       * `{ name, filename, contentType, sha256 }` (hex, of the bytes received) for a file part.
       */
      readonly parts?: readonly unknown[];
    };
    /** The body `prepare` shows for the call (what a review shows and its digest covers, SPEC §19). */
    readonly preparedBody?: unknown;
    /** Several tool requests reached the server (retries): how many, and headers equal in all of them. */
    readonly requests?: { readonly count: number; readonly sameHeaders?: readonly string[] };
    readonly data?: unknown;
    readonly schema?: unknown;
    readonly warnings?: readonly string[];
    /** The effective effects of the manifest's first tool (SPEC §18.1). */
    readonly effects?: unknown;
    /** The effective auth of the manifest's first tool, as the client keeps it (SPEC §18.2). */
    readonly auth?: unknown;
    /** The result's media part (SPEC §18.3): its media type and its bytes as base64; `null`: no media part. */
    readonly media?: { readonly mediaType: string; readonly base64: string } | null;
    /** The result's page (SPEC §18.4); `null`: no page. */
    readonly page?: { readonly hasMore: boolean; readonly nextArguments: unknown } | null;
    /** The result says a text answer was cut at maxResponseBytes (SPEC §11 step 6), or a stream was cut (SPEC §20.6). */
    readonly truncated?: boolean;
    /** The output schema of the manifest's first tool (SPEC §9); `null`: it has none. */
    readonly outputSchema?: unknown;
    /** The result's pending operation (SPEC §20.8) without its handle; `null`: not pending. */
    readonly pending?: { readonly checkAfterSeconds: number } | null;
    /** Each tool's group as the client gives it (SPEC §20.3), in manifest order: `{ name, description }`, `null` for none. */
    readonly groups?: readonly unknown[];
    readonly error?: {
      readonly code: string;
      /** The `Retry-After` seconds the error carries (SPEC §14); `null`: none. */
      readonly retryAfterSeconds?: number | null;
      readonly pointers?: readonly string[];
      readonly issues?: readonly string[];
      readonly notContaining?: readonly string[];
      /** The response problem a client's response error names (SPEC §18.3, §20.6), e.g. `stream-error`. */
      readonly problem?: string;
      /** The 1-based index of the stream event the error names (SPEC §20.6). */
      readonly event?: number;
    };
  };
}

/** Every case of every file in `conformance/cases`, with the file it came from. */
export function loadCases(): { file: string; case: ConformanceCase }[] {
  const dir = `${CONFORMANCE_DIR}cases/`;
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .flatMap((file) => {
      const parsed = JSON.parse(readFileSync(dir + file, 'utf8')) as { cases: ConformanceCase[] };
      return parsed.cases.map((entry) => ({ file, case: entry }));
    });
}

/** Replaces `{origin}` and `{other}` in every string of a JSON value. */
export function substitute<T>(value: T, origins: { origin: string; other: string }): T {
  if (typeof value === 'string') return value.replaceAll('{origin}', origins.origin).replaceAll('{other}', origins.other) as T;
  if (Array.isArray(value)) return value.map((entry) => substitute(entry, origins)) as T;
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, substitute(entry, origins)])) as T;
  }
  return value;
}
