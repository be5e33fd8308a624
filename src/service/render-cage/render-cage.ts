/**
 * The render cage: previews and download transformations of users' files are rendered in a pool of
 * separate processes (render-process.ts), never in the service's process. Why processes and not
 * worker threads: sharp's work runs in libvips's native threads and on libuv's thread pool, which a
 * worker thread shares with the whole process (the pool that also reads downloads, writes uploads and
 * hashes passwords), and a worker thread's resourceLimits bound only its JavaScript heap, not native
 * memory or processor time, and terminating it cannot stop a libvips call already running. A process
 * has its own thread pool and libvips threads, its processor time and memory can be measured whole,
 * and SIGKILL stops it whatever it is doing.
 *
 * Limits (ServiceConfig.render): each job may use `cpuMs` of processor time (all the process's threads
 * counted) and `wallMs` of wall time, and the process may hold `memoryMb` resident; over any of them
 * the process is killed, the job fails with TIME_LIMIT or MEMORY_LIMIT, and a new process takes its
 * place at the next job. Processes are kept and reused (starting one costs a Node start and loading
 * sharp), at most `processes` of them, one job each at a time. Jobs wait in a FairQueue: accounts take
 * turns, so one account's files, or one slow file, cannot hold up everyone else's.
 *
 * From source (tests, the bench) the process runs its TypeScript through tsx; from dist, the compiled
 * render-process.js next to this file.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { channel } from 'node:diagnostics_channel';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RENDER_CONCURRENCY } from '../transforms/transform-cache.js';
import { FairQueue } from './fair-queue.js';
import { RenderFailure, type FromRenderer, type OutputOf, type RenderJob, type RenderOutput, type ToRenderer } from './render-jobs.js';

export interface RenderLimits {
  /** Render processes kept; each renders one file at a time. */
  processes: number;
  /** Processor time one render may use, milliseconds (every thread of its process counted). */
  cpuMs: number;
  /** Wall time one render may take, milliseconds (also bounds a process that stops reporting). */
  wallMs: number;
  /** Resident memory a render process may reach, MiB (its JavaScript heap is capped below it). */
  memoryMb: number;
}

export const DEFAULT_RENDER_LIMITS: RenderLimits = {
  processes: RENDER_CONCURRENCY,
  cpuMs: 20_000,
  wallMs: 60_000,
  memoryMb: 1024,
};

/**
 * Each job as it starts in a process and as its fate is decided: `{ phase, label, kind, pid }`, and at
 * the end `outcome` (done, failed, killed) with the failure's `reason`. Tests order what happened
 * around a render by it; publishing costs nothing while no one subscribes.
 */
export const renderCageEvents = channel('asset-sync:render-cage');

export interface RenderCageEvent {
  phase: 'start' | 'end';
  label: string;
  kind: RenderJob['kind'];
  pid: number;
  outcome?: 'done' | 'failed' | 'killed';
  reason?: RenderFailure['reason'];
}

interface Waiting {
  owner: string;
  label: string;
  job: RenderJob;
  resolve(output: RenderOutput): void;
  reject(error: Error): void;
}

interface Running extends Waiting {
  id: number;
  wallTimer: NodeJS.Timeout;
}

interface Slot {
  child: ChildProcess | undefined;
  ready: boolean;
  running: Running | undefined;
  /** Why the cage killed this slot's process, for the job that was running. */
  killedFor: RenderFailure | undefined;
}

const here = fileURLToPath(import.meta.url);
// Beside this file when it is tsc's output; from the CLI's bundle (dist/bundle/, resources/build-cli.js),
// where this code sits in a chunk, tsc's output of it in dist/service/render-cage/.
const compiled = here.endsWith('render-cage.js') || here.endsWith('render-cage.ts') ? here.replace(/\.ts$/, '.js').replace(/render-cage\.js$/, 'render-process.js') : join(dirname(here), '..', 'service', 'render-cage', 'render-process.js');

/** Renders users' files: the cage in the service; an in-process stand-in in the deterministic simulation. */
export interface Renderer {
  run<J extends RenderJob>(owner: string, label: string, job: J): Promise<OutputOf<J>>;
  close(): Promise<void>;
}

/** The render process's entry and how Node runs it: the compiled file, else the source through tsx. */
function entryOf(): { path: string; execArgv: string[] } {
  if (here.endsWith('.js') && existsSync(compiled)) return { path: compiled, execArgv: [] };
  return { path: here.replace(/render-cage\.ts$/, 'render-process.ts'), execArgv: ['--import', 'tsx'] };
}

export class RenderCage implements Renderer {
  private readonly queue = new FairQueue<Waiting>();
  private readonly slots: Slot[];
  private sequence = 0;
  private closed = false;

  constructor(
    private readonly limits: RenderLimits,
    private readonly onProblem: (message: string, error?: unknown) => void = () => undefined,
  ) {
    this.slots = Array.from({ length: Math.max(1, limits.processes) }, () => ({ child: undefined, ready: false, running: undefined, killedFor: undefined }));
  }

