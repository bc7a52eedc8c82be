import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BUSY_MESSAGE, NO_WEB_CALL_CREATOR_MESSAGE, PepaCall } from './pepa-call';
import { CallStartError } from './start-error';
import {
  START_TIME,
  WEB_CALL,
  createHarness,
  deferred,
  expectNothingLeft,
  flush,
} from './test/call-harness';
import { FakeMediaStream } from './test/fake-daily';

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(START_TIME);
  vi.stubGlobal('MediaStream', FakeMediaStream);
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
});

afterEach(async () => {
  await expectNothingLeft();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('a typed start (startWith)', () => {
  it('sends exactly one request and resolves started with the Call once Pepa listens', async () => {
    const h = createHarness();
    const request = vi.fn(async (_signal: AbortSignal) => WEB_CALL);
    const outcome = await h.connect(() => h.call.startWith(request));
    expect(outcome).toEqual({ status: 'started', call: WEB_CALL });
    expect(request).toHaveBeenCalledTimes(1);
    expect(h.createWebCall).not.toHaveBeenCalled();
    await h.call.stop();
  });

  it('joins with the microphone every time: no call joins without it', async () => {
    const h = createHarness();
    // What the dropped typing-only call once passed: nothing reads it now.
    const listenOnly = { microphone: false, unjoined: vi.fn() };
    await h.connect(() => h.call.startWith(async () => WEB_CALL, listenOnly));
    expect(h.factory).toHaveBeenCalledWith(expect.objectContaining({ audioSource: true }));
    await h.call.stop();
    await h.connect(() => h.call.startWith(async () => WEB_CALL));
    expect(h.factory).toHaveBeenLastCalledWith(expect.objectContaining({ audioSource: true }));
    expect(h.factory.mock.calls.map(([options]) => options.audioSource)).not.toContain(false);
    await h.call.stop();
  });

  it('resolves failed with a CallStartError naming the stage and the call error', async () => {
    const h = createHarness();
    h.configureNextDaily((daily) => daily.join.mockRejectedValueOnce(new Error('room is gone')));
    const outcome = await h.call.startWith(async () => WEB_CALL);
    expect(outcome.status).toBe('failed');
    if (outcome.status !== 'failed') return;
    expect(outcome.error).toBeInstanceOf(CallStartError);
    expect(outcome.error.stage).toBe('join');
    expect(outcome.error.cause).toMatchObject({
      type: 'daily-call-join-error',
      message: 'room is gone',
    });
    await flush();
  });

  it('tells a stop during the start apart from a failure, and aborts the request', async () => {
    const h = createHarness();
    const pending = deferred<typeof WEB_CALL>();
    let signal: AbortSignal | undefined;
    const outcome = h.call.startWith((given) => {
      signal = given;
      return pending.promise;
    });
    await flush();
    expect(signal?.aborted).toBe(false);
    await h.call.stop();
    expect(signal?.aborted).toBe(true);
    await expect(outcome).resolves.toEqual({ status: 'stopped' });
    expect(h.payloads.some(([name]) => name === 'call-start-failed')).toBe(false);
    pending.resolve(WEB_CALL);
    await flush();
    expect(h.factory).not.toHaveBeenCalled();
  });

  it('refuses a second start while one is under way, without a second request', async () => {
    const h = createHarness();
    const first = h.call.startWith(() => new Promise(() => undefined));
    const second = vi.fn(async () => WEB_CALL);
    await expect(h.call.startWith(second)).resolves.toEqual({ status: 'busy' });
    expect(second).not.toHaveBeenCalled();
    expect(h.events).toContain('progress:validation:failed');
    expect(h.payloads).toContainEqual([
      'call-start-progress',
      expect.objectContaining({ stage: 'validation', status: 'failed', detail: BUSY_MESSAGE }),
    ]);
    await h.call.stop();
    await expect(first).resolves.toEqual({ status: 'stopped' });
  });

  it('a Call with no room fails as a malformed answer, not as the microphone', async () => {
    const h = createHarness();
    const outcome = await h.call.startWith(async () => ({ id: 'call-9' }));
    expect(outcome.status === 'failed' && outcome.error.cause).toMatchObject({
      type: 'web-call-creation-error',
      kind: 'malformed',
    });
    await flush();
  });

  it("the provider SDK's start() needs the createWebCall option", async () => {
    const { factory } = createHarness();
    const call = new PepaCall({ createDailyCall: factory, logger: { warn() {}, error() {} } });
    await expect(call.start('assistant-1')).rejects.toThrow(NO_WEB_CALL_CREATOR_MESSAGE);
    expect(call.state).toBe('idle');
  });
});

describe('a start that waits in line', () => {
  it('reports each place, holds the start timeout while waiting, and joins once admitted', async () => {
    const h = createHarness({ startTimeoutMs: 5000 });
    const admitted = deferred<typeof WEB_CALL>();
    const outcome = h.call.startWith(async (_signal, line) => {
      line.waiting({ position: 3, estimatedWaitSeconds: 40 });
      line.waiting({ position: 2, estimatedWaitSeconds: 25 });
      return admitted.promise;
    });
    await flush();
    expect(h.call.status).toEqual({ kind: 'starting', stage: 'queued' });
    expect(h.instances).toHaveLength(0);
    // Far longer than the start timeout: waiting one's turn is not the service being slow.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(h.call.status).toEqual({ kind: 'starting', stage: 'queued' });
    expect(h.payloads.filter(([name]) => name === 'line-update').map(([, place]) => place)).toEqual(
      [
        { position: 3, estimatedWaitSeconds: 40 },
        { position: 2, estimatedWaitSeconds: 25 },
      ],
    );
    admitted.resolve(WEB_CALL);
    await expect(h.connect(() => outcome)).resolves.toEqual({ status: 'started', call: WEB_CALL });
    // Out of the line: the place is cleared once, as the start goes on to the room.
    expect(h.payloads.filter(([name]) => name === 'line-update').at(-1)).toEqual([
      'line-update',
      null,
    ]);
    await h.call.stop();
  });

  it('runs the start timeout again once admitted', async () => {
    const h = createHarness({ startTimeoutMs: 5000 });
    const admitted = deferred<typeof WEB_CALL>();
    const outcome = h.call.startWith(async (_signal, line) => {
      line.waiting({ position: 1, estimatedWaitSeconds: 5 });
      return admitted.promise;
    });
    await vi.advanceTimersByTimeAsync(30_000);
    admitted.resolve(WEB_CALL);
    await flush();
    expect(h.call.state).toBe('starting');
    expect(h.call.status).not.toEqual({ kind: 'starting', stage: 'queued' });
    // Nobody in the room says listening: the timeout runs from the admission.
    await vi.advanceTimersByTimeAsync(5000);
    const result = await outcome;
    expect(result.status).toBe('failed');
    if (result.status === 'failed') expect(result.error.cause.type).toBe('start-timeout');
  });

  it('aborts the waiting request when the visitor stops, and reports no place after', async () => {
    const h = createHarness();
    let signal: AbortSignal | null = null;
    let report: ((position: number) => void) | null = null;
    const outcome = h.call.startWith(
      (requestSignal, line) =>
        new Promise<typeof WEB_CALL>(() => {
          signal = requestSignal;
          report = (position) => line.waiting({ position, estimatedWaitSeconds: 10 });
          report(4);
        }),
    );
    await flush();
    await h.call.stop();
    await expect(outcome).resolves.toEqual({ status: 'stopped' });
    expect(signal!.aborted).toBe(true);
    h.clearEvents();
    report!(3);
    expect(h.events).toEqual([]);
  });
});
