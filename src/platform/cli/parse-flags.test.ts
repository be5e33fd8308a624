import { describe, expect, it } from 'vitest';
import { closestOption, parseFlags } from './parse-flags.js';

const options = { once: { type: 'boolean' }, server: { type: 'string' }, 'max-upload-rate': { type: 'string' } } as const;

describe('parseFlags', () => {
  it('suggests the option a typo meant, and says nothing when none is close', () => {
    expect(() => parseFlags('sync', ['--onse'], options)).toThrow('unknown option --onse; did you mean --once? (see `asset-sync sync --help`)');
    expect(() => parseFlags('sync', ['--max-upload'], options)).toThrow('did you mean --max-upload-rate?');
    expect(() => parseFlags('sync', ['--colour'], options)).toThrow(/^unknown option --colour \(see/);
    expect(closestOption('sever', ['server', 'state'])).toBe('server');
  });

  it('says what a value problem is, in our words', () => {
    expect(() => parseFlags('sync', ['--server'], options)).toThrow('--server needs a value');
    expect(() => parseFlags('sync', ['--once=yes'], options)).toThrow('--once takes no value');
  });

  it('refuses positional arguments a command does not take', () => {
    expect(() => parseFlags('status', ['now'], {})).toThrow('unexpected argument "now" (see `asset-sync status --help`)');
    expect(parseFlags('folders', ['remove', '/x'], {}, { positionals: 2 }).positionals).toEqual(['remove', '/x']);
    expect(() => parseFlags('folders', ['remove', '/x', '/y'], {}, { positionals: 2 })).toThrow('unexpected argument "/y"');
  });
});
