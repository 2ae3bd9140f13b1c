import { expectTypeOf, test } from 'vitest';
import {
  createMemoryIdempotencyStore,
  createRcpServer,
  defineTool,
  type RcpIdempotencyOptions,
  type RcpIdempotencyRecord,
  type RcpIdempotencyStore,
} from './index';

interface Principal {
  userId: string;
}

test('a tool declares idempotency as the manifest writes it', () => {
  defineTool({ name: 't', description: 'A tool.', method: 'POST', path: '/t', idempotency: { header: 'Idempotency-Key' }, handler: () => undefined });
  defineTool({
    name: 't',
    description: 'A tool.',
    method: 'POST',
    path: '/t',
    idempotency: { header: 'X-Request-Id', expiresAfterSeconds: 60 },
    handler: () => undefined,
  });
  // @ts-expect-error the header is required
  defineTool({ name: 't', description: 'A tool.', method: 'POST', path: '/t', idempotency: {}, handler: () => undefined });
});

test('the options: subject is a function of the principal; the store is the contract', () => {
  createRcpServer<Principal>({ tools: [], idempotency: { subject: (principal) => expectTypeOf(principal).toEqualTypeOf<Principal>() && principal.userId } });
  expectTypeOf(createMemoryIdempotencyStore()).toEqualTypeOf<RcpIdempotencyStore>();
  expectTypeOf<RcpIdempotencyOptions<Principal>['store']>().toEqualTypeOf<RcpIdempotencyStore | undefined>();
  // @ts-expect-error a misspelled option is refused
  createRcpServer<Principal>({ tools: [], idempotency: { expiresAfter: 60 } });
});

test('a record is in flight (with its lease) or completed (with its sealed response)', () => {
  const record = {} as RcpIdempotencyRecord;
  if (record.state === 'in-flight') expectTypeOf(record.lease).toEqualTypeOf<string>();
  else expectTypeOf(record.response).toEqualTypeOf<string>();
  expectTypeOf<ReturnType<RcpIdempotencyStore['begin']>>().toEqualTypeOf<Promise<RcpIdempotencyRecord | undefined>>();
});
