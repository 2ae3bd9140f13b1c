/**
 * The client's options, checked once at `createRcpClient` (`RCP_INVALID_OPTIONS`, never showing
 * a value) with their defaults applied; what each other part of the client reads
 * (`result-options.ts` for what a result carries, `report-warnings.ts` for `onWarning`).
 */
import { isHeaderValue, isHttpToken, isPlainObject } from 'rcp-internal';
import { DEFAULT_MANIFEST_LIMITS, isForbiddenHeaderName } from 'rcp-manifest';
import { RcpError } from 'rcp-errors';
import type { RcpClientOptions, RcpCredentialsProvider, RcpFileResolver, RcpResolver, RcpUnauthorizedHandler } from '../../client-options';
import { normalizeOrigins } from '../trust/trust';
import type { RcpApprovalPolicy } from '../../approval';
import type { RcpApprovalLedger } from '../../approval-ledger';
import { checkApprovalExpiresIn, checkApprovalLedger, checkApprovalPolicy, checkApprovalSecret } from '../execution/approval-gate';
import { printWarning } from './report-warnings';
import { isSecretHeaderName } from '../redaction/secret-headers';
import { resolveResultOptions, type ResolvedResultOptions } from './result-options';
import type { RcpHooks, RcpTracer } from '../../hooks';
import { DEFAULT_RETRY_METHODS, DEFAULT_RETRY_STATUS_CODES, createRetryPolicy, type RcpRetryOptions, type RetryPolicy } from '../send/retry-policy';

/** Defaults of every numeric option (documented with `@default` on {@link RcpClientOptions}). */
export const DEFAULT_TIMEOUT = 30_000;
export const DEFAULT_RETRY = 2;
export const DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024;
export const DEFAULT_MAX_MANIFEST_BYTES = 5 * 1024 * 1024;
/** 32 MiB: above the 25 MB uploads of common transcription and image endpoints, and a bound on a call's memory. */
export const DEFAULT_MAX_UPLOAD_BYTES = 32 * 1024 * 1024;

/** Largest delay `setTimeout` accepts. */
const MAX_TIMEOUT = 2_147_483_647;

/** Options checked once, with defaults applied. */
export interface ResolvedClientOptions extends ResolvedResultOptions {
  resolvers: Readonly<Record<string, RcpResolver>>;
  files: RcpFileResolver | undefined;
  maxUploadBytes: number;
  credentials: RcpCredentialsProvider | undefined;
  onUnauthorized: RcpUnauthorizedHandler | undefined;
  approval: RcpApprovalPolicy | undefined;
  approvalSecret: Uint8Array | undefined;
  approvalLedger: RcpApprovalLedger | undefined;
  approvalSubject: ((ctx: any) => string) | undefined;
  approvalExpiresIn: number;
  trustedOrigins: readonly string[];
  allowOrigin: ((url: URL) => boolean) | undefined;
  timeout: number;
  retry: RetryPolicy;
  maxResponseBytes: number;
  maxManifestBytes: number;
  maxManifestTools: number;
  fetch: typeof globalThis.fetch | undefined;
  headers: Readonly<Record<string, string>>;
  /** `undefined`: the default (identity-looking params must be resolved once there is a resolver). */
  requireResolved: boolean | readonly string[] | undefined;
  modelFilledParams: ReadonlySet<string>;
  allowHtmlResponses: boolean;
  allowPrivateNetwork: boolean | ReadonlySet<string>;
  hooks: RcpHooks | undefined;
  onWarning: NonNullable<RcpClientOptions['onWarning']>;
  tracer: RcpTracer | undefined;
  classifyAddress: ((hostname: string) => 'public' | 'private' | 'local' | 'link-local' | undefined) | undefined;
}

function invalid(message: string): RcpError<'RCP_INVALID_OPTIONS'> {
  return new RcpError('RCP_INVALID_OPTIONS', message);
}

function positiveInteger(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
    throw invalid(`Option "${name}" must be a positive integer (bytes)`);
  }
  return value;
}

/** `requireResolved`: `true`, `false`, or a list of param names. */
export function checkRequireResolved(value: unknown, fallback: boolean | readonly string[] | undefined): boolean | readonly string[] | undefined {
  if (value === undefined) return fallback;
  if (typeof value === 'boolean') return value;
  return Object.freeze(nameList('requireResolved', value));
}

/** `modelFilledParams`: a list of param names. */
export function checkModelFilledParams(value: unknown, fallback: ReadonlySet<string>): ReadonlySet<string> {
  if (value === undefined) return fallback;
  return new Set(nameList('modelFilledParams', value));
}

