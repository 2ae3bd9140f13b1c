import { describe, expect, it } from 'vitest';
import { layoutJson } from './json-layout';

describe('layoutJson', () => {
  it('keeps what fits on one line', () => {
    expect(layoutJson({ ok: true, data: { name: 'Ada' } })).toBe('{"ok":true,"data":{"name":"Ada"}}');
  });

  it('breaks what does not fit, and stays valid JSON', () => {
    const value = {
      ok: true,
      data: {
        results: [
          { id: 'alg-101', title: 'x'.repeat(30) },
          { id: 'alg-201', title: 'y'.repeat(30) },
        ],
      },
    };
    const text = layoutJson(value, { width: 60 });
    expect(text.split('\n').length).toBeGreaterThan(1);
    for (const line of text.split('\n')) expect(line.length).toBeLessThanOrEqual(60);
    expect(JSON.parse(text)).toEqual(value);
  });

  it('handles empty containers and scalars', () => {
    expect(layoutJson([], { width: 1 })).toBe('[]');
    expect(layoutJson({}, { width: 1 })).toBe('{}');
    expect(layoutJson('text')).toBe('"text"');
    expect(layoutJson(null)).toBe('null');
  });
});
