import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutAt, plainText } from './plain-text';

/**
 * Issue 41, item 5: descriptions reach the model as plain text. The HTML reader must not be one a
 * hostile document can defeat into leaving markup: each case below beats a regular expression
 * over tags (`/<[^>]*>/g`) or a single stripping pass.
 */

const text = (source: string, max = 10_000) => plainText(source, max).text;
/** A `<` that could open a tag, a comment or a declaration, as an HTML tokenizer reads one. */
const TAG_OPENER = /<[A-Za-z/!?]/;

describe('HTML becomes plain text', () => {
  it.each([
    ['<p>Create a refund.</p>', 'Create a refund.'],
    ['<p>One</p><p>Two <strong>bold</strong> and <a href="https://x.example/">a link</a></p>', 'One\n\nTwo bold and a link'],
    ['Use <code>status=open</code>.', 'Use `status=open`.'],
    ['<p>Either:</p>\n<ul>\n<li>a</li>\n<li>b</li>\n</ul>', 'Either:\n\n- a\n- b'],
    ['line<br>break', 'line\nbreak'],
    ['<p>HTML line\nbreaks are spaces</p>', 'HTML line breaks are spaces'],
    ['Fish &amp; chips &mdash; &quot;hot&quot; &#8364;5 &#x2192; &unknown; & more', 'Fish & chips — "hot" €5 → &unknown; & more'],
  ])('%j → %j', (source, expected) => {
    expect(text(source)).toBe(expected);
  });

  it.each([
    ['nested tags', '<scr<script>ipt>alert(1)</script>'],
    ['a ">" inside a quoted attribute', '<a title=">"><script>alert(1)</script>ok</a>'],
    ['an attribute quote of the other kind', `<a href='x">y'>ok</a><b onclick="a'b">`],
    ['a comment hiding a tag', '<!-- <p>hidden --> ok'],
    ['an unclosed comment', 'ok <!-- <img src=x onerror=alert(1)> and the rest'],
    ['empty comments', 'a<!-->b<!--->c'],
    ['a tag cut off at the end', 'ok <img src=x onerror=alert(1)'],
    ['raw text in script and style', '<script>if (a < b) { x("<p>") }</script><style>p > a { }</style>ok'],
    ['an end tag that is not script’s', '<script>a</scrip><p>b</script>ok'],
    ['an unclosed script', 'ok<script>alert("<b>")'],
    ['declarations and processing instructions', '<!DOCTYPE html><![CDATA[<p>x]]><?xml version="1.0"?></ bogus>ok'],
    ['escaped tags decode to text, not markup', '&lt;script&gt;alert(1)&lt;/script&gt;'],
    ['an entity completing a tag', '<&#115;cript>alert(1)<&#47;script>'],
    ['a doubled bracket', '<<script>>alert(1)<</script>>'],
    ['uppercase and whitespace in tags', '<SCRIPT >x</SCRIPT\n>ok<P\nclass=a>p</P>'],
  ])('%s: nothing that could open a tag is left', (_name, source) => {
    const result = plainText(source, 10_000);
    expect(result.text).not.toMatch(TAG_OPENER);
    expect(result.text).not.toMatch(/alert\(1\)<|hidden|onerror/);
    expect(result.hadMarkup).toBe(true);
  });

  it('entities decode to text: an escaped tag is shown as text with its "<" still escaped', () => {
    expect(text('&lt;script&gt;alert(1)&lt;/script&gt;')).toBe('&lt;script>alert(1)&lt;/script>');
    expect(text('a &lt; b')).toBe('a < b');
  });

  it('controls, line separators and bidi controls from entities or raw text become spaces; line breaks stay', () => {
    expect(text('a&#27;[2Jb&#x202e;c\u2028d\u0007e\n\nf')).toBe('a [2Jb c d e\n\nf');
    expect(text('&#0;&#xD800;&#x110000;')).toBe('\ufffd\ufffd\ufffd');
  });
});

describe('Markdown is kept', () => {
  it.each([
    '**Bold**, _em_, [a link](https://example.com/x) and a list:\n\n- one\n- two',
    'Returns `List<Pet>`; the `<id>` segment and ``a ` b<c>`` stay as written',
    'a < b and c > d, 1 <= 2',
    '```\n<p>code</p>\n```',
  ])('%j is unchanged', (source) => {
    expect(plainText(source, 10_000)).toEqual({ text: source, hadMarkup: false, cut: false });
  });

  it('an autolink keeps its URL', () => {
    expect(text('See <https://example.com/docs?a=1> or <help@example.com>.')).toBe('See https://example.com/docs?a=1 or help@example.com.');
  });
});

describe('lengths', () => {
  it('cuts at a word, with an ellipsis, never inside a surrogate pair', () => {
    expect(plainText('one two three four', 12)).toEqual({ text: 'one two…', hadMarkup: false, cut: true });
    expect(cutAt('abcdefghij', 5)).toBe('abcd…');
    expect(cutAt(`abc${'😀'.repeat(3)}`, 5)).toBe('abc…');
  });
});

describe('any text (property)', () => {
  const markup = ['<', '>', '/', '!', '?', '-', '=', '"', "'", '&', ';', '#', 'x', 'p', 'a', 's', 'c', 'r', 'i', 't', 'l', 'g', 'amp', 'lt', '\n', ' '];

  it('without code spans, leaves nothing that could open a tag, and stays within its length', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...markup), maxLength: 60 }), fc.integer({ min: 2, max: 80 }), (source, max) => {
        const result = plainText(source, max);
        expect(result.text).not.toMatch(TAG_OPENER);
        expect(result.text.length).toBeLessThanOrEqual(max);
      }),
      { numRuns: 2_000 },
    );
  });

  it('with backticks too, never throws and stays within its length', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...markup, '`', '``'), maxLength: 60 }), (source) => {
        expect(plainText(source, 40).text.length).toBeLessThanOrEqual(40);
      }),
      { numRuns: 1_000 },
    );
  });
});
