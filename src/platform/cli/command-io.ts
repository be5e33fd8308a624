/** What a command may touch of its process: output streams, the environment and interruption. */
export interface CommandIo {
  out(line: string): void;
  err(line: string): void;
  env: Record<string, string | undefined>;
  /** Resolves on SIGINT/SIGTERM. */
  untilInterrupted(): Promise<void>;
  /** Rewrites the current stderr line in place; present only when stderr is a terminal. */
  live?: (text: string) => void;
}

export function processIo(): CommandIo {
  return {
    out: (line) => void process.stdout.write(`${line}\n`),
    err: (line) => void process.stderr.write(`${line}\n`),
    env: process.env,
    ...(process.stderr.isTTY ? { live: (text: string) => void process.stderr.write(`\r\u001b[2K${text}`) } : {}),
    untilInterrupted: () =>
      new Promise((resolve) => {
        process.once('SIGINT', () => resolve());
        process.once('SIGTERM', () => resolve());
      }),
  };
}
