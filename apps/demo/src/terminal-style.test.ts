import { describe, expect, it } from 'vitest';
import { createTerminalStyle, shouldUseColor } from './terminal-style';

describe('shouldUseColor', () => {
  it('colours terminals only, and never with NO_COLOR', () => {
    expect(shouldUseColor({ isTTY: true }, {})).toBe(true);
    expect(shouldUseColor({ isTTY: false }, {})).toBe(false);
    expect(shouldUseColor({}, {})).toBe(false);
    expect(shouldUseColor({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(shouldUseColor({ isTTY: true }, { TERM: 'dumb' })).toBe(false);
    expect(shouldUseColor({ isTTY: false }, { FORCE_COLOR: '1' })).toBe(true);
    expect(shouldUseColor({ isTTY: false }, { FORCE_COLOR: '1', NO_COLOR: '1' })).toBe(false);
  });
});

describe('createTerminalStyle', () => {
  it('is a no-op when disabled', () => {
    const style = createTerminalStyle(false);
    expect(style.bold(style.green('ok'))).toBe('ok');
  });

  it('wraps text in ANSI codes when enabled', () => {
    expect(createTerminalStyle(true).green('ok')).toBe('\u001b[32mok\u001b[39m');
  });
});
