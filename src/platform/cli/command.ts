/** One subcommand of `asset-sync`: its entry point and the line `asset-sync help` shows for it. */
import type { CommandIo } from './command-io.js';

export interface Command {
  run(args: string[], io: CommandIo): Promise<number>;
  summary: string;
}
