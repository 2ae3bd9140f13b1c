/** `compileRequest`'s documented shapes: the template and options it takes, the compiled request and what `render` returns. */
import { expectTypeOf, test } from 'vitest';
import {
  collectTemplateTokens,
  compileRequest,
  parseTemplate,
  type CompileRequestOptions,
  type CompiledRequest,
  type ParsedTemplate,
  type RenderedRequest,
  type RequestTemplate,
} from './index';

test('compileRequest takes a request template and options, and returns a CompiledRequest', () => {
  expectTypeOf(compileRequest).parameters.toEqualTypeOf<[template: RequestTemplate, options?: CompileRequestOptions]>();
  const compiled = compileRequest({ method: 'GET', url: '/users/{{id}}' }, { baseUrl: 'https://api.example.com/rcp.json' });
  expectTypeOf(compiled).toEqualTypeOf<CompiledRequest>();
  expectTypeOf(compiled.tokens).toEqualTypeOf<readonly string[]>();
  expectTypeOf(compiled.pathTokens).toEqualTypeOf<readonly string[]>();
  expectTypeOf(compiled.origin).toEqualTypeOf<string | undefined>();
  // @ts-expect-error the token lists are read-only
  compiled.tokens.push('x');
});

test('render takes values by name and returns a RenderedRequest', () => {
  const compiled = compileRequest({ method: 'POST', url: 'https://api.example.com/notes', body: { title: '{{title}}' } });
  expectTypeOf(compiled.render).parameters.toEqualTypeOf<[values: Readonly<Record<string, unknown>>]>();
  const rendered = compiled.render({ title: 'x' });
  expectTypeOf(rendered).toEqualTypeOf<RenderedRequest>();
  expectTypeOf(rendered.method).toEqualTypeOf<string>();
  expectTypeOf(rendered.url).toEqualTypeOf<string>();
  expectTypeOf(rendered.headers).toEqualTypeOf<Record<string, string>>();
  expectTypeOf(rendered.body).toEqualTypeOf<unknown>();
  // @ts-expect-error values are an object of named values, not a list
  compiled.render(['x']);
});

test('a template needs a method and a url; string maps for queryParams and headers; a misspelled option is refused', () => {
  // @ts-expect-error url is required
  compileRequest({ method: 'GET' });
  // @ts-expect-error queryParams values are string templates
  compileRequest({ method: 'GET', url: '/s', queryParams: { limit: 5 } });
  // @ts-expect-error header values are string templates
  compileRequest({ method: 'GET', url: '/s', headers: { 'X-Count': 1 } });
  // @ts-expect-error the option is baseUrl
  compileRequest({ method: 'GET', url: '/s' }, { baseURL: 'https://api.example.com' });
});

test('parseTemplate parts narrow on kind; collectTemplateTokens returns names', () => {
  const parsed = parseTemplate('/users/{{id}}');
  expectTypeOf(parsed).toEqualTypeOf<ParsedTemplate>();
  expectTypeOf(parsed.single).toEqualTypeOf<string | undefined>();
  for (const part of parsed.parts) {
    if (part.kind === 'token') expectTypeOf(part).toEqualTypeOf<{ readonly kind: 'token'; readonly name: string; readonly offset: number }>();
    else expectTypeOf(part).toEqualTypeOf<{ readonly kind: 'text'; readonly text: string }>();
  }
  expectTypeOf(collectTemplateTokens).parameters.toEqualTypeOf<[value: unknown]>();
  expectTypeOf(collectTemplateTokens).returns.toEqualTypeOf<string[]>();
});
