import { act } from '@testing-library/react';
import type {
  WebCallRequest,
  CallEvents,
  CallState,
  ClientMessage,
  ServerMessage,
  DailyLikeInputDevices,
  StartOutcome,
} from '../../../lib/call';
import mitt, { type Handler } from 'mitt';
import type { VoiceCall } from '../voice/use-voice-call';

/** Stands in for the call object in component tests: records the verbs, plays the events. */
export class FakeVoiceCall implements VoiceCall<{ id: string }> {
  state: CallState = 'idle';
  readonly emitter = mitt<CallEvents>();
  readonly muted: boolean[] = [];
  readonly sentMessages: ClientMessage[] = [];
  readonly inputDevices: DailyLikeInputDevices[] = [];
  private pending: ((outcome: StartOutcome<{ id: string }>) => void) | null = null;
  private callId = 'call-1';

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
  setState(state: CallState): void {
    const previous = this.state;
    this.state = state;
    this.emit('state-change', { state, previous });
  }
  startWith(request: WebCallRequest<{ id: string }>) {
    const previous = this.state;
    this.state = 'starting';
    this.emitter.emit('state-change', { state: 'starting', previous });
    request(new AbortController().signal, { waiting: () => undefined }).catch(() => undefined);
    return new Promise<StartOutcome<{ id: string }>>((resolve) => {
      this.pending = resolve;
    });
  }
  /** The start succeeds: Pepa is listening, in call `id`. */
  connect(id = this.callId): void {
    this.callId = id;
    this.setState('started');
    this.emit('call-start');
    act(() => this.pending?.({ status: 'started', call: { id } }));
  }
  leave(): void {
    this.setState('ending');
    this.emit('call-end');
    this.setState('idle');
  }
  stop(): Promise<void> {
    if (this.state === 'starting') {
      this.state = 'idle';
      this.pending?.({ status: 'stopped' });
    }
    return Promise.resolve();
  }
  end(): Promise<void> {
    if (this.state === 'started') this.leave();
    return Promise.resolve();
  }
  setMuted(muted: boolean): void {
    this.muted.push(muted);
  }
  resumeAudio(): Promise<boolean> {
    return Promise.resolve(true);
  }
  send(message: ClientMessage): void {
    if (this.state !== 'started') throw new Error('No call object');
    this.sentMessages.push(message);
  }
  setInputDevicesAsync(devices: DailyLikeInputDevices): Promise<unknown> {
    this.inputDevices.push(devices);
    return Promise.resolve({});
  }
  setOutputDeviceAsync(): Promise<unknown> {
    return Promise.resolve({});
  }
  listenerCount(): number {
    let count = 0;
    for (const handlers of this.emitter.all.values()) count += handlers.length;
    return count;
  }
}

/** A final transcript line. */
export function finalLine(role: 'user' | 'assistant', transcript: string): ServerMessage {
  return { type: 'transcript', role, transcriptType: 'final', transcript };
}

/** A partial transcript line. */
export function partialLine(role: 'user' | 'assistant', transcript: string): ServerMessage {
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
