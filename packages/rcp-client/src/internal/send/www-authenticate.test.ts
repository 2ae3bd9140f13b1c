import { describe, expect, it } from 'vitest';
import { parseChallenges, readChallenge } from './www-authenticate';

const same = (text: string) => text;

describe('WWW-Authenticate', () => {
  it('reads RFC 6750 and RFC 9728 parameters of a Bearer challenge, quoted or not', () => {
    const challenge = readChallenge(
      'Bearer realm="notes", error="insufficient_scope", error_description="needs \\"write\\"", scope="notes:read notes:write", resource_metadata="https://api.example.com/.well-known/oauth-protected-resource"',
      same,
    );
    expect(challenge).toEqual({
      scheme: 'Bearer',
      realm: 'notes',
      error: 'insufficient_scope',
      errorDescription: 'needs "write"',
      scope: 'notes:read notes:write',
      resourceMetadata: 'https://api.example.com/.well-known/oauth-protected-resource',
    });
    expect(readChallenge('Bearer error=invalid_token', same)).toEqual({ scheme: 'Bearer', error: 'invalid_token' });
    expect(readChallenge('Bearer', same)).toEqual({ scheme: 'Bearer' });
  });

  it('picks the Bearer challenge among several, whatever its case and place', () => {
    const header = 'Basic realm="x", Negotiate abc==, bearer error="invalid_token", DPoP algs="ES256"';
    expect(parseChallenges(header).map((challenge) => challenge.scheme)).toEqual(['Basic', 'Negotiate', 'bearer', 'DPoP']);
    expect(readChallenge(header, same)).toEqual({ scheme: 'bearer', error: 'invalid_token' });
    expect(readChallenge('Basic realm="files"', same)).toEqual({ scheme: 'Basic', realm: 'files' });
  });

  it('parameter names are case-insensitive, the first of a repeated one wins', () => {
    expect(readChallenge('Bearer ERROR="a", error="b"', same)).toEqual({ scheme: 'Bearer', error: 'a' });
  });

  it('untrusted text: controls blanked, bounded, redacted; garbage yields nothing or what parses', () => {
    const challenge = readChallenge(`Bearer error_description="line1\r\nline2 secret-123 ${'x'.repeat(2_000)}"`, (text) =>
      text.split('secret-123').join('[redacted]'),
    );
    expect(challenge!.errorDescription).toMatch(/^line1 {2}line2 \[redacted\] x+$/);
    expect(challenge!.errorDescription!.length).toBe(512);
    expect(readChallenge('', same)).toBeUndefined();
    expect(readChallenge(null, same)).toBeUndefined();
    expect(readChallenge('===,,,', same)).toBeUndefined();
    expect(readChallenge('Bearer error="unterminated', same)).toEqual({ scheme: 'Bearer', error: 'unterminated' });
  });
});
