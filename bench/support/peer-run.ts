/** What the bench measures of a peer tool's run, and the check that it delivered every file. */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export interface PeerRun {
  ms: number;
  /** CPU (user + system) of the sending and of the receiving side during the run, ms. */
  clientCpuMs: number;
  serverCpuMs: number;
}

/** The files under `dir` and their bytes, leaving out dot names (the tools' markers and temporary files). */
export function filesOnDisk(dir: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || entry.name.startsWith('.')) continue;
    files++;
    bytes += statSync(join(entry.parentPath, entry.name)).size;
  }
  return { files, bytes };
}

/** Throws unless `dir` holds `files` files of `bytes` bytes in all, naming `tool` and what it left. */
export function expectDelivered(tool: string, dir: string, files: number, bytes: number): void {
  const found = filesOnDisk(dir);
  if (found.files !== files || found.bytes !== bytes) throw new Error(`${tool} finished with ${found.files} files (${found.bytes} bytes) in ${dir}, not ${files} (${bytes})`);
}
