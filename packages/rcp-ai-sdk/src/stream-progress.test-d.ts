import type { Tool } from 'ai';
import type { ModelResult, RcpStreamProgress } from 'rcp-client';
import { expectTypeOf, test } from 'vitest';
import type { AISDKToolOutput, AISDKToolProgress, AISDKTools } from './index';

test("a tool's output is its result or, preliminary, a streamed tool's progress: told apart by 'progress' in it", () => {
  expectTypeOf<AISDKTools['tools']>().toExtend<Record<string, Tool<Record<string, unknown>, AISDKToolOutput>>>();
  expectTypeOf<AISDKToolProgress>().toEqualTypeOf<{ readonly progress: RcpStreamProgress }>();
  const output = {} as AISDKToolOutput;
  if ('progress' in output) expectTypeOf(output.progress.events).toBeNumber();
  else expectTypeOf(output).toEqualTypeOf<ModelResult>();
});
