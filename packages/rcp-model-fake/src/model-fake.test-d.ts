import { expectTypeOf, it } from 'vitest';
import { type ModelFake, type ModelRequest, type ModelScriptStep, startModelFake, type ToolResultSeen } from './index';

it('startModelFake resolves to a ModelFake; requests are read-only and typed', () => {
  expectTypeOf(startModelFake).returns.resolves.toEqualTypeOf<ModelFake>();
  expectTypeOf<ModelFake['requests']>().toEqualTypeOf<readonly ModelRequest[]>();
  expectTypeOf<ModelRequest['api']>().toEqualTypeOf<'chat.completions' | 'responses' | 'messages'>();
  expectTypeOf<ModelRequest['toolResults'][number]>().toEqualTypeOf<ToolResultSeen>();
});

it('an answer is a turn, a raw answer or a function of the request', () => {
  expectTypeOf<{ text: string }>().toMatchTypeOf<ModelScriptStep>();
  expectTypeOf<{ toolCalls: [{ name: 'a'; arguments: { x: 1 } }] }>().toMatchTypeOf<ModelScriptStep>();
  expectTypeOf<{ status: 429; body: { error: { message: string } } }>().toMatchTypeOf<ModelScriptStep>();
  expectTypeOf((request: ModelRequest) => ({ text: request.path })).toMatchTypeOf<ModelScriptStep>();
  // A misspelled key is not a turn.
  // @ts-expect-error — `txt` is not a key of a turn
  const typo: ModelScriptStep = { txt: 'hi' };
  void typo;
  // @ts-expect-error — arguments are an object or a string
  const numeric: ModelScriptStep = { toolCalls: [{ name: 'a', arguments: 3 }] };
  void numeric;
});
