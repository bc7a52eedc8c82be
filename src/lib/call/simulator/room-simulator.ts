/**
 * The offline room simulator: Daily's call object in a room with the provider's assistant, with
 * no network, for the demo build and the browser tests. Split by concern:
 *   simulated-room.ts  the Daily-shaped room: lifecycle, microphone, level observers
 *   dialogue.ts        the assistant's script (greeting, replies, say, end-call)
 *   turn-taking.ts     the visitor's turns from the microphone level; the assistant's level
 *   scenarios.ts       each fault as data: when it plays and what it does
 *   simulator-audio.ts Pepa's voice and the microphone meter (Web Audio)
 */
import type { MicrophoneOpener } from '../call-options';
import type { DailyCallFactory } from '../daily-types';
import type { SimulatorOptions } from './options';
import { playMicrophoneScenarios } from './scenarios';
import { SimulatedRoom, type SimulatedNetwork } from './simulated-room';

export { DEFAULT_SIMULATOR_TIMINGS } from './options';
export type { SimulatorOptions, SimulatorPersona, SimulatorTimings } from './options';
export { assistantLevelAt } from './turn-taking';

/**
 * Creates call objects that behave, for everything the call object uses, like Daily's call
 * object in a room with the provider's assistant. No network: the assistant is scripted, as the
 * persona it is given.
 */
export function createSimulatorFactory(options: SimulatorOptions): DailyCallFactory {
  // The rooms of one page share its network: once it is gone (network-failure), it stays gone.
  const network: SimulatedNetwork = { down: false };
  return async (callObjectOptions) => new SimulatedRoom(callObjectOptions, options, network);
}

/**
 * The visitor's microphone as the page opens it before any room exists (an overlapped start):
 * the browser's own, after the simulator's microphone faults (`mic-denied` refuses it).
 */
export function createSimulatorMicrophone(
  options: Pick<SimulatorOptions, 'faults' | 'getUserMedia' | 'timings' | 'timeScale'>,
): MicrophoneOpener {
  const faults = new Set(options.faults ?? []);
  const promptMs = (options.timings?.microphonePromptMs ?? 0) * (options.timeScale ?? 1);
  return async (constraints) => {
    // The visitor answers the permission prompt (the field model's first visit).
    if (promptMs > 0) await new Promise((resolve) => setTimeout(resolve, promptMs));
    playMicrophoneScenarios(faults);
    if (options.getUserMedia) return options.getUserMedia(constraints);
    if (typeof navigator === 'undefined' || !navigator.mediaDevices) {
      throw new DOMException('No media devices', 'NotFoundError');
    }
    return navigator.mediaDevices.getUserMedia(constraints);
  };
}
