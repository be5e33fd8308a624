/** Child processes for benchmarks: each server runs in its own process and prints `listening on URL`. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

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
