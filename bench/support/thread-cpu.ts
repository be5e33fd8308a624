/**
 * CPU time of this process by kind of thread, from /proc/self/task (Linux; empty elsewhere): the main
 * thread (JavaScript, and the service's HTTP, SQLite and JSON when it runs in-process), libvips' workers,
 * and the rest (libuv's pool, where sharp's pipelines and file reads wait, and V8's helpers). CPU time,
 * unlike wall time, barely moves when the shared machine is loaded, so it says where work went.
 */
import { readFileSync, readdirSync } from 'node:fs';

export interface ThreadCpu {
  /** Milliseconds of user and system time, by thread kind. */
  [kind: string]: { userMs: number; systemMs: number };
}

/** Clock ticks per second of /proc's utime and stime: 100 on every Linux this runs on. */
const TICK_MS = 10;

export function threadCpu(): ThreadCpu {
  const result: ThreadCpu = {};
  let tasks: string[];
  try {
    tasks = readdirSync('/proc/self/task');
  } catch {
    return result;
  }
  for (const tid of tasks) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    } catch {
      continue; // the thread ended meanwhile
    }
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const kind = tid === String(process.pid) ? 'main' : name.startsWith('libvips') ? 'libvips' : 'other';
    const entry = (result[kind] ??= { userMs: 0, systemMs: 0 });
    entry.userMs += Number(fields[11]) * TICK_MS;
    entry.systemMs += Number(fields[12]) * TICK_MS;
  }
  return result;
}

/** What each kind of thread spent between two readings (threads that ended meanwhile are not counted). */
export function threadCpuSince(before: ThreadCpu, after: ThreadCpu = threadCpu()): ThreadCpu {
  const result: ThreadCpu = {};
  for (const [kind, now] of Object.entries(after)) {
    const then = before[kind] ?? { userMs: 0, systemMs: 0 };
    result[kind] = { userMs: now.userMs - then.userMs, systemMs: now.systemMs - then.systemMs };
  }
  return result;
}

/** `main 120+10, libvips 1200+40, other 60+5` (user+system ms). */
export function formatThreadCpu(cpu: ThreadCpu): string {
  return Object.entries(cpu)
    .map(([kind, { userMs, systemMs }]) => `${kind} ${userMs.toFixed(0)}+${systemMs.toFixed(0)}`)
    .join(', ');
}
