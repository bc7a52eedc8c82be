import { useCallback, useEffect, useRef, useState } from 'react';

export type TalkMode = 'open' | 'hold';

/** Where the visitor's choice is remembered on this device. */
export const TALK_MODE_KEY = 'pepa-talk-mode';

function readMode(): TalkMode {
  try {
    return window.localStorage.getItem(TALK_MODE_KEY) === 'hold' ? 'hold' : 'open';
  } catch {
    return 'open';
  }
}

function saveMode(mode: TalkMode): void {
  try {
    window.localStorage.setItem(TALK_MODE_KEY, mode);
  } catch {
    // Storage refused (private mode): the choice lasts for this visit only.
  }
}

/**
 * Hold to talk: in `hold` mode the microphone is muted except while the visitor holds the talk
 * button (or Space). Releasing mutes again, which ends the visitor's turn. `setMuted` is called
 * each time the microphone should change, and again on `reapply()` (after a device switch, whose
 * new track must follow the mode too). A reconnect keeps the call object's own mute.
 */
export function useHoldToTalk(active: boolean, setMuted: (muted: boolean) => void) {
  const [mode, setModeState] = useState<TalkMode>(readMode);
  const [holding, setHolding] = useState(false);
  const applied = useRef<boolean | null>(null);
  const mute = useRef(setMuted);
  mute.current = setMuted;

  const setMode = useCallback((next: TalkMode) => {
    saveMode(next);
    setModeState(next);
    setHolding(false);
  }, []);

  // The microphone follows the mode and the hold; leaving hold mode gives the microphone back.
  useEffect(() => {
    if (!active) {
      applied.current = null;
      return;
    }
    if (mode === 'hold') {
      applied.current = !holding;
      mute.current(!holding);
    } else if (applied.current !== null) {
      applied.current = null;
      mute.current(false);
    }
  }, [active, mode, holding]);

  useEffect(() => {
    if (!active) setHolding(false);
  }, [active]);

  const reapply = useCallback(() => {
    if (applied.current !== null) mute.current(applied.current);
  }, []);

  return { mode, setMode, holding, setHolding, reapply };
}