function nameList(name: string, value: unknown): string[] {
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string' && item !== '')) {
    throw invalid(`Option "${name}" must be ${name === 'requireResolved' ? 'true, false or ' : ''}an array of param names`);
  }
  return [...(value as string[])];
}

/** `allowPrivateNetwork`: a boolean, or a list of origins (normalised like `trustedOrigins`). */
function checkAllowPrivateNetwork(value: unknown): boolean | ReadonlySet<string> {
  if (value === undefined) return false;
  if (typeof value === 'boolean') return value;
  if (!Array.isArray(value)) throw invalid('Option "allowPrivateNetwork" must be true, false or an array of origins');
  return new Set(normalizeOrigins(value, 'allowPrivateNetwork'));
}

const HTTP_METHOD = /^[A-Z]+$/;

/** `retry`: a count, or `{ limit, methods, statusCodes, delay }`. */
function checkRetry(value: unknown): RetryPolicy {
  const count = (limit: unknown): number => {
    if (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit < 0) {
      throw invalid('Option "retry" must be a non-negative integer (retries after the first attempt), or { limit, methods, statusCodes, delay }');
    }
    return limit;
  };
  if (value === undefined || typeof value === 'number') {
    return createRetryPolicy({ limit: count(value ?? DEFAULT_RETRY), methods: DEFAULT_RETRY_METHODS, statusCodes: DEFAULT_RETRY_STATUS_CODES });
  }
  if (!isPlainObject(value)) throw invalid('Option "retry" must be a number or { limit, methods, statusCodes, delay }');
  const { limit, methods, statusCodes, delay } = value as Record<string, unknown>;
  if (methods !== undefined && (!Array.isArray(methods) || !methods.every((method) => typeof method === 'string' && HTTP_METHOD.test(method)))) {
    throw invalid('Option "retry.methods" must be a list of upper-case HTTP methods');
  }
  if (statusCodes !== undefined && (!Array.isArray(statusCodes) || !statusCodes.every((code) => Number.isInteger(code) && code >= 400 && code <= 599))) {
    throw invalid('Option "retry.statusCodes" must be a list of HTTP error statuses (400-599)');
  }
  return createRetryPolicy({
    limit: count(limit ?? DEFAULT_RETRY),
    methods: (methods as string[] | undefined) ?? DEFAULT_RETRY_METHODS,
    statusCodes: (statusCodes as number[] | undefined) ?? DEFAULT_RETRY_STATUS_CODES,
    ...(delay !== undefined && { delay: optionalFunction<RcpRetryOptions['delay'] & object>('retry.delay', delay) }),
  });
}

const HOOK_NAMES = new Set(['onRequest', 'onResponse', 'onRetry', 'onRedirect', 'onError']);

/** `tracer`: an object with `startSpan` (an OpenTelemetry Tracer). */
function checkTracer(value: unknown): RcpTracer | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || typeof (value as { startSpan?: unknown }).startSpan !== 'function') {
    throw invalid('Option "tracer" must be an OpenTelemetry Tracer (an object with startSpan), e.g. trace.getTracer("my-app")');
  }
  return value as RcpTracer;
}

/** `hooks`: an object of the known hook functions. */
function checkHooks(value: unknown): RcpHooks | undefined {
  if (value === undefined) return undefined;
  if (!isPlainObject(value)) throw invalid('Option "hooks" must be an object of functions');
  for (const [name, hook] of Object.entries(value)) {
    if (!HOOK_NAMES.has(name)) throw invalid(`Option "hooks" has no hook "${name.slice(0, 40)}" (known: ${[...HOOK_NAMES].join(', ')})`);
    if (typeof hook !== 'function') throw invalid(`Hook "${name}" must be a function`);
  }
  return Object.freeze({ ...(value as RcpHooks) });
}

function optionalBoolean(name: string, value: unknown): boolean {
  if (value === undefined) return false;
  if (typeof value !== 'boolean') throw invalid(`Option "${name}" must be a boolean`);
  return value;
}

function optionalFunction<F>(name: string, value: unknown): F | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'function') throw invalid(`Option "${name}" must be a function`);
  return value as F;
}

/**
 * Checks every option of `createRcpClient` and applies defaults. Throws `RCP_INVALID_OPTIONS`
 * naming the option (never echoing a header value).
 */
