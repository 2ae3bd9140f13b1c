import type { ServerLogEntry } from './learning-platform';
import type { CatalogTool, ModelResult, ModelToolCall } from './model';

/**
 * What a run produced, as data: the text renderer prints it for people, `--json` prints it as
 * is. Every section has a stable `id`.
 */

/** The request as the client is about to send it (`client.prepare`; credential redacted). */
export interface PreparedRequestView {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: unknown;
}

/** One model tool call and what became of it. */
export interface CallRecord {
  /** The tool call exactly as the model emitted it. */
  readonly call: ModelToolCall;
  /** The stage (transport) the call went through. */
  readonly stage: string;
  /** Embedded server only: the requests that reached the server during this call (its own log). */
  readonly requests?: readonly ServerLogEntry[];
  /** `--manifest` only: the request the client prepared (`client.prepare`, credential redacted). */
  readonly prepared?: PreparedRequestView;
  /** What goes back to the model (`toModelResult`). */
  readonly result: ModelResult;
  /** A remark about this call, printed under its request. */
  readonly note?: string;
}

/** One attempt to break a trust rule. */
export interface AttackRecord extends CallRecord {
  /** Stable id, e.g. `spoofed-learner-id`. */
  readonly id: string;
  readonly title: string;
  /** Why it must fail, in one sentence. */
  readonly rule: string;
  /** The turn's context (`{}`: no verified caller). */
  readonly ctx: Readonly<Record<string, unknown>>;
  /** Server request count before and after the attempt. */
  readonly requestCountBefore: number;
  readonly requestCountAfter: number;
  /** Whether the rule held (checked against the error code and the server's log). */
  readonly stopped: boolean;
  /** Which side stops it: the client (rcp-client, before any request) or the server (rcp-server, before any handler). */
  readonly stoppedBy: 'client' | 'server';
  /** The outcome the demo expected, e.g. `RCP_INVALID_ARGUMENTS, no request`. */
  readonly expected: string;
}

/** A stage's catalog as the model receives it. */
export interface StageCatalog {
  readonly stage: string;
  readonly tools: readonly CatalogTool[];
}

/** The sections of a report, in print order. */
export type ReportSection =
  | {
      readonly id: 'describe';
      readonly title: string;
      readonly manifestUrl: string;
      /** `describeManifest(manifest, tools)` output. */
      readonly text: string;
      /** Manifest warnings from `discover` (unknown fields, untrusted origins...). */
      readonly warnings: readonly string[];
    }
  | {
      readonly id: 'catalogs';
      readonly title: string;
      readonly stages: readonly StageCatalog[];
      /** Params a client resolver fills, checked to appear in no catalog. */
      readonly hiddenParams: readonly string[];
    }
  | {
      readonly id: 'turn';
      readonly title: string;
      readonly stage: string;
      readonly ctx: Readonly<Record<string, unknown>>;
      /** A remark printed after the context line. */
      readonly note?: string;
      /**
       * Where each call's request comes from: the embedded server's own log (`requests`), or
       * the client's `prepare` (`prepared`) for a server the demo cannot see into.
       */
      readonly witness: 'server-log' | 'prepared';
      readonly calls: readonly CallRecord[];
    }
  | { readonly id: 'attacks'; readonly title: string; readonly attacks: readonly AttackRecord[] }
  | { readonly id: 'server-log'; readonly title: string; readonly requests: readonly ServerLogEntry[] }
  | {
      readonly id: 'summary';
      readonly title: string;
      readonly ok: boolean;
      readonly callsMade: number;
      readonly callsFailed: number;
      readonly attacks: number;
      readonly attacksStopped: number;
      /** Embedded server only: requests the server received that no step accounts for. */
      readonly unexpectedRequests?: number;
      readonly text: string;
    };

/** A whole run. */
export interface DemoReport {
  readonly mode: 'embedded';
  readonly ok: boolean;
  readonly manifestUrl: string;
  readonly sections: readonly ReportSection[];
}
