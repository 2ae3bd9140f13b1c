import { describe, expect, it } from 'vitest';
import { isRcpError } from 'rcp-errors';
import { createTrustPolicy, loadSiteLookup, normalizeOrigins } from './trust';

const siteOf = await loadSiteLookup();

function trusted(manifestUrl: string, target: string, trustedOrigins?: string[]): boolean {
  return createTrustPolicy({ manifestUrl, siteOf, ...(trustedOrigins && { trustedOrigins }) }).isTrusted(target);
}

describe('createTrustPolicy without the site lookup', () => {
  it('trusts by site nothing: only the exact origins (failing closed)', () => {
    const policy = createTrustPolicy({ manifestUrl: 'https://example.com/m', trustedOrigins: ['https://partner.net'] });
    expect(policy.isTrusted('https://example.com/x')).toBe(true);
    expect(policy.isTrusted('https://partner.net/x')).toBe(true);
    expect(policy.isTrusted('https://api.example.com/x')).toBe(false);
  });
});

describe('createTrustPolicy: isTrusted', () => {
  it("trusts the manifest's own origin, whatever its scheme", () => {
    expect(trusted('https://example.com/rcp/manifest', 'https://example.com/api/x?y=1')).toBe(true);
    expect(trusted('http://127.0.0.1:4000/rcp', 'http://127.0.0.1:4000/learners/1')).toBe(true);
    expect(trusted('http://localhost:4000/rcp', 'http://localhost:4000/x')).toBe(true);
  });

  it('trusts origins of the same registrable domain', () => {
    expect(trusted('https://example.com/rcp/manifest', 'https://api.example.com/v1')).toBe(true);
    expect(trusted('https://www.example.com/m', 'https://api.example.com/v1')).toBe(true);
    expect(trusted('https://example.com/m', 'https://deep.api.example.com:8443/v1')).toBe(true);
    expect(trusted('https://example.co.uk/m', 'https://api.example.co.uk/v1')).toBe(true);
    expect(trusted('https://example.com/m', new URL('https://api.example.com/') as unknown as string)).toBe(true);
  });

  it('does not trust look-alike hosts', () => {
    expect(trusted('https://example.com/m', 'https://example.com.evil.com/')).toBe(false);
    expect(trusted('https://example.com/m', 'https://evilexample.com/')).toBe(false);
    expect(trusted('https://example.com/m', 'https://example.org/')).toBe(false);
    expect(trusted('https://api.example.com/m', 'https://example.com.evil.com/')).toBe(false);
  });

  it('treats hosts under a public suffix, private ones included, as different sites', () => {
    expect(trusted('https://a.github.io/m', 'https://b.github.io/')).toBe(false);
    expect(trusted('https://a.co.uk/m', 'https://b.co.uk/')).toBe(false);
    expect(trusted('https://a.github.io/m', 'https://x.a.github.io/')).toBe(true);
  });

  it('never downgrades: an https manifest does not trust http on its own site', () => {
    expect(trusted('https://example.com/m', 'http://api.example.com/')).toBe(false);
    expect(trusted('https://example.com/m', 'http://example.com/')).toBe(false);
  });

  it('cleartext: an http manifest trusts only its exact origin, not its site', () => {
    expect(trusted('http://example.com/m', 'http://example.com/other')).toBe(true);
    expect(trusted('http://example.com/m', 'http://api.example.com/')).toBe(false);
    expect(trusted('http://example.com/m', 'https://api.example.com/')).toBe(false);
    expect(trusted('http://example.com/m', 'https://example.com/')).toBe(false);
  });

  it('quotes a bad trustedOrigins entry without its user info', () => {
    expect(() => createTrustPolicy({ manifestUrl: 'https://example.com/m', trustedOrigins: ['https://u:hunter2@api.example.com/x'] })).toThrow(
      /"https:\/\/api\.example\.com\/x"/,
    );
    try {
      createTrustPolicy({ manifestUrl: 'https://example.com/m', trustedOrigins: ['https://u:hunter2@api.example.com'] });
    } catch (error) {
      expect(String((error as Error).message)).not.toContain('hunter2');
    }
  });

  it('matches IP addresses and localhost by exact origin only', () => {
    expect(trusted('http://127.0.0.1:4000/m', 'http://127.0.0.1:4001/')).toBe(false);
    expect(trusted('http://127.0.0.1:4000/m', 'https://127.0.0.1:4000/')).toBe(false);
    expect(trusted('http://localhost:4000/m', 'http://localhost:4001/')).toBe(false);
    expect(trusted('http://[::1]:4000/m', 'http://[::1]:4001/')).toBe(false);
    expect(trusted('http://127.0.0.1:4000/m', 'http://127.0.0.1:4001/', ['http://127.0.0.1:4001'])).toBe(true);
  });

  it('adds trustedOrigins as exact origins (not their sites, not other schemes)', () => {
    const policy = createTrustPolicy({ manifestUrl: 'https://example.com/m', trustedOrigins: ['https://API.partner.net/'] });
    expect(policy.isTrusted('https://api.partner.net/v1/x')).toBe(true);
    expect(policy.isTrusted('https://api.partner.net:443/v1/x')).toBe(true);
    expect(policy.isTrusted('https://other.partner.net/')).toBe(false);
    expect(policy.isTrusted('http://api.partner.net/')).toBe(false);
  });

  it('trusts nothing that is not http(s) or not a URL', () => {
    const policy = createTrustPolicy({ manifestUrl: 'https://example.com/m' });
    expect(policy.isTrusted('ftp://example.com/')).toBe(false);
    expect(policy.isTrusted('/relative')).toBe(false);
    expect(policy.isTrusted('not a url')).toBe(false);
  });

  it('refuses a manifest URL that is not absolute http(s)', () => {
    for (const manifestUrl of ['/rcp', 'file:///m.json', 'nonsense']) {
      expect(() => createTrustPolicy({ manifestUrl })).toThrow(expect.objectContaining({ code: 'RCP_INVALID_OPTIONS' }));
    }
  });
});

