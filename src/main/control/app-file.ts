/**
 * `app.json` in the state directory: how the CLI finds the running app (its control server's address
 * and secret, and its pid). Written 0600 from its first byte (the secret is a key to the app), removed
 * on exit; a file left by a crash is told apart by its pid and by the server not answering.
 */
import { open, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';

export const APP_FILE = 'app.json';

export interface AppFile {
  /** The control server's origin, `http://127.0.0.1:PORT` (no secret). */
  origin: string;
  secret: string;
  pid: number;
  startedAt: string;
}

export function appFilePath(stateDir: string): string {
  return join(stateDir, APP_FILE);
}

export async function writeAppFile(stateDir: string, file: AppFile): Promise<void> {
  const target = appFilePath(stateDir);
  const temporary = join(stateDir, `.${APP_FILE}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temporary, 'wx', 0o600);
  try {
    await handle.writeFile(`${JSON.stringify(file, null, 2)}\n`, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, target);
}

export async function removeAppFile(stateDir: string, secret: string): Promise<void> {
  // Only our own: another app started since (on the same state dir) keeps its file.
  const current = await readAppFile(stateDir);
  if (current?.secret === secret) await rm(appFilePath(stateDir), { force: true });
}

export async function readAppFile(stateDir: string): Promise<AppFile | undefined> {
  let text: string;
  try {
    text = await readFile(appFilePath(stateDir), 'utf8');
  } catch {
    return undefined;
  }
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null) return undefined;
    const record = value as Record<string, unknown>;
    const { origin, secret, pid, startedAt } = record;
    if (typeof origin !== 'string' || typeof secret !== 'string' || typeof pid !== 'number' || typeof startedAt !== 'string') return undefined;
    if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(origin)) return undefined;
    return { origin, secret, pid, startedAt };
  } catch {
    return undefined;
  }
}

/** Whether the process that wrote the file is still there (signal 0 only checks). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error instanceof Error && 'code' in error && error.code === 'EPERM';
  }
}
