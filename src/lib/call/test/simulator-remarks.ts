/**
 * What the simulated Pepa says and does, for tests outside the library that check the page's
 * answer to it. Part of the test kit, not of the front door: re-exported from the front door, the
 * simulator's modules would be bundled with the call object instead of in the demo's own chunk.
 */
export { FOREIGN_LINK, LOOK_ALIKE_ADDRESS } from '../simulator/scenarios';
export { toolCueFor } from '../simulator/dialogue';
