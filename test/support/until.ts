/** Waits for a condition in integration tests: polls `probe` until it answers a value, or fails saying what it waited for. */
import { setTimeout as sleep } from 'node:timers/promises';

export async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, context: () => string = () => '', timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${context()}`);
    await sleep(20);
  }
}
