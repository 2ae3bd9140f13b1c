import { describe, expect, it } from 'vitest';
import { RCP_VERSIONS, RcpManifestSchema, isSupportedVersion } from './index';

describe('versions', () => {
  it('supports exactly RCP 0.1, 0.2, 0.3 and 0.4, frozen', () => {
    expect(RCP_VERSIONS).toEqual(['0.1', '0.2', '0.3', '0.4']);
    expect(Object.isFrozen(RCP_VERSIONS)).toBe(true);
  });

  it('isSupportedVersion compares strings verbatim', () => {
    expect(isSupportedVersion('0.1')).toBe(true);
    expect(isSupportedVersion('0.2')).toBe(true);
    for (const value of ['0.9', '0.1.0', ' 0.1', '0.10', 0.1, null, undefined, ['0.1'], { toString: () => '0.1' }]) {
      expect(isSupportedVersion(value)).toBe(false);
    }
  });

  it('the schema accepts the supported versions', () => {
    expect(RcpManifestSchema.properties.rcpVersion.anyOf.map((variant) => variant.const)).toEqual([...RCP_VERSIONS]);
  });
});
