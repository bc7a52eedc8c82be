import { describe, expect, it } from 'vitest';
import { joinFailure } from './join-failure';

const domError = (name: string) => new DOMException('the browser said no', name);

describe('joinFailure', () => {
  it('names a refused microphone as refused', () => {
    expect(joinFailure(domError('NotAllowedError')).type).toBe('microphone-permission-denied');
  });

  it.each(['NotFoundError', 'DevicesNotFoundError', 'OverconstrainedError'])(
    'names %s (no microphone to open, as Gecko and WebKit report it) as missing',
    (name) => {
      expect(joinFailure(domError(name))).toMatchObject({
        type: 'microphone-missing',
        message: expect.stringContaining('the browser said no'),
      });
    },
  );

  it('leaves any other failure to the room', () => {
    expect(joinFailure(new Error('no room')).type).toBe('daily-call-join-error');
    expect(joinFailure(domError('NotReadableError')).type).toBe('daily-call-join-error');
  });
});
