/**
 * The shape of every bridge method's arguments as they arrive over IPC, checked in main before the
 * controller sees them (Electron's security checklist: validate every IPC message). A renderer is
 * untrusted input: extra keys, wrong types and oversized lists are refused with INVALID_REQUEST, never
 * passed on. Dropped bytes arrive as a Uint8Array (a Blob does not survive IPC) and become a Blob here.
 */
import { z } from 'zod';
import type { AppBridge, BridgeMethod, CopyItem } from '../../shared/bridge/app-bridge.js';
import { BridgeError } from '../../shared/bridge/bridge-error.js';

const text = z.string().min(1).max(4096);
const relPath = z.string().max(4096);
const folderId = z.string().min(1).max(256);
const span = z.enum(['one-hour', 'until-resumed']);
const rate = z.number().int().min(1).nullable();

const copyItem: z.ZodType<CopyItem> = z.union([
  z.strictObject({ kind: z.literal('path'), path: text }),
  z
    .strictObject({ kind: z.literal('bytes'), relPath: text, lastModified: z.number(), body: z.instanceof(Uint8Array) })
    .transform((item): CopyItem => ({ kind: 'bytes', relPath: item.relPath, lastModified: item.lastModified, body: new Blob([item.body]) })),
]);

const none = z.tuple([]);
const one = <T extends z.ZodType>(schema: T) => z.tuple([schema]);

/** Each method's argument list. The type ties every schema to the method's real parameters. */
type ArgumentSchemas = { [M in BridgeMethod]: z.ZodType<Parameters<AppBridge[M]>> };

export const argumentSchemas: ArgumentSchemas = {
  getState: none,
  listActivity: one(z.strictObject({ before: z.number().int().optional(), limit: z.number().int().min(1).max(5000) })),
  addFolder: one(z.strictObject({ path: text, remotePath: text, publishLive: z.boolean() })),
  removeFolder: one(z.strictObject({ folderId })),
  updateFolder: one(z.strictObject({ folderId, remotePath: text.optional(), publishLive: z.boolean().optional() })),
  pause: one(z.strictObject({ folderId: folderId.optional(), span })),
  resume: one(z.strictObject({ folderId: folderId.optional() })),
  syncNow: one(z.strictObject({ folderId: folderId.optional() })),
  resolveConflict: one(z.strictObject({ conflictId: z.number().int().nonnegative(), keep: z.enum(['mine', 'theirs', 'both']) })),
  retry: one(z.strictObject({ folderId, relPath: relPath.optional() })),
  confirmDeletions: one(z.strictObject({ folderId })),
  restoreDeletions: one(z.strictObject({ folderId })),
  copyIn: one(z.strictObject({ folderId, relDir: relPath, items: z.array(copyItem).min(1).max(100_000) })),
  signIn: one(z.strictObject({ server: text })),
  useLocalLibrary: none,
  signOut: none,
  updateSettings: one(
    z.strictObject({
      publishLive: z.boolean().optional(),
      uploadBytesPerSecond: rate.optional(),
      downloadBytesPerSecond: rate.optional(),
      launchAtLogin: z.boolean().optional(),
      startWithLocalLibrary: z.boolean().optional(),
      notifications: z.boolean().optional(),
      downloadFolder: text.nullable().optional(),
    }),
  ),
  openConflictVersion: one(z.strictObject({ conflictId: z.number().int().nonnegative(), side: z.enum(['mine', 'theirs']) })),
  openPath: one(z.strictObject({ folderId, relPath: relPath.optional(), reveal: z.boolean().optional() })),
  searchAssets: one(z.strictObject({ text: z.string().min(1).max(200), limit: z.number().int().min(1).max(100) })),
  listPresets: none,
  quickDownload: one(z.strictObject({ assetId: z.string().min(1).max(256), presetId: z.string().min(1).max(256).nullable() })),
  revealDownload: one(z.strictObject({ downloadId: z.number().int().positive() })),
};

/** The checked arguments of one call, or an INVALID_REQUEST error naming the first problem. */
export function parseArguments<M extends BridgeMethod>(method: M, args: unknown[]): Parameters<AppBridge[M]> {
  const schema: z.ZodType<Parameters<AppBridge[M]>> = argumentSchemas[method];
  const result = schema.safeParse(args);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue === undefined || issue.path.length === 0 ? '' : ` at ${issue.path.join('.')}`;
  throw new BridgeError('INVALID_REQUEST', `The window sent ${method} a request the app cannot read${where}: ${issue?.message ?? 'invalid'}.`);
}
