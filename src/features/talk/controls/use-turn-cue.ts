import { useCallback, useEffect, useRef, useState } from 'react';
import { isSpeechUpdateMessage, isTranscriptMessage } from '../../../lib/call';
import type { TalkPhase } from '../voice/voice-state';
import type { VoiceCall } from '../voice/use-voice-call';

/**
 * Whose turn it is, shown beside the spec's status text and on Pepa's portrait; the words are the
 * panel's texts' (status/panel-texts.ts).
 */
export type TurnCue = 'listening' | 'thinking' | 'speaking';

/** A thought that never turns into speech is not shown for ever. */
export const THINKING_MAX_MS = 15_000;

/**
 * Thinking lasts from the visitor's end of speech (or a typed message sent) to Pepa's first audio.
 * Returns the cue for the phase, and `thought()` for a typed message.
 */
export function useTurnCue(
  call: Pick<VoiceCall, 'on'>,
  phase: TalkPhase,
): { cue: TurnCue | null; thought(): void } {
  const [thinkingSince, setThinkingSince] = useState<number | null>(null);
  const thought = useCallback(() => setThinkingSince(Date.now()), []);
  const speaking = useRef(phase === 'speaking');
  speaking.current = phase === 'speaking';

  useEffect(() => {
    const stop = () => setThinkingSince(null);
    // Pepa began her answer while her voice was still sounding from her last remark: no new
    // speech-start will come, so her answer itself ends the thought. Otherwise her audio does.
    const answerBegan = () => {
      if (speaking.current) stop();
    };
    const unsubscribes = [
      call.on('message', (message) => {
        if (isSpeechUpdateMessage(message)) {
          // The visitor stopped: Pepa thinks; the visitor speaking again ends the thought.
          if (message.role === 'user') {
            if (message.status === 'stopped') thought();
            else stop();
          } else if (message.status === 'started') {
            answerBegan();
          }
        } else if (isTranscriptMessage(message) && message.role === 'assistant') {
          answerBegan();
        } else if (
          isTranscriptMessage(message) &&
          message.role === 'user' &&
          message.transcriptType === 'final'
        ) {
          setThinkingSince((since) => since ?? Date.now());
        }
      }),
      // Pepa's first audio ends the thought.
      call.on('speech-start', stop),
      call.on('call-end', stop),
    ];
    return () => {
      for (const unsubscribe of unsubscribes) unsubscribe();
    };
  }, [call, thought]);

  useEffect(() => {
    if (thinkingSince === null) return;
    const timer = setTimeout(
      () => setThinkingSince(null),
      Math.max(0, thinkingSince + THINKING_MAX_MS - Date.now()),
    );
    return () => clearTimeout(timer);
  }, [thinkingSince]);

  let cue: TurnCue | null = null;
  if (phase === 'speaking') cue = 'speaking';
  else if (phase === 'listening') cue = thinkingSince === null ? 'listening' : 'thinking';
  return { cue, thought };
}
