/** A CommandIo that records what a command prints, for CLI tests. */
import type { CommandIo } from '../../src/platform/cli/command-io.js';

export interface RecordingIo extends CommandIo {
  outLines: string[];
  errLines: string[];
  /** Ends a command waiting in untilInterrupted(). */
  interrupt(): void;
}

export function recordingIo(env: Record<string, string | undefined> = {}): RecordingIo {
  let interrupt = (): void => undefined;
  const interrupted = new Promise<void>((resolve) => {
    interrupt = resolve;
  });
  const io: RecordingIo = {
    outLines: [],
    errLines: [],
    out: (line) => void io.outLines.push(line),
    err: (line) => void io.errLines.push(line),
    env,
    untilInterrupted: () => interrupted,
    interrupt: () => interrupt(),
  };
  return io;
}
