/** One subcommand of `asset-sync`: its entry point and the line `asset-sync help` shows for it. */
import type { CommandIo } from './command-io.js';

export interface Command {
  run(args: string[], io: CommandIo): Promise<number>;
  summary: string;
}

/**
 * A command whose module is loaded only when it runs: `asset-sync --help` loads none of them, and each
 * command loads its own (the service's, the engine's, the UI server's) and nothing of the others'.
 */
export function lazyCommand<M>(load: () => Promise<M>, entry: (module: M) => Command['run'], summary: string): Command {
  return { summary, run: async (args, io) => entry(await load())(args, io) };
}
