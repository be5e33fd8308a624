/**
 * Who may do what with a collection, in one table, so that the actions advertised in
 * `permittedActions` and the checks the routes make cannot drift apart.
 *
 * - Admins of the account act on every collection; the owner on their own.
 * - Collaborators: a VIEWER sees the collection; an EDITOR also renames it and adds or removes assets.
 * - Deleting, sharing and managing collaborators stay with the owner and admins.
 * - A collection the caller may not even view is reported as not found (never leak existence).
 * - Viewers of the account only look: they cannot create collections.
 */
import type { PermittedAction } from '../../shared/api/resources.js';
import type { Role } from '../accounts/accounts-repo.js';
import { ServiceError, notFound } from '../errors/service-error.js';
import type { CollaboratorRole, CollectionRow } from './collections-repo.js';

export type CollectionAction = 'VIEW' | 'EDIT' | 'DELETE' | 'SHARE' | 'MANAGE_COLLABORATORS';

/** The caller's standing towards one collection. */
export type Standing = 'ADMIN' | 'OWNER' | CollaboratorRole | 'NONE';

const actionsOf: Record<Standing, readonly CollectionAction[]> = {
  ADMIN: ['VIEW', 'EDIT', 'DELETE', 'SHARE', 'MANAGE_COLLABORATORS'],
  OWNER: ['VIEW', 'EDIT', 'DELETE', 'SHARE', 'MANAGE_COLLABORATORS'],
  EDITOR: ['VIEW', 'EDIT'],
  VIEWER: ['VIEW'],
  NONE: [],
};

export interface CollectionCaller {
  userId: string;
  role: Role;
}

export function standingOf(who: CollectionCaller, row: CollectionRow, collaboratorRole: CollaboratorRole | undefined): Standing {
  if (who.role === 'admin') return 'ADMIN';
  if (row.owner_id === who.userId) return 'OWNER';
  return collaboratorRole ?? 'NONE';
}

export function collectionActions(standing: Standing, collectionId: string): PermittedAction[] {
  return actionsOf[standing].map((action) => ({ resourceType: 'COLLECTION', resourceId: collectionId, action }));
}

/** Throws 404 when the caller may not see the collection, 403 when they see it but may not do this. */
export function requireCollectionAction(standing: Standing, row: CollectionRow, action: CollectionAction): void {
  if (!actionsOf[standing].includes('VIEW')) throw notFound('collection', row.id);
  if (!actionsOf[standing].includes(action)) throw new ServiceError('FORBIDDEN', `You may not ${action} this collection (you are its ${standing.toLowerCase()}).`);
}

export function mayCreateCollections(role: Role): boolean {
  return role !== 'viewer';
}
