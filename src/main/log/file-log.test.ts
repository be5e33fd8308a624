import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileLog } from './file-log.js';
import { redact } from './redact.js';
import { tempDir } from '../../../test/support/temp-dir.js';

describe('the engine log', () => {
  it('writes JSON lines and rotates by size, keeping a bounded number of files', () => {
    const dir = tempDir('asset-sync-log-');
    const log = new FileLog(dir, { maxBytes: 400, keep: 2, now: () => Date.UTC(2026, 10, 22) });
    for (let index = 0; index < 20; index++) log.write({ level: 'info', message: `line ${index}`, relPath: 'a/b.txt' });
    expect(readdirSync(dir).sort()).toEqual(['engine.log', 'engine.log.1', 'engine.log.2']);
    const lines = readFileSync(join(dir, 'engine.log'), 'utf8').trim().split('\n');
    expect(JSON.parse(lines.at(-1) ?? '{}')).toEqual({ time: '2026-11-22T00:00:00.000Z', level: 'info', message: 'line 19', relPath: 'a/b.txt' });
    expect(readFileSync(join(dir, 'engine.log'), 'utf8').length).toBeLessThanOrEqual(400);
  });

  it.each([
    ['GET http://127.0.0.1:7480/files/abc/content?expires=1&signature=xyz failed', 'GET http://127.0.0.1:7480/files/abc/content?… failed'],
    ['Authorization: Bearer eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln', 'Authorization: Bearer …'],
    ['token eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln leaked', 'token …jwt… leaked'],
    ['body refresh_token=abc123&client_id=x', 'body refresh_token=…&client_id=x'],
    ['plain message', 'plain message'],
  ])('redacts %s', (input, output) => {
    expect(redact(input)).toBe(output);
  });
});
