/**
 * Runs the `asset-sync` command in tests, from source: in-process through `main()` with a recording
 * io (fast; what a user types, minus the process), or as a child process the way
 * bench/support/cli-entry.ts runs it (`node --import tsx`), when the test needs a real process to kill
 * or to run as another user. Children are tracked so a test can stop every one it started.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { main } from '../../src/cli.js';
import { afterAll, beforeAll } from 'vitest';
import { recordingIo } from './fake-io.js';
import { startTestService, type TestService } from './test-service.js';

export interface CliRun {
  code: number;
  out: string;
  err: string;
}

/** `asset-sync …args` in this process. */
export async function cli(args: string[], env: Record<string, string | undefined> = {}): Promise<CliRun> {
  const io = recordingIo(env);
  const code = await main(args, io);
  return { code, out: io.outLines.join('\n'), err: io.errLines.join('\n') };
}

export interface CliChild {
  process: ChildProcess;
  /** What it printed so far. */
  readonly out: string;
  readonly err: string;
  /** Resolves with the exit code (null when killed by a signal) once it has exited. */
  exited: Promise<number | null>;
  /** SIGKILLs it if still running and waits for the exit. */
  kill(): Promise<void>;
}

const ENTRY = new URL('../../bench/support/cli-entry.ts', import.meta.url).pathname;
const ROOT = new URL('../..', import.meta.url).pathname;

/** `asset-sync …args` as a child process (as `user` when given: the caller must be root). */
export function spawnCli(args: string[], options: { env?: Record<string, string>; user?: { uid: number; gid: number } } = {}): CliChild {
  const child = spawn(process.execPath, ['--import', 'tsx', ENTRY, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', TMPDIR: process.env.TMPDIR ?? '/tmp', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.user === undefined ? {} : { uid: options.user.uid, gid: options.user.gid }),
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve(code));
  });
  return {
    process: child,
    get out() {
      return out;
    },
    get err() {
      return err;
    },
    exited,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited.catch(() => undefined);
    },
  };
}

/** Runs a child to its end (SIGKILLed after `timeoutMs`). */
export async function runCliChild(args: string[], options: Parameters<typeof spawnCli>[1] & { timeoutMs?: number } = {}): Promise<CliRun> {
  const child = spawnCli(args, options);
  const timer = setTimeout(() => void child.kill(), options.timeoutMs ?? 60_000);
  try {
    const code = await child.exited;
    return { code: code ?? -1, out: child.out, err: child.err };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A service for the CLI tests of one describe block, and the environment that signs the CLI in to it
 * (`ASSET_SYNC_TOKEN`): started in beforeAll, stopped in afterAll. Read both inside a test.
 */
export function signedInCliForBlock(): { readonly service: TestService; readonly env: Record<string, string> } {
  let started: { service: TestService; env: Record<string, string> } | undefined;
  beforeAll(async () => {
    const service = await startTestService();
    started = { service, env: { ASSET_SYNC_TOKEN: await service.token() } };
  });
  afterAll(async () => {
    await started?.service.dispose();
  });
  const get = (): { service: TestService; env: Record<string, string> } => {
    if (started === undefined) throw new Error("the block's service starts in beforeAll: read it inside a test");
    return started;
  };
  return {
    get service() {
      return get().service;
    },
    get env() {
      return get().env;
    },
  };
}
