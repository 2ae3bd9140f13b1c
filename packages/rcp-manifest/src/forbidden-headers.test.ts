import { describe, expect, it } from 'vitest';
import { FORBIDDEN_HEADER_NAMES, isForbiddenHeaderName, isToolName, parseManifest } from './index';

describe('the shared header and tool-name rules', () => {
  it('refuses every forbidden header name in a manifest, whatever its case', () => {
    for (const name of FORBIDDEN_HEADER_NAMES) {
      expect(isForbiddenHeaderName(name.toUpperCase())).toBe(true);
      const manifest = { rcpVersion: '0.1', tools: [{ name: 't', description: 'd', method: 'GET', url: 'https://a.example/x', headers: { [name]: 'v' } }] };
      expect(() => parseManifest(manifest)).toThrow();
    }
    expect(Object.isFrozen(FORBIDDEN_HEADER_NAMES)).toBe(true);
  });

  it('isToolName is the manifest tool-name rule', () => {
    expect(isToolName('a'.repeat(64))).toBe(true);
    expect(isToolName('a'.repeat(65))).toBe(false);
    expect(isToolName('a.b')).toBe(false);
  });
});
