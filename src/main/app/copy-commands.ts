/**
 * The bridge commands that copy files into a synced folder (a window's drop, the tray's drop, the
 * control server's streamed PUT): each file lands under a free name (copy-in.ts) and shows in the
 * activity log while it copies. They copy, never move, and never write over an existing file.
 */
import { join, relative } from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { AppBridge, CopyItem } from '../../shared/bridge/app-bridge.js';
import { toBridgeError } from '../../shared/bridge/bridge-error.js';
import type { RenamedCopy } from '../../shared/bridge/copy-result.js';
import type { ActivityLog } from './activity-log.js';
import type { AppSession } from './app-session.js';
import type { AppController } from './app-types.js';
import { copyPathInto, copyStreamInto, targetDir, type CopyProgress } from './copy-in.js';
import { rootOf } from './session-root.js';

export type CopyCommands = Pick<AppBridge, 'copyIn'> & Pick<AppController, 'copyInStream'>;

export interface CopyCommandParts {
  session: AppSession;
  activity: ActivityLog;
  changed: () => void;
}

export function copyCommands({ session, activity, changed }: CopyCommandParts): CopyCommands {
  const copyProgress = (folderId: string, root: string): CopyProgress => ({
    started: (target, bytes) => activity.add({ folderId, relPath: relative(root, target).split('\\').join('/'), kind: 'copy-in', status: 'running', bytesTotal: bytes }).id,
    bytes: (id, count) => activity.progress(id, count),
    finished: (id, error) => activity.finish(id, error === undefined ? { status: 'done' } : { status: 'failed', error: toBridgeError(error) }),
  });

  return {
    async copyIn(request) {
      const current = session.require();
      const root = rootOf(current, request.folderId);
      const dir = await targetDir(root.path, request.relDir);
      const inFolder = (path: string): string => relative(root.path, join(dir, path)).split('\\').join('/');
      let copied = 0;
      const renamed: RenamedCopy[] = [];
      for (const item of request.items as readonly CopyItem[]) {
        if (item.kind === 'path') {
          const result = await copyPathInto(item.path, dir, copyProgress(root.id, root.path));
          copied += result.copied;
          renamed.push(...result.renamed.map((entry) => ({ asked: inFolder(entry.asked), named: inFolder(entry.named) })));
        } else {
          const body = Readable.fromWeb(item.body.stream() as NodeReadableStream<Uint8Array>);
          const named = await copyStreamInto(body, dir, item.relPath, { size: item.body.size, lastModified: item.lastModified }, copyProgress(root.id, root.path));
          copied++;
          const asked = item.relPath.split('/').filter((part) => part !== '' && part !== '.').join('/');
          if (named !== asked) renamed.push({ asked: inFolder(asked), named: inFolder(named) });
        }
      }
      changed();
      return { copied, renamed };
    },

    async copyInStream(request) {
      const current = session.require();
      const root = rootOf(current, request.folderId);
      const dir = await targetDir(root.path, request.relDir);
      const written = await copyStreamInto(request.body, dir, request.relPath, { size: request.size, lastModified: request.lastModified }, copyProgress(root.id, root.path));
      changed();
      return { relPath: relative(root.path, join(dir, written)).split('\\').join('/') };
    },
  };
}
