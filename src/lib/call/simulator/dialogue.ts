import type { SimulatorPersona, SimulatorTimings, SimulatorToolCue } from './options';
import { assistantLevelAt, type Speech } from './turn-taking';

/** What the script needs of the room it plays in. */
export interface ScriptStage {
  readonly timings: SimulatorTimings;
  readonly scale: number;
  /** Runs `run` after `delayMs` (before scaling), unless the room is gone by then. */
  after(delayMs: number, run: () => void): void;
  /** Sends a server message as the assistant (only while joined). */
  sendServer(message: Record<string, unknown>): void;
  /** Whether the room is joined, so the assistant can speak. */
  joined(): boolean;
  /** Sounds the assistant's voice for `scaledMs`. */
  voice(scaledMs: number): void;
  /** Silences the voice at once. */
  hush(): void;
  /** The assistant closes the room. */
  leave(): void;
  /** Pepa's first remark when the provider's model wrote it (a chat handed over); null: her own. */
  opening(): string | null;
}

/**
 * The assistant's side of the conversation, as the provider plays it: the greeting, a reply to
 * each visitor turn (the persona's canned messages), `say`,
 * `end-call`, the controls and `add-message`, each spoken as speech updates, audio and
 * transcripts.
 */
export class PepaScript {
  private speech: Speech | null = null;
  private turn = 0;
  private replies = 0;
  private greeted = false;
  private replyPending = false;
  private toolCalls = 0;
  private assistantMuted = false;
  private readonly conversation: Array<{ role: 'assistant' | 'user'; message: string }> = [];

  constructor(
    private readonly stage: ScriptStage,
    private readonly persona: SimulatorPersona,
    /** Called once the greeting has been spoken. */
    private readonly afterGreeting: () => void,
  ) {}

  /** The assistant's level now, for the remote audio-level observer. */
  levelAt(now: number): number {
    return this.assistantMuted ? 0 : assistantLevelAt(this.speech, now);
  }

  /** The visitor may take a turn: greeted, and Pepa neither speaking nor about to. */
  canListen(): boolean {
    return this.greeted && !this.speech && !this.replyPending && this.stage.joined();
  }

  /** The room went quiet for good (left or destroyed). */
  silence(): void {
    this.speech = null;
  }

  greet(): void {
    if (this.greeted) return;
    this.greeted = true;
    const first = this.stage.opening() ?? this.persona.firstMessage;
    this.speak(first, this.stage.timings.greetingMs, this.afterGreeting);
  }

  visitorStarted(): void {
    this.stage.sendServer({
      type: 'speech-update',
      status: 'started',
      role: 'user',
      turn: this.turn,
    });
    this.sendTranscript('user', 'partial', this.visitorMessage().split(' ')[0] ?? '');
  }

  /** The visitor finished a turn: its transcript, then Pepa's reply. */
  visitorFinished(): void {
    this.stage.sendServer({
      type: 'speech-update',
      status: 'stopped',
      role: 'user',
      turn: this.turn,
    });
    const message = this.visitorMessage();
    this.sendTranscript('user', 'final', message);
    this.conversation.push({ role: 'user', message });
    this.replyPending = true;
    this.stage.after(this.stage.timings.replyDelayMs, () => {
      this.replyPending = false;
      this.reply(message);
    });
  }

