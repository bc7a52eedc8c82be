/** Reading an API's error body, whichever of the usual shapes it has. */
import { isRecord } from '../lib/is-record';

function strings(value: unknown): string[] {
  if (typeof value === 'string') return value ? [value] : [];
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  return [];
}

/**
 * Reads the reason out of an error body: the provider's `{ message }` (a string or a list), or a
 * problem+json body with a `validation` list (what the mock sends for an invalid request).
 */
export function errorDetails(body: unknown): string[] {
  if (typeof body === 'string') return strings(body.trim().slice(0, 300));
  if (!isRecord(body)) return [];
  if (Array.isArray(body.validation)) {
    return body.validation.filter(isRecord).map((problem) => {
      if (typeof problem.message === 'string') return problem.message;
      const location = Array.isArray(problem.location) ? problem.location.join('.') : 'request';
      return `${location} is invalid`;
    });
  }
  const messages = strings(body.message);
  if (messages.length > 0) return messages;
  return strings(body.detail ?? body.title ?? body.error);
}
