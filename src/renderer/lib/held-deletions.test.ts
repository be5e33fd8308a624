import { describe, expect, it } from 'vitest';
import { explainHeldDeletions } from './held-deletions.js';

describe('held deletions in words', () => {
  it('says files deleted on this computer go to the service’s bin when confirmed', () => {
    expect(explainHeldDeletions({ deletedOnComputer: 60, deletedInService: 0 })).toBe(
      '60 files were deleted on this computer. Confirm to delete them in the service too (they go to its bin), or restore them here.',
    );
    expect(explainHeldDeletions({ deletedOnComputer: 1, deletedInService: 0 })).toBe(
      '1 file was deleted on this computer. Confirm to delete it in the service too (it goes to its bin), or restore it here.',
    );
  });

  it('says files deleted in the service go to this computer’s Trash when confirmed', () => {
    expect(explainHeldDeletions({ deletedOnComputer: 0, deletedInService: 2115 })).toBe(
      '2,115 files were deleted in the service. Confirm to delete them on this computer too (they go to the Trash), or restore them in the service.',
    );
    expect(explainHeldDeletions({ deletedOnComputer: 0, deletedInService: 1 })).toBe(
      '1 file was deleted in the service. Confirm to delete it on this computer too (it goes to the Trash), or restore it in the service.',
    );
  });

  it('names both sides when deletions were held on each', () => {
    expect(explainHeldDeletions({ deletedOnComputer: 12, deletedInService: 1 })).toBe(
      '13 files were deleted: 12 on this computer and 1 in the service. Confirm to delete each on the other side too (in the service they go to its bin, here to the Trash), or restore them where they were deleted.',
    );
  });
});
