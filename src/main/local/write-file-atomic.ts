/**
 * Writes a small file so that readers see the old content or the new, never a part: temp file beside
 * it, fsync, rename over. For the root marker now and the download writer's pattern later.
 */
import type { FileSystem } from './file-system.js';

export async function writeFileAtomic(fs: FileSystem, path: string, data: Uint8Array): Promise<void> {
  const temp = `${path}.partial`;
  const handle = await fs.openWrite(temp, { exclusive: false });
  try {
    await handle.write(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await fs.rename(temp, path);
  } catch (error) {
    await fs.unlink(temp).catch(() => undefined);
    throw error;
  }
}
