import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isRcpError, safeParseManifest, parseManifest } from './index';

const MANIFEST_CODES = ['RCP_INVALID_MANIFEST', 'RCP_UNSUPPORTED_VERSION', 'RCP_MANIFEST_LIMIT'];

/** parseManifest either returns or throws an RcpError with a manifest code — nothing else. */
function assertOnlyManifestErrors(input: unknown): void {
  try {
    parseManifest(input);
  } catch (error) {
    expect(isRcpError(error)).toBe(true);
    expect(MANIFEST_CODES).toContain((error as { code: string }).code);
  }
  const result = safeParseManifest(input);
  if (!result.ok) expect(MANIFEST_CODES).toContain(result.error.code);
}

const fieldValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom('GET', 'POST', '/x/{{a}}', 'https://h.example/{{a}}?q={{b}}', '{{a}}', '@data.x', '@[?@.a]', 'Authorization'),
);

/** Objects shaped roughly like tools, so the deeper rules run, not just the structural check. */
const toolLike = fc.record(
  {
    name: fc.oneof(fc.string({ maxLength: 8 }), fieldValue),
    description: fc.oneof(fc.string({ maxLength: 8 }), fieldValue),
    method: fc.oneof(fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE'), fieldValue),
    url: fc.oneof(fc.string({ maxLength: 30 }), fieldValue),
    params: fc.oneof(
      fc.array(fc.record({ name: fc.oneof(fc.constantFrom('a', 'b', '__proto__'), fieldValue), type: fieldValue, required: fieldValue }, { requiredKeys: [] })),
      fieldValue,
    ),
    queryParams: fc.oneof(fc.dictionary(fc.string({ maxLength: 4 }), fc.oneof(fc.string({ maxLength: 12 }), fieldValue)), fieldValue),
    headers: fc.oneof(fc.dictionary(fc.string({ maxLength: 6 }), fc.oneof(fc.string({ maxLength: 12 }), fieldValue)), fieldValue),
    body: fieldValue,
    auth: fc.oneof(fc.record({ type: fc.constantFrom('none', 'header', 'x'), name: fieldValue, scheme: fieldValue }, { requiredKeys: [] }), fieldValue),
    responseMappings: fc.oneof(
      fc.dictionary(
        fc.string({ maxLength: 4 }),
        fc.oneof(
          fc.string({ maxLength: 12 }).map((s) => `@${s}`),
          fieldValue,
        ),
      ),
      fieldValue,
    ),
  },
  { requiredKeys: [] },
);

describe('parseManifest never throws anything but a manifest RcpError', () => {
  it('for arbitrary JSON values', () => {
    fc.assert(fc.property(fc.jsonValue(), assertOnlyManifestErrors), { numRuns: 300 });
  });

  it('for arbitrary JSON values with a supported version', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (object) => assertOnlyManifestErrors({ ...object, rcpVersion: '0.1' })),
      { numRuns: 300 },
    );
  });

  it('for tool-shaped objects', () => {
    fc.assert(
      fc.property(fc.array(toolLike, { maxLength: 4 }), fieldValue, (tools, auth) => assertOnlyManifestErrors({ rcpVersion: '0.1', auth, tools })),
      { numRuns: 300 },
    );
  });

  it('for arbitrary text and bytes', () => {
    fc.assert(fc.property(fc.string(), assertOnlyManifestErrors), { numRuns: 300 });
    fc.assert(
      fc.property(
        fc.jsonValue().map((value) => JSON.stringify(value)),
        assertOnlyManifestErrors,
      ),
      { numRuns: 200 },
    );
    fc.assert(fc.property(fc.uint8Array({ maxLength: 64 }), assertOnlyManifestErrors), { numRuns: 200 });
  });

  it('accepted manifests are deep-frozen and re-parse to themselves', () => {
    fc.assert(
      fc.property(fc.array(toolLike, { maxLength: 3 }), (tools) => {
        const result = safeParseManifest({ rcpVersion: '0.1', tools });
        if (!result.ok) return;
        expect(Object.isFrozen(result.manifest)).toBe(true);
        expect(parseManifest(JSON.parse(JSON.stringify(result.manifest)))).toEqual(result.manifest);
      }),
      { numRuns: 300 },
    );
  });
});
