import { describe, expect, it } from 'vitest';
import { movedIndex } from './list-keys.js';

describe('moving through a result list with the keyboard', () => {
  it('starts at the first option going down and at the last going up', () => {
    expect(movedIndex('ArrowDown', -1, 5)).toBe(0);
    expect(movedIndex('ArrowUp', -1, 5)).toBe(4);
  });

  it('moves one step and stops at either end', () => {
    expect(movedIndex('ArrowDown', 2, 5)).toBe(3);
    expect(movedIndex('ArrowDown', 4, 5)).toBe(4);
    expect(movedIndex('ArrowUp', 1, 5)).toBe(0);
    expect(movedIndex('ArrowUp', 0, 5)).toBe(0);
  });

  it('jumps to the ends with Home and End', () => {
    expect(movedIndex('Home', 3, 5)).toBe(0);
    expect(movedIndex('End', 0, 5)).toBe(4);
  });

  it('has no active option in an empty list, and leaves other keys to the text box', () => {
    expect(movedIndex('ArrowDown', -1, 0)).toBe(-1);
    expect(movedIndex('a', 2, 5)).toBeUndefined();
    expect(movedIndex('Enter', 2, 5)).toBeUndefined();
  });
});
