/** The one assertion of an error answer in the HTTP tests: its status, its stable `code`, and optionally words of its message. */
import { expect } from 'vitest';
import type { ApiAnswer } from './test-service.js';

export function expectApiError(answer: ApiAnswer, status: number, code: string, fragment?: string): void {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.body).toMatchObject({ status, code });
  if (fragment !== undefined) expect(answer.body.message).toContain(fragment);
}
