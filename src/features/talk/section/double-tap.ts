/** Presses of the main button closer together than this are one press (a double tap). */
export const DOUBLE_TAP_MS = 400;
