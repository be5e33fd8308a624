/** Child processes for benchmarks: each server runs in its own process and prints `listening on URL`. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { threadCpu } from './thread-cpu.js';

export interface Child {
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts `node --import tsx <script> …args` and resolves with the URL it prints. `BENCH_NODE_ARGS`
 * (space-separated) adds Node flags to every child, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`, which
 * NODE_OPTIONS does not accept.
 */
export function startChild(script: string, args: string[]): Promise<Child> {
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter((arg) => arg !== '');
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    const timer = setTimeout(() => reject(new Error(`${script} did not start`)), 30_000);
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
    lines.on('line', (line) => {
      const match = /listening on (http:\/\/\S+)/.exec(line);
      if (match?.[1] === undefined) return;
      clearTimeout(timer);
      resolve({
        url: match[1],
        process: child,
        stop: () =>
          new Promise((done) => {
            if (child.exitCode !== null) {
              done();
              return;
            }
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
  });
}

/** Peak resident set size of a process in bytes (Linux), or undefined elsewhere. */
export async function peakRss(pid: number | undefined): Promise<number | undefined> {
  if (pid === undefined) return undefined;
  const { readFile } = await import('node:fs/promises');
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const match = /VmHWM:\s+(\d+) kB/.exec(status);
  return match?.[1] === undefined ? undefined : Number(match[1]) * 1024;
}

/** CPU time (user + system, all threads) a process has used so far, in ms (Linux), or undefined elsewhere. */
export async function cpuMs(pid: number | undefined): Promise<number | undefined> {
  if (pid === undefined) return undefined;
  const { readFile } = await import('node:fs/promises');
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  // Fields after the parenthesised command name: utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return Number.isFinite(ticks) ? ticks * 10 : undefined;
}

/** CPU time (user + system) of this process's children that have exited and been reaped so far, in ms (Linux), or undefined elsewhere. */
export async function reapedChildrenCpuMs(): Promise<number | undefined> {
  const { readFile } = await import('node:fs/promises');
  const stat = await readFile('/proc/self/stat', 'utf8').catch(() => '');
  // cutime and cstime are the 14th and 15th fields after the command name.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[13]) + Number(fields[14]);
  return Number.isFinite(ticks) ? ticks * 10 : undefined;
}

/** A loopback TCP port nothing listens on now (for programs that must be told their port). */
export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

export interface Program {
  process: ChildProcess;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once it has exited. */
  stop(graceMs?: number): Promise<void>;
}

/** Starts a program other than Node (a peer tool), its output appended to `logFile`. */
export async function startProgram(command: string, args: string[], logFile: string, env: NodeJS.ProcessEnv = process.env): Promise<Program> {
  const { openSync, closeSync } = await import('node:fs');
  const log = openSync(logFile, 'a');
  const child = spawn(command, args, { stdio: ['ignore', log, log], env });
  closeSync(log);
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  await new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', reject);
  });
  return {
    process: child,
    stop: async (graceMs = 10_000) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** The first line `command …args` prints, or undefined when it is not installed (or fails). */
export async function programVersion(command: string, args: string[]): Promise<string | undefined> {
  const { spawnSync } = await import('node:child_process');
  const result = spawnSync(command, args, { encoding: 'utf8', timeout: 30_000 });
  if (result.error !== undefined || result.status !== 0) return undefined;
  return result.stdout.split('\n')[0]?.trim();
}

/**
 * CPU time (user + system) a process and every live descendant have used so far, in ms (Linux), or
 * undefined elsewhere: for programs that run their work in a child of the process started (Syncthing's
 * monitor process does).
 */
export async function treeCpuMs(pid: number | undefined): Promise<number | undefined> {
  if (pid === undefined) return undefined;
  const { readFile, readdir } = await import('node:fs/promises');
  const parents = new Map<number, number>();
  for (const name of await readdir('/proc').catch(() => [])) {
    if (!/^\d+$/.test(name)) continue;
    const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => '');
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (Number.isFinite(parent)) parents.set(Number(name), parent);
  }
  const tree = new Set([pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [child, parent] of parents) {
      if (tree.has(parent) && !tree.has(child)) {
        tree.add(child);
        grew = true;
      }
    }
  }
  let total = 0;
  for (const member of tree) total += (await cpuMs(member)) ?? 0;
  return total;
}

/** CPU time (user + system, all threads) this process has used so far, in ms. */
export function processCpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

function mainThreadCpuMs(): number {
  const main = threadCpu().main;
  return main === undefined ? 0 : main.userMs + main.systemMs;
}

/** One timed run: its wall time, and the CPU this process (the client) and `server` spent in it. */
export interface MeasuredRun {
  ms: number;
  clientCpuMs: number;
  /**
   * Of clientCpuMs, what the client's main thread spent (0 where /proc is missing): the event loop is
   * the engine's bottleneck, and work moved to the pool shows here while the total stays.
   */
  clientMainCpuMs: number;
  serverCpuMs: number;
}

export async function measuredRun(server: Child, run: () => Promise<void>): Promise<MeasuredRun> {
  const clientBefore = processCpuMs();
  const mainBefore = mainThreadCpuMs();
  const serverBefore = (await cpuMs(server.process.pid)) ?? 0;
  const started = performance.now();
  await run();
  const ms = performance.now() - started;
  return { ms, clientCpuMs: processCpuMs() - clientBefore, clientMainCpuMs: mainThreadCpuMs() - mainBefore, serverCpuMs: ((await cpuMs(server.process.pid)) ?? 0) - serverBefore };
}
