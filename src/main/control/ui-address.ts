/**
 * `ui.json` in the state directory: what the browser UI keeps across starts so an open tab, a bookmark
 * and the printed address stay good: its home port and the key its session cookies are signed with
 * (request-guard.ts). Kept 0600 (the cookie key lets a browser in); a key in a file that others may
 * read is not trusted and is replaced, which signs every browser out once. Deleting the file does the
 * same on purpose. Never holds the per-start secret: that one lives in app.json while the app runs.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { writePrivateFile } from './private-file.js';

export const UI_FILE = 'ui.json';

export interface UiAddress {
  /** The port the UI asks for first at every start (`127.0.0.1:PORT`). */
  port: number;
  /** Signs the session cookies (32 random bytes, base64url). */
  cookieKey: string;
}

export function uiFilePath(stateDir: string): string {
  return join(stateDir, UI_FILE);
}

/** What the state dir remembers: nothing of a missing or unreadable file, no key from a file others can read. */
export async function readUiAddress(stateDir: string, platform: NodeJS.Platform = process.platform): Promise<Partial<UiAddress>> {
  const path = uiFilePath(stateDir);
  let text: string;
  let mode: number;
  try {
    [text, mode] = await Promise.all([readFile(path, 'utf8'), stat(path).then((info) => info.mode)]);
  } catch {
    return {};
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return {};
  }
  if (typeof value !== 'object' || value === null) return {};
  const { port, cookieKey } = value as Record<string, unknown>;
  const remembered: Partial<UiAddress> = {};
  if (typeof port === 'number' && Number.isInteger(port) && port > 0 && port <= 65535) remembered.port = port;
  // Windows has no owner-only mode bits: there the state dir's own ACL guards the file.
  const ownerOnly = platform === 'win32' || (mode & 0o077) === 0;
  if (ownerOnly && typeof cookieKey === 'string' && /^[A-Za-z0-9_-]{43,}$/.test(cookieKey)) remembered.cookieKey = cookieKey;
  return remembered;
}

export async function keepUiAddress(stateDir: string, address: UiAddress): Promise<void> {
  await writePrivateFile(uiFilePath(stateDir), `${JSON.stringify(address, null, 2)}\n`);
}
