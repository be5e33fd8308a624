/**
 * The error every bridge method rejects with. It carries only `{ name, code, message }` so that it
 * survives structured cloning (Electron IPC) and JSON (the control server) unchanged; a transport turns
 * whatever the app threw into one with `toBridgeError`.
 */
import type { BridgeErrorData } from './app-state.js';

/** Codes of the bridge's own failures; engine and API codes pass through as they are. */
export type BridgeErrorCode = 'INVALID_REQUEST' | 'UNKNOWN_METHOD' | 'NOT_FOUND' | 'TRANSPORT_CLOSED' | 'INTERNAL';

export class BridgeError extends Error implements BridgeErrorData {
  override readonly name: string;
  readonly code: string;

  constructor(code: BridgeErrorCode | (string & {}), message: string, name = 'BridgeError') {
    super(message);
    this.code = code;
    this.name = name;
  }

  toJSON(): BridgeErrorData {
    return { name: this.name, code: this.code, message: this.message };
  }
}

/** Plain data of any thrown value: a coded error keeps its name, code and message; anything else is INTERNAL. */
export function toBridgeError(error: unknown): BridgeErrorData {
  if (error instanceof Error) {
    const code = (error as Error & { code?: unknown }).code;
    if (typeof code === 'string' && code !== '') return { name: error.name, code, message: error.message };
    return { name: 'BridgeError', code: 'INTERNAL', message: error.message };
  }
  return { name: 'BridgeError', code: 'INTERNAL', message: String(error) };
}

/** Whether a value is bridge error data (for transports reading it back). */
export function isBridgeErrorData(value: unknown): value is BridgeErrorData {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return typeof record.name === 'string' && typeof record.code === 'string' && typeof record.message === 'string';
}
