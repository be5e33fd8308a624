/**
 * The account as the client sees it: the current user with the account-wide actions they hold, the
 * Folders field's id, and the field list (`GET /fields` is a bare array on the hosted service; a
 * `{result:[…]}` wrapper is accepted too).
 */
import { z } from 'zod';
import type { Envelope, Field, User } from '../../shared/api/resources.js';
import type { Requester } from './api-client.js';
import { envelopeSchema, fieldSchema, parseAnswer, unwrapResult, userSchema } from './wire-shapes.js';

const folderSettingsSchema = z.preprocess(unwrapResult, z.object({ fieldId: z.string() }));
const fieldListSchema = z.preprocess(unwrapResult, z.array(z.preprocess(unwrapResult, fieldSchema)));

export function accountResources(requester: Requester) {
  return {
    async currentUser(): Promise<Envelope<User>> {
      return parseAnswer(envelopeSchema(userSchema), await requester.json({ method: 'GET', path: '/current-user' }), 'GET', '/current-user');
    },

    /** A user of the account, by id (who added a file: `AssetFile.addedBy`). */
    async getUser(id: string): Promise<User> {
      const path = `/users/${encodeURIComponent(id)}`;
      return parseAnswer(envelopeSchema(userSchema), await requester.json({ method: 'GET', path }), 'GET', path).result;
    },

    async foldersFieldId(): Promise<string> {
      return parseAnswer(folderSettingsSchema, await requester.json({ method: 'GET', path: '/folder-settings' }), 'GET', '/folder-settings').fieldId;
    },

    async listFields(): Promise<Field[]> {
      return parseAnswer(fieldListSchema, await requester.json({ method: 'GET', path: '/fields' }), 'GET', '/fields');
    },
  };
}
