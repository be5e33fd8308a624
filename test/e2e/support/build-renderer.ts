/**
 * Vitest global setup: builds the renderer into dist/renderer/ once per run when its sources are newer
 * than the last build, so the browser tests always load the UI as it is in the tree (and `npx vitest
 * run test/e2e` works without a separate build step). Runs once in the main process, never per worker.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const sources = [join(repo, 'src/renderer'), join(repo, 'src/shared'), join(repo, 'vite.config.ts')];
const output = join(repo, 'dist/renderer/index.html');

/** The newest modification time under the given files and folders. */
async function newestMtime(paths: string[]): Promise<number> {
  let newest = 0;
  for (const path of paths) {
    const info = await stat(path);
    if (info.isDirectory()) {
      const names = await readdir(path);
      newest = Math.max(newest, await newestMtime(names.map((name) => join(path, name))));
    } else {
      newest = Math.max(newest, info.mtimeMs);
    }
  }
  return newest;
}

export default async function setup(): Promise<void> {
  const built = await stat(output).then((info) => info.mtimeMs, () => 0);
  if (built > (await newestMtime(sources))) return;
  await build({ configFile: join(repo, 'vite.config.ts'), logLevel: 'warn' });
}
