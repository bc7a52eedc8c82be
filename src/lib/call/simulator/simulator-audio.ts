/**
 * The simulator's sound: Pepa's voice as a real MediaStreamTrack, and a level meter on the
 * visitor's microphone. Injectable, so tests run without Web Audio.
 */
export interface SimulatorAudio {
  /** The assistant's audio track, handed to the page in `track-started`. */
  readonly assistantTrack: MediaStreamTrack;
  /** Croaks for `durationMs`, fading in and out. */
  speak(durationMs: number): void;
  /** Falls silent at once. */
  hush(): void;
  /** Meters the visitor's microphone from now on. */
  listenTo(microphone: MediaStream): void;
  /** The visitor's current microphone level, 0..1. */
  microphoneLevel(): number;
  /** Stops the track and releases the audio graph. Safe to call twice. */
  close(): void;
}

export type SimulatorAudioFactory = () => SimulatorAudio;

const VOICE_GAIN = 0.22;
const FADE_SECONDS = 0.08;

/** True where the Web Audio voice can be built (not in jsdom, not in old browsers). */
export function canUseWebAudio(): boolean {
  return typeof AudioContext !== 'undefined';
}

/**
 * A frog's croak from oscillators: a buzzy sawtooth with a wobbling pitch through a band-pass
 * filter, chopped into syllables by a slow oscillator, into a MediaStreamAudioDestinationNode.
 */
export function createWebAudioVoice(): SimulatorAudio {
  const context = new AudioContext();
  // Created after the visitor's click, but resume anyway in case autoplay rules held it back.
  void context.resume().catch(() => undefined);
  const destination = context.createMediaStreamDestination();

  const volume = context.createGain();
  volume.gain.value = 0;
  volume.connect(destination);

  const syllables = context.createGain();
  syllables.gain.value = 0.5;
  syllables.connect(volume);
  const syllableRate = context.createOscillator();
  syllableRate.frequency.value = 4.5;
  const syllableDepth = context.createGain();
  syllableDepth.gain.value = 0.5;
  syllableRate.connect(syllableDepth).connect(syllables.gain);

  const throat = context.createBiquadFilter();
  throat.type = 'bandpass';
  throat.frequency.value = 650;
  throat.Q.value = 3;
  throat.connect(syllables);

  const buzz = context.createOscillator();
  buzz.type = 'sawtooth';
  buzz.frequency.value = 115;
  buzz.connect(throat);
  const wobble = context.createOscillator();
  wobble.frequency.value = 6;
  const wobbleDepth = context.createGain();
  wobbleDepth.gain.value = 25;
  wobble.connect(wobbleDepth).connect(buzz.frequency);

  const oscillators = [buzz, wobble, syllableRate];
  for (const oscillator of oscillators) oscillator.start();

  const [assistantTrack] = destination.stream.getAudioTracks();
  if (!assistantTrack) throw new Error('Web Audio gave no audio track');

  let analyser: AnalyserNode | null = null;
  let microphoneSource: MediaStreamAudioSourceNode | null = null;
  let samples = new Float32Array(0);
  let closed = false;

  const rampTo = (value: number, inSeconds: number): void => {
    const now = context.currentTime;
    volume.gain.cancelScheduledValues(now);
    volume.gain.setValueAtTime(volume.gain.value, now);
    volume.gain.linearRampToValueAtTime(value, now + inSeconds);
  };

  return {
    assistantTrack,
    speak(durationMs) {
      if (closed) return;
      const seconds = Math.max(durationMs / 1000, FADE_SECONDS * 2);
      const now = context.currentTime;
      rampTo(VOICE_GAIN, FADE_SECONDS);
      volume.gain.setValueAtTime(VOICE_GAIN, now + seconds - FADE_SECONDS);
      volume.gain.linearRampToValueAtTime(0, now + seconds);
    },
    hush() {
      if (!closed) rampTo(0, 0.03);
    },
    listenTo(microphone) {
      if (closed || microphone.getAudioTracks().length === 0) return;
      microphoneSource?.disconnect();
      microphoneSource = context.createMediaStreamSource(microphone);
      analyser = context.createAnalyser();
      analyser.fftSize = 512;
      samples = new Float32Array(analyser.fftSize);
      // Metered only: never connected to the speakers.
      microphoneSource.connect(analyser);
    },
    microphoneLevel() {
      if (!analyser) return 0;
      analyser.getFloatTimeDomainData(samples);
      let sumOfSquares = 0;
      for (const sample of samples) sumOfSquares += sample * sample;
      const rms = Math.sqrt(sumOfSquares / samples.length);
      return Math.min(1, rms * 2);
    },
    close() {
      if (closed) return;
      closed = true;
      for (const oscillator of oscillators) oscillator.stop();
      microphoneSource?.disconnect();
      assistantTrack.stop();
      void context.close().catch(() => undefined);
    },
  };
}
