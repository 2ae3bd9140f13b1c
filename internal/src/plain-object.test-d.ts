/** The shared rule helpers' documented signatures: the record checks are type guards, the rest take the documented input. */
import { expectTypeOf, test } from 'vitest';
import {
  escapePointerToken,
  isHeaderValue,
  isHeaderValueChar,
  isHttpToken,
  isPlainObject,
  isRecord,
  isTokenChar,
  isTokenName,
  isTokenNameChar,
  isTokenNameStart,
  TOKEN_NAME_SOURCE,
} from './index';

declare const value: unknown;

test('isRecord and isPlainObject are type guards to Record<string, unknown>', () => {
  expectTypeOf(isRecord).guards.toEqualTypeOf<Record<string, unknown>>();
  expectTypeOf(isPlainObject).guards.toEqualTypeOf<Record<string, unknown>>();
  if (isRecord(value)) expectTypeOf(value).toEqualTypeOf<Record<string, unknown>>();
  if (isPlainObject(value)) expectTypeOf(value['key']).toEqualTypeOf<unknown>();
  const either = value as string | { readonly id: string };
  if (isRecord(either)) expectTypeOf(either).toExtend<{ readonly id: string }>();
  else expectTypeOf(either).toEqualTypeOf<string>();
});

test('the name and value checks take text (or a code unit) and answer a boolean, without narrowing', () => {
  expectTypeOf(isTokenName).toEqualTypeOf<(text: string) => boolean>();
  expectTypeOf(isHeaderValue).toEqualTypeOf<(text: string) => boolean>();
  expectTypeOf(isHttpToken).toEqualTypeOf<(text: string) => boolean>();
  expectTypeOf(isTokenNameStart).toEqualTypeOf<(code: number) => boolean>();
  expectTypeOf(isTokenNameChar).toEqualTypeOf<(code: number) => boolean>();
  expectTypeOf(isHeaderValueChar).toEqualTypeOf<(code: number) => boolean>();
  expectTypeOf(isTokenChar).toEqualTypeOf<(code: number) => boolean>();
  expectTypeOf(TOKEN_NAME_SOURCE).toEqualTypeOf<string>();
  // @ts-expect-error a token name is checked as text, not a code unit
  isTokenName(0x61);
  // @ts-expect-error a header value is checked as text
  isHeaderValue(['a']);
});

test('escapePointerToken takes a key or an index', () => {
  expectTypeOf(escapePointerToken).toEqualTypeOf<(token: string | number) => string>();
  expectTypeOf(escapePointerToken('a/b')).toEqualTypeOf<string>();
  expectTypeOf(escapePointerToken(0)).toEqualTypeOf<string>();
  // @ts-expect-error a pointer token is a key or an index
  escapePointerToken(true);
});
