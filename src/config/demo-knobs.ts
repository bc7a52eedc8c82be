/**
 * The demo's knobs, read from the page address: the voice runtime and the page's bot check both
 * follow them, so each is read in one place.
 *
 * Whether the build is the demo is not exported from here: the bundler drops the demo's code
 * (the simulator, the field latency model) only where the build-time constant is written in the
 * module that branches on it, so each such module says it itself (`demoBuild` below, for one).
 */
import { siteConfig } from './site';

/** Whether this build talks to the simulator (both read VITE_PEPA_DEMO). */
const demoBuild = import.meta.env.VITE_PEPA_DEMO === 'true' && siteConfig.voice.mode === 'demo';

/** A live page reads nothing from its address. */
const demoKnobs = demoBuild ? new URLSearchParams(window.location.search) : null;

/**
 * `latency=field` plays the field latency model (the bot check's solve, the room's delays; the
 * stand-in provider plays the rest).
 */
export const FIELD_LATENCY = demoKnobs?.get('latency') === 'field';

/** `start=sequential` runs a start's stages one after the other, as the provider's client does. */
export const SEQUENTIAL = demoKnobs?.get('start') === 'sequential';
