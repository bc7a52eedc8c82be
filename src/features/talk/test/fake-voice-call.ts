import { act } from '@testing-library/react';
import mitt, { type Handler } from 'mitt';
import { vi } from 'vitest';
import {
  CallStartError,
  type CallError,
  type CallErrorSource,
  type CallEvents,
  type CallState,
  type ClientMessage,
  type DailyLikeInputDevices,
  type LinePlace,
  type ServerMessage,
  type StartOutcome,
  type StartWithOptions,
  type WebCallRequest,
} from '../../../lib/call';
import type { VoiceCall } from '../voice/use-voice-call';

type Outcome = StartOutcome<{ id: string }>;

/** How the stand-in call behaves where tests of different subjects need different things. */
export interface FakeVoiceCallOptions {
  /**
   * A start whose call request is refused fails at the web call's creation, as the call object
   * does (the chat's tests, which walk the gate's line for real). Default: the refusal is left
   * to the test, which fails the start itself (`failStart`) when it means to.
   */
  failOnRefusedRequest?: boolean;
}

function callErrorOf(error: unknown): CallError {
  const source = error as Partial<CallErrorSource> | null;
  if (typeof source?.toCallError === 'function') return source.toCallError();
  return { type: 'web-call-creation-error', kind: 'unknown', message: String(error) };
}

/**
 * Stands in for the call object in component tests: records the verbs, plays the events the test
 * asks for, and runs a start's call request once, inside the start, as the call object does.
 */
export class FakeVoiceCall implements VoiceCall<{ id: string }> {
  state: CallState = 'idle';
  readonly emitter = mitt<CallEvents>();
  /** One entry per start asked for. */
  readonly starts: string[] = [];
  readonly muted: boolean[] = [];
  readonly sentMessages: ClientMessage[] = [];
  readonly inputDevices: DailyLikeInputDevices[] = [];
  ends = 0;
  stops = 0;
  /** The signal the current start gave its call request. */
  signal: AbortSignal | null = null;
  /** What the start's request resolved with: the call the gate admitted. */
  admitted: { id: string } | null = null;
  /** How the next microphone switch answers. */
  inputDeviceAnswer: () => Promise<unknown> = () => Promise.resolve({});
  resumeAudio = vi.fn(() => Promise.resolve(true));
  setOutputDeviceAsync = vi.fn(() => Promise.resolve({}));
  private settle: ((outcome: Outcome) => void) | null = null;
  private controller: AbortController | null = null;
  private callId = 'call-1';

  constructor(private readonly options: FakeVoiceCallOptions = {}) {}

  on<K extends keyof CallEvents>(type: K, handler: Handler<CallEvents[K]>): () => void {
    this.emitter.on(type, handler);
    return () => this.emitter.off(type, handler);
  }
  emit<K extends keyof CallEvents>(type: K, payload?: CallEvents[K]): void {
    act(() => this.emitter.emit(type, payload as CallEvents[K]));
  }
  /** A server message from Pepa. */
  message(message: ServerMessage): void {
    this.emit('message', message);
  }
  /** A final transcript entry said by `role`. */
  say(role: 'user' | 'assistant', transcript: string): void {
    this.message(finalCaption(role, transcript));
  }
  setState(state: CallState): void {
    const previous = this.state;
    this.state = state;
    this.emit('state-change', { state, previous });
  }
  /** The call object changes state synchronously inside its verbs, outside React's act. */
  private setStateQuietly(state: CallState): void {
    const previous = this.state;
    this.state = state;
    this.emitter.emit('state-change', { state, previous });
  }
  startWith(
    request: WebCallRequest<{ id: string }>,
    _options: Pick<StartWithOptions, 'unjoined'> = {},
  ): Promise<Outcome> {
    this.starts.push('start');
    const controller = (this.controller = new AbortController());
    this.signal = controller.signal;
    this.setStateQuietly('starting');
    const outcome = new Promise<Outcome>((resolve) => {
      this.settle = resolve;
    });
    // Like the call object: the request runs once, inside the start, and reports its place.
    const line = { waiting: (place: LinePlace) => this.emit('line-update', place) };
    request(controller.signal, line).then(
      (webCall) => {
        this.admitted = webCall;
        // Out of the line, the start goes on to the room.
        this.emit('line-update', null);
      },
      (error: unknown) => {
        if (!this.options.failOnRefusedRequest || controller.signal.aborted) return;
        const callError = callErrorOf(error);
        this.emit('call-start-failed', {
          stage: 'web-call-creation',
          error: callError,
          totalDurationMs: 5,
          timestamp: 1,
        });
        this.setState('idle');
        this.settle?.({
          status: 'failed',
          error: new CallStartError('web-call-creation', callError),
        });
      },
    );
    return outcome;
  }
  /** The start succeeds: Pepa is listening, in call `id`. */
  connect(id = this.callId): void {
    this.callId = id;
    this.setState('started');
    this.emit('call-start');
    act(() => this.settle?.({ status: 'started', call: { id } }));
  }
  /** The start fails in the room with `error`. */
  failStart(error: CallError): void {
    this.emit('error', error);
    this.emit('call-start-failed', { stage: 'join', error, totalDurationMs: 5, timestamp: 1 });
    this.setState('ending');
    this.setState('idle');
    act(() => this.settle?.({ status: 'failed', error: new CallStartError('join', error) }));
  }
  leave(): void {
    this.setState('ending');
    this.emit('call-end');
    this.setState('idle');
  }
  stop(): Promise<void> {
    this.stops += 1;
    if (this.state === 'starting') {
      this.setStateQuietly('ending');
      this.setStateQuietly('idle');
      this.controller?.abort();
      this.settle?.({ status: 'stopped' });
    }
    return Promise.resolve();
  }
  end(): Promise<void> {
    this.ends += 1;
    if (this.state === 'started') this.leave();
    else return this.stop();
    return Promise.resolve();
  }
  setMuted(muted: boolean): void {
    this.muted.push(muted);
  }
  send(message: ClientMessage): void {
    if (this.state !== 'started') throw new Error('No call object');
    this.sentMessages.push(message);
  }
  setInputDevicesAsync(devices: DailyLikeInputDevices): Promise<unknown> {
    this.inputDevices.push(devices);
    return this.inputDeviceAnswer();
  }
  listenerCount(): number {
    let count = 0;
    for (const handlers of this.emitter.all.values()) count += handlers.length;
    return count;
  }
}

/** A final transcript entry. */
export function finalCaption(role: 'user' | 'assistant', transcript: string): ServerMessage {
  return { type: 'transcript', role, transcriptType: 'final', transcript };
}

/** A partial transcript entry. */
export function partialCaption(role: 'user' | 'assistant', transcript: string): ServerMessage {
  return { type: 'transcript', role, transcriptType: 'partial', transcript };
}

/** A `tool-calls` message as the provider sends it. */
export function toolCalls(
  ...calls: Array<{ name: string; arguments?: unknown; id?: string }>
): ServerMessage {
  return {
    type: 'tool-calls',
    toolCallList: calls.map((call, index) => ({
      id: call.id ?? `call_${index}`,
      type: 'function',
      function: {
        name: call.name,
        arguments:
          typeof call.arguments === 'string'
            ? call.arguments
            : JSON.stringify(call.arguments ?? {}),
      },
    })),
    toolWithToolCallList: [],
  };
}
