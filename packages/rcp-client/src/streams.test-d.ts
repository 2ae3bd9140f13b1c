import { expectTypeOf, test } from 'vitest';
import type { RcpExecuteOptions, RcpExecuteResult, RcpResponseProblem, RcpStreamProgress } from './index';

test('a streamed answer: onProgress sees read-only counts, the result says how many events', () => {
  expectTypeOf<NonNullable<RcpExecuteOptions['onProgress']>>().toEqualTypeOf<(progress: RcpStreamProgress) => void>();
  expectTypeOf<RcpStreamProgress>().toEqualTypeOf<{ readonly events: number; readonly bytes: number }>();
  expectTypeOf<RcpExecuteResult['events']>().toEqualTypeOf<number | undefined>();
  expectTypeOf<'not-a-stream' | 'stream-error' | 'stream-malformed'>().toExtend<RcpResponseProblem>();
  const options: RcpExecuteOptions = {
    onProgress: (progress) => {
      // @ts-expect-error the counts are read-only
      progress.events = 0;
    },
  };
  expectTypeOf(options).toExtend<RcpExecuteOptions>();
});
