import type { RcpClientOptions } from './client-options';
import type { RcpClient } from './client-types';
import { createDiscovery } from './internal/discovery/discovery';
import { createExecution } from './internal/execution/execution';
import { createFetchTransport } from './internal/send/fetch-transport';
import { resolveClientOptions } from './internal/options/resolve-options';
import { CLIENT_CLOSED, abortedError, createSender } from './internal/send/send';
import type { PlatformTransport, Transport } from './internal/send/transport-types';
import { createPlatformTransport } from '#transport';

export type {
  RcpClient,
  RcpContextArgs,
  RcpDiscoverOptions,
  RcpDiscovery,
  RcpDiscoveryWarning,
  RcpExecuteOptions,
  RcpLoadOptions,
  RcpObservedResponse,
  RcpPreparedRequest,
  RcpToolSource,
} from './client-types';

/**
 * Creates an RCP client. Options are checked here (`RCP_INVALID_OPTIONS`); the client is a
 * frozen object whose methods may be passed around unbound.
 *
 * @example
 * ```ts
 * import { createRcpClient, describeManifest } from 'rcp-client';
 *
 * const client = createRcpClient({
 *   resolvers: { learnerId: (ctx) => ctx.currentUserId },
 *   credentials: () => process.env.LEARN_TOKEN,
 *   trustedOrigins: ['https://api.example.com'],
 * });
 * const { manifest, tools } = await client.discover('https://example.com/rcp/manifest');
 * console.log(describeManifest(manifest, tools));
 * const { data } = await client.execute(tools[0]!, { query: 'algebra' }, { currentUserId: 'u-1' });
 * ```
 */
export function createRcpClient<Context = any>(options?: RcpClientOptions<Context>): RcpClient<Context> {
  const resolved = resolveClientOptions(options as RcpClientOptions | undefined);
  /** Every transport this client owns, so `close()` can let their connections go. */
  const owned: PlatformTransport[] = [];
  const own = (transport: PlatformTransport): PlatformTransport => {
    owned.push(transport);
    return transport;
  };
  // The operator's fetch when given (a ky instance works), otherwise the platform's transport:
  // undici's dispatch() on Node, fetch elsewhere (chosen by the package's `#transport` import).
  const send = createSender({
    timeout: resolved.timeout,
    retry: resolved.retry,
    maxResponseBytes: resolved.maxResponseBytes,
    transport: resolved.fetch !== undefined ? createFetchTransport(resolved.fetch) : own(createPlatformTransport()),
    headers: { ...resolved.headers },
  });
  const owner = Object.freeze({});
  /** The guarded transports of this client, by the class of the manifest host they serve. */
  const guarded = new Map<string, Transport>();
  let closed = false;
  const open =
    <Args extends unknown[], Result>(method: (...args: Args) => Promise<Result>) =>
    (...args: Args): Promise<Result> =>
      closed ? Promise.reject(abortedError(CLIENT_CLOSED)) : method(...args);

  const { discover, load } = createDiscovery({
    options: resolved,
    send,
    owner,
    guardedTransport(manifestClass, check) {
      // With the platform's transport, every connection of a manifest's tools is checked again at
      // connect time, on the address the host name resolved to (on Node; elsewhere nothing can).
      // One per class of manifest host, for the client's lifetime: the rule depends on nothing else.
      if (resolved.fetch !== undefined) return undefined;
      let transport = guarded.get(manifestClass);
      if (transport === undefined) guarded.set(manifestClass, (transport = own(createPlatformTransport(check))));
      return transport;
    },
  });
  const { prepare, decide, review, storedReview, execute, call, resume } = createExecution<Context>(resolved, send, owner);

  async function close(): Promise<void> {
    closed = true;
    await Promise.all(owned.splice(0).map((transport) => transport.close()));
  }

  return Object.freeze({
    discover: open(discover),
    load: open(load),
    prepare: open(prepare),
    review: open(review),
    storedReview: open(storedReview),
    decide: open(decide),
    execute: open(execute),
    call: open(call),
    resume: open(resume),
    close,
  }) as RcpClient<Context>;
}
