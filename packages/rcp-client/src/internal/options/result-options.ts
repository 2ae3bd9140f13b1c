/**
 * The client options about what a result carries to the model (SPEC §11 step 7, §14, §18.3):
 * which media are passed on and how large, whether API text is marked, and the operator's
 * inspection. Checked once, when the client is created (`RCP_INVALID_OPTIONS`).
 */
import { RcpError } from 'rcp-errors';
import type { RcpClientOptions, RcpResultInspector } from '../../client-options';
import { DEFAULT_MAX_MEDIA_BYTES, DEFAULT_MEDIA_TYPES, normalizeMediaRanges } from '../respond/response-kind';

/** The result options, checked, with defaults applied. */
export interface ResolvedResultOptions {
  /** Lower-cased media types and ranges passed on as media parts. */
  mediaTypes: readonly string[];
  maxMediaBytes: number;
  markUntrustedText: boolean;
  inspectResult: RcpResultInspector | undefined;
}

function invalid(message: string): RcpError<'RCP_INVALID_OPTIONS'> {
  return new RcpError('RCP_INVALID_OPTIONS', message);
}

/** Checks `mediaTypes`, `maxMediaBytes`, `markUntrustedText` and `inspectResult`. */
export function resolveResultOptions(options: RcpClientOptions): ResolvedResultOptions {
  let mediaTypes = DEFAULT_MEDIA_TYPES;
  if (options.mediaTypes !== undefined) {
    if (!Array.isArray(options.mediaTypes)) throw invalid('Option "mediaTypes" must be an array of media types ("image/png", "image/*")');
    try {
      mediaTypes = Object.freeze(normalizeMediaRanges(options.mediaTypes, 'Option "mediaTypes"'));
    } catch (error) {
      throw invalid((error as Error).message);
    }
  }
  const max: unknown = options.maxMediaBytes;
  if (max !== undefined && (typeof max !== 'number' || !Number.isSafeInteger(max) || max <= 0)) {
    throw invalid('Option "maxMediaBytes" must be a positive integer (bytes)');
  }
  const mark: unknown = options.markUntrustedText;
  if (mark !== undefined && typeof mark !== 'boolean') throw invalid('Option "markUntrustedText" must be a boolean');
  const inspect: unknown = options.inspectResult;
  if (inspect !== undefined && typeof inspect !== 'function') throw invalid('Option "inspectResult" must be a function');
  return {
    mediaTypes,
    maxMediaBytes: (max as number | undefined) ?? DEFAULT_MAX_MEDIA_BYTES,
    markUntrustedText: mark === true,
    inspectResult: inspect as RcpResultInspector | undefined,
  };
}
