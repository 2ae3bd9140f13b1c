import { describe, expect, it } from 'vitest';
import { isRcpError } from 'rcp-errors';
import { MAX_REDIRECTS, nextHop, type Hop } from './redirect-policy';

const ORIGIN = 'https://api.example.com';
const post: Hop = {
  method: 'POST',
  url: `${ORIGIN}/notes`,
  headers: { 'Content-Type': 'application/json', Authorization: 'Bearer t' },
  body: '{"a":1}',
};
const at = (location: string | null) => ({ get: (name: string) => (name === 'location' ? location : null) });

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    return isRcpError(error) ? error.code : 'not an RcpError';
  }
}

describe('nextHop', () => {
  it('is undefined for a status that is not a redirect, or a redirect without Location', () => {
    expect(nextHop(post, 200, at('/x'), { origin: ORIGIN, redirects: 0 })).toBeUndefined();
    expect(nextHop(post, 304, at('/x'), { origin: ORIGIN, redirects: 0 })).toBeUndefined();
    expect(nextHop(post, 302, at(null), { origin: ORIGIN, redirects: 0 })).toBeUndefined();
  });

  it('resolves a relative Location, drops the fragment, keeps method and body on 307 and 308', () => {
    for (const status of [307, 308]) {
      expect(nextHop(post, status, at('/v2/notes#top'), { origin: ORIGIN, redirects: 0 })).toEqual({ ...post, url: `${ORIGIN}/v2/notes` });
    }
  });

  it("applies fetch's method rule: 303 → GET for all but HEAD, 301/302 → GET only for POST, body headers dropped", () => {
    const asGet = { method: 'GET', url: `${ORIGIN}/x`, headers: { Authorization: 'Bearer t' }, body: undefined };
    expect(nextHop(post, 303, at('/x'), { origin: ORIGIN, redirects: 0 })).toEqual(asGet);
    expect(nextHop(post, 301, at('/x'), { origin: ORIGIN, redirects: 0 })).toEqual(asGet);
    const put = { ...post, method: 'PUT' };
    expect(nextHop(put, 302, at('/x'), { origin: ORIGIN, redirects: 0 })).toEqual({ ...put, url: `${ORIGIN}/x` });
    expect(nextHop(put, 303, at('/x'), { origin: ORIGIN, redirects: 0 })?.method).toBe('GET');
    const head = { ...post, method: 'HEAD', body: undefined };
    expect(nextHop(head, 303, at('/x'), { origin: ORIGIN, redirects: 0 })?.method).toBe('HEAD');
  });

  it('refuses another origin, user info (never quoted) and what the operator policy refuses', () => {
    expect(codeOf(() => nextHop(post, 302, at('https://evil.example/x'), { origin: ORIGIN, redirects: 0 }))).toBe('RCP_ORIGIN_NOT_ALLOWED');
    expect(codeOf(() => nextHop(post, 302, at('http://api.example.com/x'), { origin: ORIGIN, redirects: 0 }))).toBe('RCP_ORIGIN_NOT_ALLOWED');
    try {
      nextHop(post, 302, at('https://u:pw-SECRET@api.example.com/x'), { origin: ORIGIN, redirects: 0 });
      expect.unreachable();
    } catch (error) {
      expect(String((error as Error).message)).not.toContain('pw-SECRET');
    }
    const policy = (target: URL) => !target.pathname.startsWith('/admin');
    expect(codeOf(() => nextHop(post, 307, at('/admin'), { origin: ORIGIN, redirects: 0, isRedirectAllowed: policy }))).toBe('RCP_ORIGIN_NOT_ALLOWED');
    const throwing = () => {
      throw new Error('policy bug');
    };
    expect(codeOf(() => nextHop(post, 307, at('/x'), { origin: ORIGIN, redirects: 0, isRedirectAllowed: throwing }))).toBe('RCP_ORIGIN_NOT_ALLOWED');
  });

  it(`follows ${MAX_REDIRECTS} hops; the next one is RCP_NETWORK_ERROR, as is an unparsable Location`, () => {
    expect(nextHop(post, 307, at('/x'), { origin: ORIGIN, redirects: MAX_REDIRECTS - 1 })).toBeDefined();
    expect(codeOf(() => nextHop(post, 307, at('/x'), { origin: ORIGIN, redirects: MAX_REDIRECTS }))).toBe('RCP_NETWORK_ERROR');
    expect(codeOf(() => nextHop(post, 307, at('http://[::1'), { origin: ORIGIN, redirects: 0 }))).toBe('RCP_NETWORK_ERROR');
  });

  it('after an approval, follows only a redirect that keeps method, origin, path and query (issue 38)', () => {
    const approved = { origin: ORIGIN, redirects: 0, approved: true };
    const remove = { ...post, method: 'DELETE', url: `${ORIGIN}/notes/n-1?force=1`, body: undefined };
    // The same request again (a balancer's 307 to itself, a fragment added): followed.
    expect(nextHop(remove, 307, at('/notes/n-1?force=1#x'), approved)).toEqual(remove);
    expect(nextHop(remove, 308, at(`${ORIGIN}/notes/n-1?force=1`), approved)).toEqual(remove);
    // Another path, query or method: refused, not followed.
    for (const [status, location] of [
      [307, '/admin/purge-all'],
      [308, '/notes/n-2?force=1'],
      [307, '/notes/n-1?force=1&all=1'],
      [307, '/notes/n-1'],
      [303, '/notes/n-1?force=1'],
    ] as const) {
      expect(codeOf(() => nextHop(remove, status, at(location), approved))).toBe('RCP_ORIGIN_NOT_ALLOWED');
    }
    expect(() => nextHop(remove, 303, at('/notes/n-1?force=1'), approved)).toThrow(/redirect \(303\) to another method/);
    expect(() => nextHop(post, 301, at('/notes'), approved)).toThrow(/another method/); // POST → GET
    // Without an approval the same redirects are followed as before.
    expect(nextHop(remove, 307, at('/admin/purge-all'), { origin: ORIGIN, redirects: 0 })).toEqual({ ...remove, url: `${ORIGIN}/admin/purge-all` });
  });
});