describe('createTrustPolicy: isAllowed', () => {
  it('allows any http(s) URL without allowOrigin, nothing else', () => {
    const policy = createTrustPolicy({ manifestUrl: 'https://example.com/m' });
    expect(policy.isAllowed('https://anything.test/x')).toBe(true);
    expect(policy.isAllowed('http://10.0.0.1/x')).toBe(true);
    expect(policy.isAllowed('file:///etc/passwd')).toBe(false);
    expect(policy.isAllowed('not a url')).toBe(false);
  });

  it("asks the operator's allowOrigin, with a copy of the URL, and needs exactly true", () => {
    const seen: URL[] = [];
    const policy = createTrustPolicy({
      manifestUrl: 'https://example.com/m',
      allowOrigin: (url) => {
        seen.push(url);
        url.hostname = 'mutated.test';
        return url.protocol === 'https:' && !url.pathname.startsWith('/admin');
      },
    });
    const target = new URL('https://example.com/ok');
    expect(policy.isAllowed(target)).toBe(true);
    expect(target.hostname).toBe('example.com');
    expect(policy.isAllowed('https://example.com/admin')).toBe(false);
    expect(policy.isAllowed('http://example.com/ok')).toBe(false);
    expect(seen).toHaveLength(3);
    const truthy = createTrustPolicy({ manifestUrl: 'https://example.com/m', allowOrigin: (() => 'yes') as never });
    expect(truthy.isAllowed('https://example.com/')).toBe(false);
  });
});

describe('normalizeOrigins', () => {
  it('normalises origins and drops duplicates', () => {
    expect(normalizeOrigins(['https://API.Example.com', 'https://api.example.com/', 'https://api.example.com:443', 'http://localhost:8080'])).toEqual([
      'https://api.example.com',
      'http://localhost:8080',
    ]);
    expect(normalizeOrigins(['https://bücher.example'])).toEqual(['https://xn--bcher-kva.example']);
    expect(normalizeOrigins([])).toEqual([]);
  });

  it('refuses anything that is not an http(s) origin, with RCP_INVALID_OPTIONS naming the entry', () => {
    const bad: unknown[] = [
      'api.example.com',
      '*',
      'https://*.example.com',
      'ftp://example.com',
      'https://example.com/v1',
      'https://example.com?x',
      'https://example.com/#f',
      'https://user:pw@example.com',
      42,
      '',
    ];
    for (const entry of bad) {
      try {
        normalizeOrigins(['https://ok.example.com', entry as string]);
        expect.unreachable(`accepted ${String(entry)}`);
      } catch (error) {
        expect(isRcpError(error, 'RCP_INVALID_OPTIONS')).toBe(true);
        expect((error as Error).message).toContain('trustedOrigins[1]');
      }
    }
  });

  it('refuses bad entries inside createTrustPolicy too', () => {
    expect(() => createTrustPolicy({ manifestUrl: 'https://example.com/m', trustedOrigins: ['example.com'] })).toThrow(
      expect.objectContaining({ code: 'RCP_INVALID_OPTIONS' }),
    );
  });
});
