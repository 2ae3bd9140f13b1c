import { expect, it } from 'vitest';
import { mediaTypeInRanges, STREAM_MEDIA_TYPES } from './media-range';

it('a media type is in ranges when equal to one (any case) or within a type/* range of its own type', () => {
  expect(mediaTypeInRanges('image/png', ['image/png'])).toBe(true);
  expect(mediaTypeInRanges('image/png', ['IMAGE/PNG'])).toBe(true);
  expect(mediaTypeInRanges('image/png', ['image/*'])).toBe(true);
  expect(mediaTypeInRanges('image/png', ['Image/*'])).toBe(true);
  expect(mediaTypeInRanges('image/png', ['image/jpeg', 'text/*'])).toBe(false);
  // A range is one type: "imag/*" is not a prefix rule, "image/*x" is no range.
  expect(mediaTypeInRanges('image/png', ['imag/*', 'image/*x', '*/*'])).toBe(false);
  expect(mediaTypeInRanges('imagex/png', ['image/*'])).toBe(false);
  expect(mediaTypeInRanges('image/png', [])).toBe(false);
});

it('the stream media types of each format', () => {
  expect(STREAM_MEDIA_TYPES.sse).toEqual(['text/event-stream']);
  expect(STREAM_MEDIA_TYPES.ndjson).toContain('application/x-ndjson');
  expect(Object.isFrozen(STREAM_MEDIA_TYPES.ndjson)).toBe(true);
});