  /**
   * Renders the job in a process of the pool, in `owner`'s turn; `label` names it in renderCageEvents.
   * Rejects with a RenderFailure (its `reason` says why) when the file is refused or a limit is hit.
   */
  run<J extends RenderJob>(owner: string, label: string, job: J): Promise<OutputOf<J>> {
    if (this.closed) return Promise.reject(new RenderFailure('UNAVAILABLE', 'The service is shutting down.'));
    return new Promise<OutputOf<J>>((resolve, reject) => {
      // The process answers a job of this kind with this kind's output (render-jobs.ts runRenderJob).
      this.queue.push(owner, { owner, label, job, resolve: (output) => resolve(output as OutputOf<J>), reject });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const waiting of this.queue.drain()) waiting.reject(new RenderFailure('UNAVAILABLE', 'The service is shutting down.'));
    const exits = this.slots.map((slot) => {
      const child = slot.child;
      if (child === undefined || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
      return new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      });
    });
    await Promise.all(exits);
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (this.queue.size === 0 || this.closed) return;
      if (slot.running !== undefined) continue;
      if (slot.child === undefined) this.spawn(slot);
      if (!slot.ready) continue;
      const next = this.queue.shift();
      if (next !== undefined) this.start(slot, next);
    }
  }

  private spawn(slot: Slot): void {
    const entry = entryOf();
    const heapMb = Math.max(64, Math.floor(this.limits.memoryMb / 4));
    const child = fork(entry.path, [], {
      execArgv: [...entry.execArgv, `--max-old-space-size=${heapMb}`],
      // Its own thread pool: what it blocks is its own. One libvips thread per image.
      env: { ...process.env, UV_THREADPOOL_SIZE: '2', VIPS_CONCURRENCY: '1' },
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    slot.child = child;
    slot.ready = false;
    let errors = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      errors = (errors + chunk.toString()).slice(-2000);
    });
    child.on('message', (message: FromRenderer) => this.heard(slot, child, message));
    child.on('error', (error) => this.onProblem('a render process could not be started', error));
    child.on('exit', (code, signal) => {
      if (slot.child !== child) return;
      const wasReady = slot.ready;
      slot.child = undefined;
      slot.ready = false;
      const running = slot.running;
      const killed = slot.killedFor;
      slot.running = undefined;
      slot.killedFor = undefined;
      if (!wasReady && running === undefined && !this.closed) {
        // It died before it could render anything (a missing entry, a broken install): starting another
        // would only die the same way, so the files waiting now fail, and the next job tries again.
        const failure = new RenderFailure('UNAVAILABLE', `A render process could not start (${signal ?? `exit code ${code}`}).`);
        this.onProblem(`a render process could not start: ${errors.trim()}`);
        for (const waiting of this.queue.drain()) waiting.reject(failure);
      } else if (running !== undefined) {
        clearTimeout(running.wallTimer);
        const failure = killed ?? new RenderFailure('CRASHED', `The render process ended (${signal ?? `exit code ${code}`}) while rendering this file.`);
        if (killed === undefined && !this.closed) this.onProblem(`a render process ended unexpectedly: ${errors.trim()}`);
        this.publish('end', running, child, killed === undefined ? 'failed' : 'killed', failure.reason);
        running.reject(failure);
      } else if (!this.closed) {
        this.onProblem(`a render process ended: ${errors.trim()}`);
      }
      this.dispatch();
    });
  }

  private start(slot: Slot, waiting: Waiting): void {
    const child = slot.child;
    if (child === undefined) return;
    const id = ++this.sequence;
    const wallTimer = setTimeout(() => this.kill(slot, new RenderFailure('TIME_LIMIT', `Rendering this file took longer than ${seconds(this.limits.wallMs)}, so it was stopped.`)), this.limits.wallMs);
    slot.running = { ...waiting, id, wallTimer };
    this.publish('start', waiting, child);
    child.send({ type: 'job', id, job: waiting.job } satisfies ToRenderer);
  }

  private heard(slot: Slot, child: ChildProcess, message: FromRenderer): void {
    if (slot.child !== child) return;
    if (message.type === 'ready') {
      slot.ready = true;
      this.dispatch();
      return;
    }
    const running = slot.running;
    if (running?.id !== message.id || slot.killedFor !== undefined) return;
    if (message.type === 'usage') {
      if (message.cpuMicros > this.limits.cpuMs * 1000) {
        this.kill(slot, new RenderFailure('TIME_LIMIT', `Rendering this file used more than ${seconds(this.limits.cpuMs)} of processor time, so it was stopped.`));
      } else if (message.rssBytes > this.limits.memoryMb * 1024 * 1024) {
        this.kill(slot, new RenderFailure('MEMORY_LIMIT', `Rendering this file needed more than ${this.limits.memoryMb} MiB of memory, so it was stopped.`));
      }
      return;
    }
    clearTimeout(running.wallTimer);
    slot.running = undefined;
    if (message.type === 'done') {
      this.publish('end', running, child, 'done');
      running.resolve(message.output);
    } else {
      this.publish('end', running, child, 'failed', message.reason);
      running.reject(new RenderFailure(message.reason, message.message));
    }
    this.dispatch();
  }

  /** Kills the slot's process for the job it runs; its exit fails the job and frees the slot. */
  private kill(slot: Slot, failure: RenderFailure): void {
    if (slot.killedFor !== undefined || slot.child === undefined) return;
    slot.killedFor = failure;
    slot.child.kill('SIGKILL');
  }

  private publish(phase: RenderCageEvent['phase'], job: Waiting, child: ChildProcess, outcome?: RenderCageEvent['outcome'], reason?: RenderCageEvent['reason']): void {
    if (!renderCageEvents.hasSubscribers) return;
    renderCageEvents.publish({ phase, label: job.label, kind: job.job.kind, pid: child.pid ?? 0, ...(outcome === undefined ? {} : { outcome }), ...(reason === undefined ? {} : { reason }) } satisfies RenderCageEvent);
  }
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
