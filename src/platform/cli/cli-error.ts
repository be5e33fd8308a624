/** Failures the CLI reports to a person: a message to act on, a stable code, and the exit status. */
export type CliErrorCode = 'USAGE' | 'NOT_FOUND' | 'PORT_IN_USE' | 'FAILED';

export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(
    readonly code: CliErrorCode,
    message: string,
    readonly exitCode: number = code === 'USAGE' ? 2 : 1,
  ) {
    super(message);
  }
}
