/**
 * Where held deletions happened and what confirming does, for the terminal: the same facts the
 * window's Held deletions view gives (deleted on this computer → the service's bin; deleted in the
 * service → this computer's Trash).
 */

/** `deleted on this computer; confirming deletes them in the service too`, and so on. */
export function heldSides(deletedOnComputer: number, deletedInService: number): string {
  const them = deletedOnComputer + deletedInService === 1 ? 'it' : 'them';
  if (deletedInService === 0) return `deleted on this computer; confirming deletes ${them} in the service too, into its bin`;
  if (deletedOnComputer === 0) return `deleted in the service; confirming deletes ${them} on this computer too, into the Trash`;
  return `${deletedOnComputer} deleted on this computer, ${deletedInService} in the service; confirming deletes each on the other side too`;
}
