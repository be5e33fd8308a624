/**
 * What each role may do, in one table. `permittedActions` in every envelope and every endpoint's check
 * come from here, so what the service advertises and what it enforces cannot drift apart.
 * Admins do everything; members work with assets and folders but cannot change the schema; viewers
 * only look and download.
 */
import type { PermittedAction } from '../../shared/api/resources.js';
import type { Role } from '../accounts/accounts-repo.js';
import { ServiceError } from '../errors/service-error.js';

export type ResourceType = 'ASSET' | 'ASSET_FILE' | 'FIELD' | 'FIELD_OPTION' | 'JOB' | 'USER' | 'GROUP';

const resourceActions: Record<Role, Record<ResourceType, readonly string[]>> = {
  admin: {
    ASSET: ['VIEW', 'EDIT', 'DELETE', 'DOWNLOAD', 'UPLOAD'],
    ASSET_FILE: ['VIEW', 'DELETE', 'DOWNLOAD'],
    FIELD: ['VIEW', 'EDIT', 'DELETE'],
    FIELD_OPTION: ['VIEW', 'EDIT', 'DELETE'],
    JOB: ['VIEW'],
    USER: ['VIEW', 'EDIT'],
    GROUP: ['VIEW', 'EDIT', 'DELETE'],
  },
  member: {
    ASSET: ['VIEW', 'EDIT', 'DELETE', 'DOWNLOAD', 'UPLOAD'],
    ASSET_FILE: ['VIEW', 'DELETE', 'DOWNLOAD'],
    FIELD: ['VIEW'],
    FIELD_OPTION: ['VIEW', 'EDIT', 'DELETE'],
    JOB: ['VIEW'],
    USER: ['VIEW', 'EDIT'],
    GROUP: ['VIEW'],
  },
  viewer: {
    ASSET: ['VIEW', 'DOWNLOAD'],
    ASSET_FILE: ['VIEW', 'DOWNLOAD'],
    FIELD: ['VIEW'],
    FIELD_OPTION: ['VIEW'],
    JOB: ['VIEW'],
    USER: ['VIEW'],
    GROUP: ['VIEW'],
  },
};

/** Account-wide actions, reported by `GET /current-user` (resourceId null). */
const accountActions: Record<Role, readonly (readonly [string, string])[]> = {
  admin: [
    ['ASSETS', 'CREATE_ASSETS'],
    ['ASSETS', 'SEARCH_ASSETS'],
    ['FIELDS', 'CREATE_FIELDS'],
    ['FIELD_OPTIONS', 'CREATE_FIELD_OPTIONS'],
    ['CUSTOM_INTEGRATION_SETTINGS', 'MANAGE'],
    ['GROUPS', 'CREATE_GROUPS'],
    ['DOWNLOAD_EVENTS', 'SEARCH_DOWNLOAD_EVENTS'],
    ['SEARCH_FILTER_VIEW', 'MANAGE'],
    ['FIELD_VIEWS', 'MANAGE'],
    ['ACCOUNT', 'MANAGE'],
  ],
  member: [
    ['ASSETS', 'CREATE_ASSETS'],
    ['ASSETS', 'SEARCH_ASSETS'],
    ['FIELD_OPTIONS', 'CREATE_FIELD_OPTIONS'],
  ],
  viewer: [['ASSETS', 'SEARCH_ASSETS']],
};

export function permittedActions(role: Role, resourceType: ResourceType, resourceId: string): PermittedAction[] {
  return resourceActions[role][resourceType].map((action) => ({ resourceType, resourceId, action }));
}

export function accountPermittedActions(role: Role): PermittedAction[] {
  return accountActions[role].map(([resourceType, action]) => ({ resourceType, resourceId: null, action }));
}

export function may(role: Role, resourceType: ResourceType, action: string): boolean {
  return resourceActions[role][resourceType].includes(action);
}

export function mayAccount(role: Role, resourceType: string, action: string): boolean {
  return accountActions[role].some(([type, name]) => type === resourceType && name === action);
}

/** Throws 403 unless the role holds the action. */
export function requireAction(role: Role, resourceType: ResourceType, action: string): void {
  if (!may(role, resourceType, action)) {
    throw new ServiceError('FORBIDDEN', `Your role (${role}) may not ${action} a ${resourceType}.`);
  }
}

export function requireAccountAction(role: Role, resourceType: string, action: string): void {
  if (!mayAccount(role, resourceType, action)) {
    throw new ServiceError('FORBIDDEN', `Your role (${role}) may not ${action}.`);
  }
}
