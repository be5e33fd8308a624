/**
 * The words for deletions the mass-delete guard held: where they happened, and what confirming does
 * (carry them to the other side: the service's bin, or this computer's Trash) or restoring does.
 */
import type { HeldDeletionsView } from '../../shared/bridge/app-state.js';
import { formatCount, plural } from './format.js';

function files(count: number): string {
  return `${plural(count, 'file')} ${count === 1 ? 'was' : 'were'}`;
}

/** One or two sentences for a folder's held deletions, true to the side each one happened on. */
export function explainHeldDeletions(held: Pick<HeldDeletionsView, 'deletedOnComputer' | 'deletedInService'>): string {
  const here = held.deletedOnComputer;
  const there = held.deletedInService;
  const them = (count: number): string => (count === 1 ? 'it' : 'them');
  const theyGo = (count: number): string => (count === 1 ? 'it goes' : 'they go');
  if (there === 0) return `${files(here)} deleted on this computer. Confirm to delete ${them(here)} in the service too (${theyGo(here)} to its bin), or restore ${them(here)} here.`;
  if (here === 0) return `${files(there)} deleted in the service. Confirm to delete ${them(there)} on this computer too (${theyGo(there)} to the Trash), or restore ${them(there)} in the service.`;
  return (
    `${files(here + there)} deleted: ${formatCount(here)} on this computer and ${formatCount(there)} in the service. ` +
    'Confirm to delete each on the other side too (in the service they go to its bin, here to the Trash), or restore them where they were deleted.'
  );
}