export function resolveClientOptions(options: RcpClientOptions | undefined): ResolvedClientOptions {
  if (options === undefined) options = {};
  if (!isPlainObject(options)) throw invalid('Options must be a plain object');

  const resolvers: Record<string, RcpResolver> = Object.create(null);
  if (options.resolvers !== undefined) {
    if (!isPlainObject(options.resolvers)) throw invalid('Option "resolvers" must be an object of functions');
    for (const name of Object.keys(options.resolvers)) {
      const resolver = options.resolvers[name];
      if (typeof resolver !== 'function') throw invalid(`Resolver "${name}" must be a function`);
      resolvers[name] = resolver as RcpResolver;
    }
  }

  let trustedOrigins: readonly string[] = [];
  if (options.trustedOrigins !== undefined) {
    if (!Array.isArray(options.trustedOrigins)) throw invalid('Option "trustedOrigins" must be an array of origins');
    trustedOrigins = Object.freeze(normalizeOrigins(options.trustedOrigins));
  }

  let timeout = DEFAULT_TIMEOUT;
  if (options.timeout !== undefined) {
    const value: unknown = options.timeout;
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > MAX_TIMEOUT) {
      throw invalid(`Option "timeout" must be a number of milliseconds between 1 and ${MAX_TIMEOUT}`);
    }
    timeout = value;
  }

  const retry = checkRetry(options.retry);

  const headers: Record<string, string> = {};
  if (options.headers !== undefined) {
    if (!isPlainObject(options.headers)) throw invalid('Option "headers" must be an object of strings');
    for (const name of Object.keys(options.headers)) {
      const value: unknown = options.headers[name];
      if (!isHttpToken(name)) throw invalid(`Header name "${name.slice(0, 64)}" in option "headers" is not valid`);
      const lower = name.toLowerCase();
      if (isSecretHeaderName(lower)) {
        throw invalid(`Header "${name}" cannot be set in option "headers": it would be sent to every origin. Use the "credentials" option`);
      }
      if (isForbiddenHeaderName(lower)) throw invalid(`Header "${name}" cannot be set in option "headers"`);
      if (typeof value !== 'string' || !isHeaderValue(value)) {
        throw invalid(`Header "${name}" in option "headers" must be a string without control characters (tab included) or a space at either end`);
      }
      headers[name] = value;
    }
  }

  return {
    resolvers: Object.freeze(resolvers),
    files: optionalFunction<RcpFileResolver>('files', options.files),
    maxUploadBytes: positiveInteger('maxUploadBytes', options.maxUploadBytes, DEFAULT_MAX_UPLOAD_BYTES),
    credentials: optionalFunction<RcpCredentialsProvider>('credentials', options.credentials),
    onUnauthorized: optionalFunction<RcpUnauthorizedHandler>('onUnauthorized', options.onUnauthorized),
    approval: checkApprovalPolicy(options.approval),
    approvalSecret: checkApprovalSecret(options.approvalSecret),
    approvalLedger: checkApprovalLedger(options.approvalLedger),
    approvalSubject: optionalFunction<(ctx: any) => string>('approvalSubject', options.approvalSubject),
    approvalExpiresIn: checkApprovalExpiresIn(options.approvalExpiresIn),
    trustedOrigins,
    allowOrigin: optionalFunction<(url: URL) => boolean>('allowOrigin', options.allowOrigin),
    timeout,
    retry,
    maxResponseBytes: positiveInteger('maxResponseBytes', options.maxResponseBytes, DEFAULT_MAX_RESPONSE_BYTES),
    maxManifestBytes: positiveInteger('maxManifestBytes', options.maxManifestBytes, DEFAULT_MAX_MANIFEST_BYTES),
    maxManifestTools: positiveInteger('maxManifestTools', options.maxManifestTools, DEFAULT_MANIFEST_LIMITS.maxTools),
    fetch: optionalFunction<typeof globalThis.fetch>('fetch', options.fetch),
    headers: Object.freeze(headers),
    requireResolved: checkRequireResolved(options.requireResolved, undefined),
    modelFilledParams: checkModelFilledParams(options.modelFilledParams, new Set()),
    allowHtmlResponses: optionalBoolean('allowHtmlResponses', options.allowHtmlResponses),
    allowPrivateNetwork: checkAllowPrivateNetwork(options.allowPrivateNetwork),
    hooks: checkHooks(options.hooks),
    onWarning: optionalFunction<NonNullable<RcpClientOptions['onWarning']>>('onWarning', options.onWarning) ?? printWarning,
    tracer: checkTracer(options.tracer),
    classifyAddress: optionalFunction('classifyAddress', options.classifyAddress),
    ...resolveResultOptions(options),
  };
}
