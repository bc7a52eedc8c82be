// @ts-check
// What the build needs to put text of its own into a page: the Content-Security-Policy source that
// allows an inline script, and attribute escaping. One definition, shared by the scripts the page
// carries inline, the build plugin, and the check that reads the built page back.
import { createHash } from 'node:crypto';

/**
 * The CSP source that allows exactly this inline script text, e.g. `'sha256-…'`.
 * @param {string} text
 */
export function cspHash(text) {
  return `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
}

/**
 * Text made safe inside a double-quoted HTML attribute.
 * @param {string} value
 */
export function escapeAttribute(value) {
  return value
    .replace(/&/g, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}
