/**
 * A lock file beside the token file, held while a refresh runs, so that two processes of the app (the
 * engine and a CLI command) never both present the same refresh token: with rotation, the second use
 * would count as theft and end the sign-in. A lock older than `staleMs` is from a crashed process and
 * is broken. Real time on purpose: it coordinates with other processes, not with the injected clock.
 */
import { mkdir, open, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { ApiError } from '../api/index.js';

export const TOKEN_LOCK_FILE = 'tokens.lock';

export interface LockTiming {
  /** Give up waiting for another process after this long, ms. */
  waitMs: number;
  /** A lock file older than this is abandoned, ms. */
  staleMs: number;
  /** Between two tries, ms. */
  pollMs: number;
}

export const DEFAULT_LOCK_TIMING: LockTiming = { waitMs: 20_000, staleMs: 60_000, pollMs: 50 };

const isCode = (error: unknown, code: string): boolean => error instanceof Error && 'code' in error && error.code === code;

async function acquire(path: string, timing: LockTiming): Promise<void> {
  const started = Date.now();
  for (;;) {
    try {
      const handle = await open(path, 'wx', 0o600);
      try {
        await handle.writeFile(String(process.pid));
      } finally {
        await handle.close();
      }
      return;
    } catch (error) {
      if (isCode(error, 'ENOENT')) {
        // No state dir yet: nobody signed in, which the caller finds out once it holds the lock.
        await mkdir(dirname(path), { recursive: true, mode: 0o700 });
        continue;
      }
      if (!isCode(error, 'EEXIST')) throw error;
    }
    const age = await stat(path).then(
      (info) => Date.now() - info.mtimeMs,
      () => 0,
    );
    if (age > timing.staleMs) {
      await rm(path, { force: true });
      continue;
    }
    if (Date.now() - started > timing.waitMs) {
      throw new ApiError({ code: 'TOKEN_LOCK_TIMEOUT', retryable: true, message: `Another Asset Sync process has been refreshing the sign-in for over ${Math.round(timing.waitMs / 1000)} s.` });
    }
    await delay(timing.pollMs);
  }
}

/** Runs `fn` holding the token lock of `stateDir`. */
export async function withTokenLock<T>(stateDir: string, fn: () => Promise<T>, timing: LockTiming = DEFAULT_LOCK_TIMING): Promise<T> {
  const path = join(stateDir, TOKEN_LOCK_FILE);
  await acquire(path, timing);
  try {
    return await fn();
  } finally {
    await rm(path, { force: true });
  }
}
