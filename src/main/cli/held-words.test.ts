import { describe, expect, it } from 'vitest';
import { heldSides } from './held-words.js';

describe('held deletions in the terminal', () => {
  it('names the side they happened on and where confirming sends them', () => {
    expect(heldSides(60, 0)).toBe('deleted on this computer; confirming deletes them in the service too, into its bin');
    expect(heldSides(0, 1)).toBe('deleted in the service; confirming deletes it on this computer too, into the Trash');
    expect(heldSides(12, 1)).toBe('12 deleted on this computer, 1 in the service; confirming deletes each on the other side too');
  });
});