  /** A client message from the page (already parsed JSON). */
  onClientMessage(message: Record<string, unknown>): void {
    switch (message.type) {
      case 'say': {
        const text = typeof message.message === 'string' ? message.message : '';
        const words = text.split(/\s+/).filter(Boolean).length;
        const durationMs = Math.max(800, words * this.stage.timings.sayMsPerWord);
        this.speak(
          text,
          durationMs,
          message.endCallAfterSpoken === true
            ? () => this.endCall('assistant-said-end-call-phrase')
            : undefined,
        );
        return;
      }
      case 'end-call':
        this.endCall('customer-ended-call');
        return;
      case 'control':
        if (message.control === 'mute-assistant') {
          this.assistantMuted = true;
          this.stage.hush();
        } else if (message.control === 'unmute-assistant') {
          this.assistantMuted = false;
        } else if (message.control === 'say-first-message') {
          this.greet();
        }
        return;
      case 'add-message': {
        // A message the visitor typed: part of the conversation, answered like a spoken one.
        const added = message.message as { role?: unknown; content?: unknown } | undefined;
        const content = typeof added?.content === 'string' ? added.content : '';
        if (content && (added?.role === 'user' || added?.role === 'assistant')) {
          this.conversation.push({ role: added.role, message: content });
        }
        // Silent messages (the page telling Pepa what the visitor sees) get no reply.
        if (message.triggerResponseEnabled === true) {
          const asked = added?.role === 'user' ? content : '';
          this.stage.after(this.stage.timings.replyDelayMs, () => this.reply(asked));
        }
        return;
      }
      default:
        return;
    }
  }

  /** The assistant ends the call: the ended status, then it leaves the room. */
  endCall(endedReason: string): void {
    this.stage.sendServer({ type: 'status-update', status: 'ended', endedReason });
    this.stage.after(this.stage.timings.leaveMs, () => this.stage.leave());
  }

  private visitorMessage(): string {
    const messages = this.persona.visitorMessages;
    return messages[this.replies % messages.length] ?? '';
  }

  /** Pepa answers `asked`: with a tool call and its words when it asks for one, else canned. */
  private reply(asked = ''): void {
    const replies = this.persona.replies;
    const cue = toolCueFor(this.persona.toolCues ?? [], asked);
    const reply = cue ? cue.reply : (replies[this.replies % replies.length] ?? '');
    this.replies += 1;
    if (cue && this.stage.joined()) {
      this.toolCalls += 1;
      this.stage.sendServer({
        type: 'tool-calls',
        toolCallList: [
          {
            id: `call_demo_${this.toolCalls}`,
            type: 'function',
            function: { name: cue.tool.name, arguments: JSON.stringify(cue.tool.arguments) },
          },
        ],
        toolWithToolCallList: [],
      });
    }
    this.speak(reply, this.stage.timings.replyMs);
  }

  /** The assistant says `text`: speech-update, audio and levels, partial then final transcript. */
  private speak(text: string, durationMs: number, then?: () => void): void {
    if (!this.stage.joined()) return;
    const scaledMs = durationMs * this.stage.scale;
    this.turn += 1;
    const turn = this.turn;
    this.speech = { text, startedAt: Date.now(), durationMs: scaledMs };
    if (!this.assistantMuted) this.stage.voice(scaledMs);
    this.stage.sendServer({ type: 'speech-update', status: 'started', role: 'assistant', turn });
    const words = text.split(' ');
    this.stage.after(durationMs * 0.4, () =>
      this.sendTranscript(
        'assistant',
        'partial',
        words.slice(0, Math.ceil(words.length / 2)).join(' '),
      ),
    );
    // The speech ends here and only here, so the visitor is never heard over the assistant even
    // when the browser runs this timer late.
    this.stage.after(durationMs, () => {
      this.speech = null;
      this.sendTranscript('assistant', 'final', text);
      this.stage.sendServer({ type: 'speech-update', status: 'stopped', role: 'assistant', turn });
      this.conversation.push({ role: 'assistant', message: text });
      this.stage.sendServer({
        type: 'conversation-update',
        messages: this.conversation.map((entry) => ({ ...entry })),
      });
      then?.();
    });
  }

  private sendTranscript(
    role: 'assistant' | 'user',
    transcriptType: 'partial' | 'final',
    transcript: string,
  ): void {
    this.stage.sendServer({ type: 'transcript', role, transcriptType, transcript });
  }
}

/** The first cue whose question matches the visitor's message. */
export function toolCueFor(
  cues: readonly SimulatorToolCue[],
  message: string,
): SimulatorToolCue | undefined {
  if (message.trim() === '') return undefined;
  return cues.find((cue) => new RegExp(cue.asks, 'i').test(message));
}
