/**
 * `app.json` in the state directory: how the CLI finds the running app (its control server's address,
 * the CLI's key, and its pid). Written 0600 from its first byte (the key is a key to the app), removed
 * on exit; a file left by a crash is told apart by its pid and by the server not answering.
 */
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writePrivateFile } from './private-file.js';

export const APP_FILE = 'app.json';

export interface AppFile {
  /** The control server's origin, `http://127.0.0.1:PORT` (no secret). */
  origin: string;
  /** The CLI's bearer key (never a window link). */
  cliKey: string;
  pid: number;
  startedAt: string;
}

export function appFilePath(stateDir: string): string {
  return join(stateDir, APP_FILE);
}

export async function writeAppFile(stateDir: string, file: AppFile): Promise<void> {
  await writePrivateFile(appFilePath(stateDir), `${JSON.stringify(file, null, 2)}\n`);
}

export async function removeAppFile(stateDir: string, cliKey: string): Promise<void> {
  // Only our own: another app started since (on the same state dir) keeps its file.
  const current = await readAppFile(stateDir);
  if (current?.cliKey === cliKey) await rm(appFilePath(stateDir), { force: true });
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
    const { origin, cliKey, pid, startedAt } = record;
    if (typeof origin !== 'string' || typeof cliKey !== 'string' || typeof pid !== 'number' || typeof startedAt !== 'string') return undefined;
    if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(origin)) return undefined;
    return { origin, cliKey, pid, startedAt };
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
