import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sleep, startDeadline } from './deadline';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('startDeadline', () => {
  it('aborts its signal with a TimeoutError when the time is up, and says so', () => {
    const deadline = startDeadline(1_000, undefined);
    vi.advanceTimersByTime(999);
    expect(deadline.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(deadline.signal.aborted).toBe(true);
    expect((deadline.signal.reason as DOMException).name).toBe('TimeoutError');
    expect(deadline.timedOut()).toBe(true);
  });

  it("follows the caller's signal with its reason, without calling it a timeout", () => {
    const caller = new AbortController();
    const deadline = startDeadline(1_000, caller.signal);
    caller.abort(new Error('user left'));
    expect(deadline.signal.reason).toEqual(new Error('user left'));
    expect(deadline.timedOut()).toBe(false);
  });

  it('knows whether a wait still fits', () => {
    const deadline = startDeadline(1_000, undefined);
    vi.advanceTimersByTime(600);
    expect(deadline.fits(399)).toBe(true);
    expect(deadline.fits(400)).toBe(false);
  });

  it("after end(), neither the timer nor the caller's signal aborts it", () => {
    const caller = new AbortController();
    const deadline = startDeadline(1_000, caller.signal);
    deadline.end();
    vi.advanceTimersByTime(5_000);
    caller.abort();
    expect(deadline.signal.aborted).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('startDeadline as an emitter (what undici takes as its signal)', () => {
  it('calls each listener once when it aborts, not one removed before, and its real signal follows', () => {
    const deadline = startDeadline(100, undefined);
    const calls: string[] = [];
    const removed = () => calls.push('removed');
    deadline.on('abort', () => calls.push('on'));
    deadline.once('abort', removed);
    deadline.removeListener('abort', removed);
    vi.advanceTimersByTime(100);
    vi.advanceTimersByTime(100);
    expect(calls).toEqual(['on']);
    expect(deadline.aborted).toBe(true);
    // Created after the abort: already aborted, with the same reason.
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.signal.reason).toBe(deadline.reason);
  });
});

describe('sleep', () => {
  it('resolves after the wait', async () => {
    let done = false;
    const wait = sleep(250, new AbortController().signal).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(249);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await wait;
    expect(done).toBe(true);
  });

  it('rejects with the reason as soon as the signal aborts, and clears its timer', async () => {
    const controller = new AbortController();
    const wait = sleep(250, controller.signal);
    controller.abort(new Error('stop'));
    await expect(wait).rejects.toThrow('stop');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('rejects at once when the signal is already aborted', async () => {
    await expect(sleep(10, AbortSignal.abort(new Error('already')))).rejects.toThrow('already');
  });
});
