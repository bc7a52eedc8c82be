/**
 * The check every answer in these tests passes through: it must find each way an answer can
 * drift from openapi/gate.json, or the suite would pass on a gate that broke its contract.
 */
import { describe, expect, it } from 'vitest';
import { answerDrift, expectConforms } from './conformance';

const admitted = {
  status: 'admitted',
  call: { id: 'call-1', webCallUrl: 'https://pepa.daily.co/room', maxDurationSeconds: 180 },
  callSecret: 'AAAAAAAAAAAAAAAAAAAAAA',
  waitedSeconds: 0,
};
const waiting = {
  status: 'waiting',
  ticket: {
    id: 'aaaaaaaaaaaaaaaaaaaa',
    secret: 'bbbbbbbbbbbbbbbbbbbbbb',
    position: 1,
    estimatedWaitSeconds: 30,
    checkInBySeconds: 11,
  },
  retryAfterSeconds: 1,
};

function answer(
  body: unknown,
  status: number,
  headers: Record<string, string> = {},
  type = 'application/json',
): Response {
  const text = body === null || typeof body === 'string' ? body : JSON.stringify(body);
  return new Response(text, {
    status,
    headers: body === null ? headers : { 'content-type': type, ...headers },
  });
}

const cookie = { 'set-cookie': 'pepa_rating=x; Path=/api/ratings' };

describe('the contract check', () => {
  it('passes answers the document allows', async () => {
    expect(await answerDrift('POST', '/api/calls', answer(admitted, 201, cookie))).toEqual([]);
    expect(
      await answerDrift('POST', '/api/calls', answer(waiting, 202, { 'retry-after': '1' })),
    ).toEqual([]);
    expect(await answerDrift('DELETE', '/api/tickets/x', answer(null, 204))).toEqual([]);
    expect(
      await answerDrift(
        'POST',
        '/api/ratings',
        answer(
          { code: 'not-found', title: 'Nothing', status: 404 },
          404,
          {},
          'application/problem+json',
        ),
      ),
    ).toEqual([]);
  });

  it('finds a status the operation does not declare', async () => {
    expect(await answerDrift('POST', '/api/calls', answer(admitted, 200))).toEqual([
      '200 is not an answer createCall declares',
    ]);
  });

  it('finds a declared header missing or out of its schema', async () => {
    expect(await answerDrift('POST', '/api/calls', answer(waiting, 202))).toEqual([
      'the Retry-After header is missing',
    ]);
    expect(
      await answerDrift('POST', '/api/calls', answer(waiting, 202, { 'retry-after': 'soon' })),
    ).toEqual(['the Retry-After header "soon" does not fit its schema']);
  });

  it('finds a required field missing, a value out of its schema, and a field not declared', async () => {
    const { webCallUrl: _url, ...callWithoutRoom } = admitted.call;
    expect(
      await answerDrift(
        'POST',
        '/api/calls',
        answer({ ...admitted, call: callWithoutRoom }, 201, cookie),
      ),
    ).toEqual([expect.stringMatching(/^call\.webCallUrl: /)]);
    expect(
      await answerDrift(
        'POST',
        '/api/tickets/aaaaaaaaaaaaaaaaaaaa',
        answer({ ...waiting, retryAfterSeconds: 0 }, 200, { 'retry-after': '0' }),
      ),
    ).toEqual([expect.stringMatching(/^retryAfterSeconds: /)]);
    expect(
      await answerDrift('POST', '/api/calls', answer({ ...admitted, vip: true }, 201, cookie)),
    ).toEqual(['vip is not declared']);
  });

  it('finds a body of the wrong media type, and one that is not JSON', async () => {
    expect(
      await answerDrift(
        'GET',
        '/api/report',
        answer({ code: 'unauthorized', title: 'No' }, 401, {}, 'application/json'),
      ),
    ).toEqual(['the body is "application/json", not application/problem+json']);
    expect(await answerDrift('POST', '/api/calls', answer('{"status":', 201, cookie))).toEqual([
      'the body is not JSON',
    ]);
  });

  it('leaves paths the document does not declare alone, and throws on drift', async () => {
    expect(await answerDrift('GET', '/', new Response('<html>', { status: 200 }))).toEqual([]);
    await expect(expectConforms('POST', '/api/calls', answer(admitted, 200))).rejects.toThrow(
      /drifts from openapi\/gate\.json:\n {2}200 is not an answer createCall declares/,
    );
  });
});

describe('the contract check of a stream', () => {
  const stream = (events: unknown[]) =>
    answer(
      events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join(''),
      200,
      {},
      'text/event-stream',
    );
  const path = '/api/chats/aaaaaaaaaaaaaaaaaaaa/messages';

  it('passes a stream whose every event the document allows', async () => {
    expect(
      await answerDrift(
        'POST',
        path,
        stream([
          { type: 'words', text: 'Ribbit' },
          { type: 'done', turnsLeft: 3, remark: 2 },
        ]),
      ),
    ).toEqual([]);
  });

  it('finds an event out of its schema, one with a field not declared, and one not JSON', async () => {
    expect(
      await answerDrift(
        'POST',
        path,
        stream([
          { type: 'done', turnsLeft: -1, remark: 1 },
          { type: 'words', text: 'a', mood: 'glad' },
        ]),
      ),
    ).toEqual([
      expect.stringMatching(/^event 1: turnsLeft: /),
      // The closed shapes refuse it, and the walk names the field.
      expect.stringMatching(/^event 2: the body: /),
      'event 2: mood is not declared',
    ]);
    expect(
      await answerDrift('POST', path, answer('data: {"type":\n\n', 200, {}, 'text/event-stream')),
    ).toEqual(['event 1: the body is not JSON']);
  });

  it('finds a stream with no events at all', async () => {
    expect(await answerDrift('POST', path, answer('', 200, {}, 'text/event-stream'))).toEqual([
      'the stream has no events',
    ]);
  });
});
