/** The line's order and positions (its Fenwick tree) and its pace, without a runtime. */
import { describe, expect, it } from 'vitest';
import { estimateWait, Fenwick, hiddenGrace, Line, retryAfterFor } from './line';

describe('the Fenwick tree', () => {
  it('sums every prefix after adds and removals', () => {
    const tree = new Fenwick();
    const counts = new Map<number, number>();
    for (const [index, delta] of [
      [1, 1],
      [5, 1],
      [3, 2],
      [5, -1],
      [1000, 1],
    ] as const) {
      tree.add(index, delta);
      counts.set(index, (counts.get(index) ?? 0) + delta);
    }
    for (const at of [0, 1, 2, 3, 4, 5, 999, 1000, 5000]) {
      const expected = [...counts].reduce((sum, [i, n]) => (i <= at ? sum + n : sum), 0);
      expect(tree.prefix(at)).toBe(expected);
    }
  });

  it('grows past its first size and keeps every count it held', () => {
    const tree = new Fenwick();
    for (let i = 1; i <= 1023; i += 1) tree.add(i, 1);
    tree.add(5000, 1);
    expect(tree.prefix(1023)).toBe(1023);
    expect(tree.prefix(4999)).toBe(1023);
    expect(tree.prefix(5000)).toBe(1024);
    tree.add(512, -1);
    expect(tree.prefix(5000)).toBe(1023);
  });
});

describe('the line', () => {
  const ticket = (id: string) => ({
    id,
    visitor: `v-${id}`,
    networks: [],
    issuedAt: 0,
    deadline: 10_000,
    notBefore: 0,
    dueAt: 2_000,
    hiddenClaimed: false,
    offeredUntil: null,
  });

  it('gives positions in the order tickets came, and moves everyone up when one leaves', () => {
    const line = new Line();
    const [a, b, c] = ['a', 'b', 'c'].map((id) => line.add(ticket(id)));
    expect([a, b, c].map((t) => line.position(t!))).toEqual([1, 2, 3]);
    line.remove('a');
    expect([b, c].map((t) => line.position(t!))).toEqual([1, 2]);
  });

  it('counts only live tickets ahead, and no further than asked', () => {
    const line = new Line();
    const silent = line.add({ ...ticket('silent'), dueAt: 500 });
    const live = line.add(ticket('live'));
    const last = line.add(ticket('last'));
    expect(line.liveAhead(last, 1_000, 5)).toBe(1);
    expect(line.liveAhead(last, 1_000, 0)).toBe(0);
    expect(line.position(last)).toBe(3);
    expect([silent, live].every((t) => line.get(t.id))).toBe(true);
  });

  it('records what to store and to forget, and forgets a ticket given and gone at once', () => {
    const line = new Line();
    line.add(ticket('kept'));
    line.add(ticket('brief'));
    line.remove('brief');
    expect(line.takeChanges()).toEqual({
      added: [expect.objectContaining({ id: 'kept', seq: 1 })],
      gone: [],
    });
    line.remove('kept');
    expect(line.takeChanges()).toEqual({ added: [], gone: ['kept'] });
  });
});

describe('the line’s pace', () => {
  it('asks the front to check in every second and the back no slower than 20 s', () => {
    expect(retryAfterFor(1, 0)).toBe(1);
    expect(retryAfterFor(3, 2)).toBe(1);
    expect(retryAfterFor(4, 2)).toBe(2);
    expect(retryAfterFor(100, 0)).toBe(4);
    expect(retryAfterFor(10_000, 0)).toBe(20);
  });

  it('estimates a wait from the calls under way and a typical call, in steps of 5 s', () => {
    // Two places, held for 30 s and 80 s of a typical 90 s call: 10 s and 60 s left.
    expect(estimateWait(1, [30, 80], 90, 2)).toBe(10);
    expect(estimateWait(2, [30, 80], 90, 2)).toBe(60);
    // The third waits a whole call more than the first.
    expect(estimateWait(3, [30, 80], 90, 2)).toBe(100);
    // A free place: the least any estimate says is 5 s.
    expect(estimateWait(1, [], 90, 2)).toBe(5);
  });

  it('gives a hidden page its full grace far back, a quarter near the front', () => {
    const limits = { hiddenCheckInGraceSeconds: 75, checkInGraceSeconds: 10, maxConcurrent: 10 };
    expect(hiddenGrace(11, limits)).toBe(75);
    expect(hiddenGrace(10, limits)).toBe(19);
    expect(hiddenGrace(1, { ...limits, hiddenCheckInGraceSeconds: 20 })).toBe(10);
  });
});
