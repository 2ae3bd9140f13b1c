import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { findRedisServer, type RedisServer, redisTestAvailability, startRedisServer } from './redis-server';

/** Sends RESP commands on one connection and resolves with everything answered once `until` is seen. */
function ask(port: number, commands: string, until: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(commands));
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (until.test(text)) {
        socket.end();
        resolve(text);
      }
    });
    socket.on('error', reject);
  });
}

describe('redisTestAvailability (no redis-server on this PATH)', () => {
  it('finds the binary on PATH, or as $REDIS_SERVER', () => {
    expect(findRedisServer({ PATH: '/nonexistent:/usr/bin' }) ?? '/usr/bin/redis-server').toBe('/usr/bin/redis-server');
    expect(findRedisServer({ PATH: '/usr/bin', REDIS_SERVER: '/nonexistent/redis-server' })).toBeUndefined();
  });

  const none = { PATH: '/nonexistent' };
  it('outside CI: skip, with a notice on the console saying what to install', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      expect(findRedisServer(none)).toBeUndefined();
      expect(redisTestAvailability(none)).toMatchObject({ skip: true, notice: expect.stringContaining('apt-get install redis-server') });
      expect(warn).toHaveBeenCalledWith(expect.stringContaining('SKIPPED'));
    } finally {
      warn.mockRestore();
    }
  });

  it('with CI=true: never skipped, so a missing binary fails the tests', () => {
    expect(redisTestAvailability({ ...none, CI: 'true' })).toMatchObject({ skip: false });
  });
});

const availability = redisTestAvailability();
describe.skipIf(availability.skip)('startRedisServer: a real redis-server on loopback', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(() => redis?.stop());

  it('answers on 127.0.0.1, bound there only, with no persistence', async () => {
    expect(redis.url).toBe(`redis://127.0.0.1:${redis.port}`);
    const answer = await ask(redis.port, 'PING\r\nCONFIG GET save\r\nCONFIG GET appendonly\r\nCONFIG GET bind\r\n', /bind\r\n\$\d+\r\n[^\r]*\r\n$/);
    expect(answer).toContain('+PONG');
    expect(answer).toContain('save\r\n$0\r\n\r\n');
    expect(answer).toContain('appendonly\r\n$2\r\nno');
    expect(answer).toMatch(/bind\r\n\$\d+\r\n127\.0\.0\.1\r\n$/);
  });

  it('stops: the port no longer answers', async () => {
    const other = await startRedisServer();
    await other.stop();
    await expect(ask(other.port, 'PING\r\n', /PONG/)).rejects.toThrow(/ECONNREFUSED/);
  });
});
