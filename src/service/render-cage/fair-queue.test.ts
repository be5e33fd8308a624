import { describe, expect, it } from 'vitest';
import { FairQueue } from './fair-queue.js';

describe('FairQueue, the render cage waiting line', () => {
  it("serves owners in turn, so one account's backlog does not hold up another's file", () => {
    const queue = new FairQueue<string>();
    for (let index = 1; index <= 4; index++) queue.push('flooder', `f${index}`);
    queue.push('other', 'o1');
    queue.push('third', 't1');
    queue.push('other', 'o2');
    const order: string[] = [];
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) order.push(item);
    expect(order).toEqual(['f1', 'o1', 't1', 'f2', 'o2', 'f3', 'f4']);
    expect(queue.size).toBe(0);
  });

  it('keeps first in, first out within one owner, and a newcomer waits one turn at most', () => {
    const queue = new FairQueue<string>();
    queue.push('a', 'a1');
    queue.push('a', 'a2');
    expect(queue.shift()).toBe('a1');
    queue.push('b', 'b1');
    expect(queue.shift()).toBe('a2');
    expect(queue.shift()).toBe('b1');
    expect(queue.shift()).toBeUndefined();
  });

  it('hands every waiting item back when drained', () => {
    const queue = new FairQueue<number>();
    queue.push('a', 1);
    queue.push('b', 2);
    expect(queue.drain().sort()).toEqual([1, 2]);
    expect(queue.size).toBe(0);
  });
});
